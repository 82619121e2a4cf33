"""The execution reviewer: judges a test case by what running it on the oracle showed.

Evidence used: the runs (outcome of every run, stability across runs, run time), the requests
the test sent ("METHOD /path") against the endpoints it claims, and -- to tell what a pass
proves -- the mutants of the oracle the test really killed (when the build ran them), next to
which faults in the responses its assertions would catch (a simulated response mutation:
wrong status, missing field, wrong value, lost write), read from the code. A real kill shows
the test can fail and checks something (so it is never scored "cannot fail" or "checks
nothing"); the levels above that stay with what the assertions check, as the rubric's anchors
say. Mutation evidence counts both ways: a success-path test that kills none of the mutants
planted in its own endpoints' handlers (`pipeline.mutation.handlers`) while other tests kill
them loses a level of correctness and coverage (its assertions miss faults in what it claims
to test); when no mutant maps to its endpoints, the same holds for killing none while the
other tests of its round kill some; killing none when no test kills any changes nothing (the
capped mutant set may have none on anyone's path). Whatever the kills, a test
that asserts only status, keys or types stays under the shape caps (`strength`).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.offline.common import (
    declared_targets,
    error_body_documented,
    error_status_test,
    listing,
    make_review,
    plural,
)
from pipeline.offline.endpoints import (
    Target,
    link_target,
    parse_target,
    resolve,
    resource_of,
    same_endpoint,
)
from pipeline.offline.facts import CodeFacts, code_facts
from pipeline.offline.strength import capped, caps, error_code_documented, transitions
from pipeline.records import Evidence, Review, Spec, TestCase
from pipeline.rubric import Rubric

REVIEWER = "offline:execution"
FAST_S = 2.0
SLOW_S = 10.0
MAX_REQUESTS = 30
WRITES = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Mutant:
    name: str
    killed: bool


@dataclass(frozen=True)
class Reach:
    """The requests the test sent, against the endpoints it claims and those the document
    lists."""

    sent: list[Target]
    claimed: list[Target]
    hit: list[Target]  # the claimed endpoints it sent
    documented: list
    undocumented: list[Target]


def review(case: TestCase, evidence: Evidence | None, spec: Spec, rubric: Rubric) -> Review:
    facts = code_facts(case.code, case.name)
    if evidence is None or not evidence.runs:
        return _unexecuted(case, spec, rubric)
    sent = _sent(evidence, facts)
    error_test = facts.ok and error_status_test(case, facts)
    mutants = _mutants(case, facts, sent, error_test) if facts.ok else []
    claimed = [link_target(spec, t) for t in declared_targets(case)]
    hit = [c for c in claimed if any(same_endpoint(c, s) for s in sent)]
    documented, undocumented = resolve(spec, sent)
    reach = Reach(sent, claimed, hit, documented, undocumented)
    off_spec = bool(spec.endpoints) and bool(sent) and not documented
    # A real kill shows a passing test can fail and checks something (rubric level 0 is
    # "cannot fail" / "checks nothing"), e.g. when its assertions sit in helpers the code
    # reading cannot follow; the levels above stay with what the assertions check.
    floor = 1 if _killed_a_mutant(evidence) else 0
    scores = {
        "correctness": min(max(_correctness(evidence, mutants, error_test), floor),
                           1 if off_spec else 3),
        "coverage": 0 if off_spec or (claimed and not hit) else max(
            _coverage(evidence, mutants, claimed, hit, error_body_documented(spec)), floor),
        "readability": _readability(case, evidence, sent),
        "relevance": _relevance(case, spec, reach),
    }
    weak = _weak_by_kills(evidence, error_test)
    if weak:
        scores["correctness"] = max(0, scores["correctness"] - 1)
        scores["coverage"] = max(0, scores["coverage"] - 1)
    if facts.ok:
        scores = capped(scores, caps(facts, error_test, error_code_documented(spec)))
    if evidence.rejects_alternative:  # rubric level 0: fails on a correct implementation
        scores["correctness"] = 0
    sentences = [
        _runs_sentence(evidence) + _alternatives_clause(evidence),
        _requests_sentence(evidence, reach),
        _mutants_sentence(evidence, mutants) + _kills_clause(evidence)
        + (f"; {weak}" if weak else ""),
    ]
    return make_review(case, REVIEWER, rubric, scores, sentences)


def _unexecuted(case: TestCase, spec: Spec, rubric: Rubric) -> Review:
    claimed = declared_targets(case)
    documented, undocumented = resolve(spec, claimed)
    relevance = 0 if not documented else (1 if undocumented else 2)
    scores = {"correctness": 0, "coverage": 0, "readability": 1, "relevance": relevance}
    sentences = ["No execution evidence: the test was never run on the oracle, so nothing it "
                 "asserts is shown to hold",
                 f"Claimed endpoints {listing([t.label for t in claimed])} judged from the "
                 "declaration only"]
    return make_review(case, REVIEWER, rubric, scores, sentences)


def _sent(evidence: Evidence, facts: CodeFacts) -> list[Target]:
    """The requests the runs recorded; when none were recorded, the ones the code names."""
    out: list[Target] = []
    for text in evidence.requests:
        t = parse_target(text)
        if t and t not in out:
            out.append(t)
    return out if evidence.requests else facts.targets


# --- what a pass proves: simulated response mutants -------------------------------------------

def _mutants(case: TestCase, facts: CodeFacts, sent: list[Target],
             error_test: bool) -> list[Mutant]:
    """Faults in the responses and whether the test's assertions would catch each."""
    status = any(not c.permissive for c in facts.status_checks)
    body = bool(facts.strong_checks)
    if error_test:  # an error contract: the exact 4xx, then the error body
        return [Mutant("a wrong status", status), Mutant("a missing error body", body)]
    field = any(c.strong and (c.fields or c.headers) for c in facts.checks)
    value = any(c.kind in ("value", "type", "length") for c in facts.checks)
    out = [Mutant("a wrong status", status), Mutant("a missing field", field),
           Mutant("a wrong value", value)]
    if case.category in ("api_compliance", "integration") and any(
            t.method in WRITES for t in sent):
        out.append(Mutant("a lost write", _reads_back(sent, facts) or bool(transitions(facts))))
    return out


def _reads_back(sent: list[Target], facts: CodeFacts) -> bool:
    """A write followed by a checked read of the same resource (a body check, or a 404 after
    a delete) -- a write the service silently dropped would then fail the test."""
    gone_checked = 404 in facts.status_codes
    for i, t in enumerate(sent):
        for later in sent[i + 1:]:
            if later.method != "GET" or resource_of(later.path) != resource_of(t.path):
                continue
            if (t.method in WRITES and facts.strong_checks) or (
                    t.method == "DELETE" and gone_checked):
                return True
    return False


# --- scores -----------------------------------------------------------------------------------

def _killed_a_mutant(evidence: Evidence) -> bool:
    """The case passes on the oracle and failed on at least one of its mutants."""
    m = evidence.mutation
    return evidence.passed and m is not None and m.excluded is None and bool(m.killed)


def _weak_by_kills(evidence: Evidence, error_test: bool) -> str:
    """Mutation evidence against a test (why, or ""): it passes on the oracle and checks a
    success path, yet kills none of the mutants in its own endpoints' handlers that other
    tests do kill; when no mutant maps to its endpoints, none of the mutants that the other
    tests of its round kill."""
    m = evidence.mutation
    if not (evidence.passed and not error_test and m is not None and m.excluded is None
            and m.valid > 0):
        return ""
    if m.endpoint_mutants:
        if set(m.killed) & set(m.endpoint_mutants) or not m.endpoint_killed_by_others:
            return ""
        return (f"a success-path test that kills none of the {len(m.endpoint_mutants)} "
                "mutants in its own endpoints' handlers while other tests kill "
                f"{len(m.endpoint_killed_by_others)} of them "
                f"({listing(m.endpoint_killed_by_others, 2)}) is a weak test")
    if m.killed or m.round_killed == 0:
        return ""
    return ("a success-path test that kills none while the other tests of its round kill "
            f"{m.round_killed} is a weak test")


def _correctness(evidence: Evidence, mutants: list[Mutant], error_test: bool) -> int:
    if not evidence.passed:
        return 0
    killed = [m for m in mutants if m.killed]
    if not killed:
        return 0  # passes, but the pass shows nothing: no response fault would fail it
    body = [m for m in killed if m.name != "a wrong status"]
    if not body:
        return 2 if error_test and len(evidence.runs) >= 2 else 1
    best = 3 if len(evidence.runs) >= 2 else 2
    return best if len(killed) >= 2 else min(best, 2)


def _coverage(evidence: Evidence, mutants: list[Mutant], claimed: list[Target],
              hit: list[Target], body_documented: bool) -> int:
    killed = sum(m.killed for m in mutants)
    score = 0
    if mutants and killed:
        ratio = killed / len(mutants)
        score = 3 if ratio == 1 else (2 if ratio >= 0.5 else 1)
    if claimed and not hit:
        return 0
    if claimed and len(hit) < len(claimed):
        score = min(score, 1)
    if not evidence.passed:
        score = min(score, 1)
    if body_documented and any(m.name == "a missing error body" and not m.killed
                               for m in mutants):
        score = min(score, 1)  # the document describes the error body; the test ignores it
    return score


def _readability(case: TestCase, evidence: Evidence, sent: list[Target]) -> int:
    mean = sum(r.duration_s for r in evidence.runs) / len(evidence.runs)
    score = 2 if mean <= FAST_S else (1 if mean <= SLOW_S else 0)
    if len(evidence.requests) > MAX_REQUESTS:
        score -= 1
    creates = any(t.method == "POST" for t in sent)
    if case.category == "integration" and creates and evidence.requests and not any(
            t.method == "DELETE" for t in sent):
        score -= 1  # leaves what it created behind
    return score


def _relevance(case: TestCase, spec: Spec, reach: Reach) -> int:
    sent, claimed, hit = reach.sent, reach.claimed, reach.hit
    documented, undocumented = reach.documented, reach.undocumented
    if not spec.endpoints:
        return 1 if sent else 0  # the spec lists no endpoint: relevance cannot be shown
    if not sent or not documented or (claimed and not hit):
        return 0
    score = 2
    if undocumented or len(hit) < len(claimed):
        score = 1
    if case.category == "integration" and len(documented) < 2:
        score = min(score, 1)
    return score


# --- rationale --------------------------------------------------------------------------------

def _runs_sentence(evidence: Evidence) -> str:
    n = len(evidence.runs)
    mean = sum(r.duration_s for r in evidence.runs) / n
    outcomes = [r.outcome for r in evidence.runs]
    passed = outcomes.count("passed")
    if evidence.passed:
        how = "stable" if n >= 2 else "single run, stability unknown"
        return f"Runs: passed {passed}/{n} on the oracle ({how}, mean {mean:.2f} s)"
    kind = "flaky" if passed else "not passing"
    bad = next(r for r in evidence.runs if r.outcome != "passed")
    detail = _last_line(bad.output)
    return (f"Runs: {kind} on the oracle, passed {passed}/{n} "
            f"({', '.join(outcomes)}){': ' + detail if detail else ''}")


def _alternatives_clause(evidence: Evidence) -> str:
    """How the case did on the task's independent correct implementations, when it ran there."""
    if not evidence.alternatives:
        return ""
    bad = evidence.rejects_alternative
    if not bad:
        return f"; passed on {len(evidence.alternatives)} independent correct implementation(s)"
    detail = _last_line(bad[0].output)
    return (f"; {bad[0].outcome} on the independent correct implementation {bad[0].name!r}"
            f"{': ' + detail if detail else ''}: it asserts what the document does not state")


def _requests_sentence(evidence: Evidence, reach: Reach) -> str:
    sent, claimed, hit, undocumented = reach.sent, reach.claimed, reach.hit, reach.undocumented
    documented_any = bool(reach.documented)
    source = "Requests" if evidence.requests else "Requests (none recorded; read from the code)"
    text = f"{source}: {listing([t.label for t in sent])}"
    if claimed:
        text += f"; {len(hit)}/{len(claimed)} claimed endpoints exercised"
        missed = [c.label for c in claimed if c not in hit]
        if missed:
            text += f" (never sent: {listing(missed, 2)})"
    if undocumented and documented_any:
        text += f"; undocumented: {listing([t.label for t in undocumented], 2)}"
    elif undocumented:
        text += "; none of them is documented, so the pass proves nothing the document requires"
    return text


def _mutants_sentence(evidence: Evidence, mutants: list[Mutant]) -> str:
    if not mutants:
        return "The code could not be read, so what a pass proves is unknown"
    caught = [m.name for m in mutants if m.killed]
    missed = [m.name for m in mutants if not m.killed]
    if not caught:
        return "Its assertions would catch no response fault, so a pass proves nothing"
    text = f"Its assertions would catch {listing(caught)}"
    if missed:
        text += f" but not {listing(missed, conj='or')}"
    if len(evidence.requests) > MAX_REQUESTS:
        text += f" ({plural(len(evidence.requests), 'request')} is heavy)"
    return text


def _kills_clause(evidence: Evidence) -> str:
    """The real mutant kills, appended to the simulated-fault sentence (the rationale keeps
    three sentences)."""
    m = evidence.mutation
    if m is None:
        return ""
    if m.excluded is not None:
        return f"; no kill credit on the oracle's mutants ({m.excluded})"
    if not m.valid:
        return "; none of the oracle's mutants started, so no kill evidence"
    if not m.killed:
        return f"; it kills none of the {m.valid} mutants of the oracle that ran"
    only = f", {len(m.unique)} that no other test of its round kills" if m.unique else ""
    return (f"; it kills {len(m.killed)} of the {m.valid} mutants of the oracle "
            f"({listing(m.killed, 3)}{only})")


def _last_line(output: str) -> str:
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("E ")]
    line = errors[0] if errors else (lines or [""])[-1]
    return " ".join(line.split())[:120]
