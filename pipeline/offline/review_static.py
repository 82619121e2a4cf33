"""The static reviewer: judges a test case by its code alone (Python `ast`, never executed).

Evidence used: the number and strength of its assertions (status only = weak; body fields,
types, values = strong; `assert True` or none = nothing), its imports (anything beyond the
standard library, requests, httpx and pytest is taken for oracle internals), hazards (sleeps,
unseeded randomness, swallowed assertion errors, hard-coded hosts), its name, length and
structure, and whether an integration test cleans up what it creates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.offline.common import (
    FAILED_NOTE,
    error_body_documented,
    error_status_test,
    failed_on_oracle,
    listing,
    make_review,
    plural,
)
from pipeline.offline.endpoints import resolve
from pipeline.offline.facts import CodeFacts, code_facts
from pipeline.offline.strength import capped, caps, error_code_documented, transitions
from pipeline.records import Evidence, Review, Spec, TestCase
from pipeline.rubric import Rubric

REVIEWER = "offline:static"
NAME_RE = re.compile(r"^test_[a-z0-9]+(?:_[a-z0-9]+){2,}$")
VAGUE = {"test", "tests", "api", "case", "it", "works", "check", "basic", "simple", "stuff",
         "foo", "bar", "thing", "things", "one", "two", "misc", "new", "temp", "tmp"}
SIZE_LIMIT = {"integration": 50}
DEFAULT_SIZE_LIMIT = 30
STRONG_FOR_FULL = {"api_compliance": 3, "integration": 3, "edge_case": 1, "error_handling": 1}


def review(case: TestCase, evidence: Evidence | None, spec: Spec, rubric: Rubric) -> Review:
    facts = code_facts(case.code, case.name)
    if not facts.ok:
        scores = {"correctness": 0, "coverage": 0, "readability": 0, "relevance": 0}
        return make_review(case, REVIEWER, rubric, scores,
                           [f"AST: the code cannot be analysed ({facts.error})"])
    paths = _literal_paths(facts, spec)
    error_test = error_status_test(case, facts)
    correctness = _correctness(facts, error_test)
    if paths.off_spec:
        correctness = min(correctness, 1)
    failed = failed_on_oracle(evidence)
    scores = {
        "correctness": 0 if failed else correctness,
        "coverage": _coverage(case, facts, error_test, error_body_documented(spec)),
        "readability": _readability(case, facts),
        "relevance": _relevance(case, facts, paths),
    }
    limit = caps(facts, error_test, error_code_documented(spec))
    scores = capped(scores, limit)
    first = _assert_sentence(facts) + (f"; shape only: {limit.why}" if limit.why else "") + (
        FAILED_NOTE if failed else "")
    sentences = [first, _hazard_sentence(facts, paths), _style_sentence(case, facts)]
    return make_review(case, REVIEWER, rubric, scores, sentences)


@dataclass
class LiteralPaths:
    """The URL paths written in the code, checked against the documented endpoints."""

    documented: list[str]
    undocumented: list[str]
    checkable: bool  # the spec lists endpoints and the code has readable paths

    @property
    def off_spec(self) -> bool:
        return self.checkable and not self.documented


def _literal_paths(facts: CodeFacts, spec: Spec) -> LiteralPaths:
    targets = facts.targets
    found, missing = resolve(spec, targets)
    documented = [f"{ep.method} {ep.path}" for ep in found]
    return LiteralPaths(documented, [t.label for t in missing],
                        bool(spec.endpoints) and bool(targets))


# --- scores -----------------------------------------------------------------------------------

def _black_box_broken(facts: CodeFacts) -> bool:
    return bool(facts.foreign_imports) or facts.oracle_refs


def _sends(facts: CodeFacts) -> bool:
    return bool(facts.requests) or bool(facts.factory_fixtures)


def _status_ok(facts: CodeFacts) -> bool:
    return any(not c.permissive for c in facts.status_checks)


def _correctness(facts: CodeFacts, error_test: bool) -> int:
    if _black_box_broken(facts) or facts.swallows or not facts.meaningful:
        return 0
    strong = len(facts.strong_checks) + len(transitions(facts))  # side effects count
    need = 1 if error_test else 2  # an error contract: exact 4xx plus one check of its body
    score = 3 if strong >= need and _status_ok(facts) else (2 if strong or error_test else 1)
    penalty = (min(facts.sleeps, 1) + facts.unseeded_random + facts.hardcoded_host
               + facts.skips + any(c.permissive for c in facts.checks)
               + 2 * bool(facts.backdoor_imports) + (not _sends(facts)))
    return max(0, score - penalty)


def _coverage(case: TestCase, facts: CodeFacts, error_test: bool, body_documented: bool) -> int:
    if not facts.meaningful or facts.swallows:
        return 0
    strong = len({(c.kind, c.fields) for c in facts.strong_checks}) + len(transitions(facts))
    if not strong:
        return 2 if error_test and not body_documented else 1
    score = 3 if strong >= STRONG_FOR_FULL[case.category] and _status_ok(facts) else 2
    if case.category == "integration" and (len(facts.requests) < 2
                                           or len(facts.status_checks) < 2):
        score = min(score, 2)
    return score


def _readability(case: TestCase, facts: CodeFacts) -> int:
    score = 2 - (not _descriptive(facts.name))
    limit = SIZE_LIMIT.get(case.category, DEFAULT_SIZE_LIMIT)
    score -= 2 if facts.lines > 2 * limit else (1 if facts.lines > limit else 0)
    if _unstructured(facts):
        score -= 1
    if facts.prints:
        score -= 1
    if _leaves_data(case, facts):
        score -= 1
    return max(0, score)


def _relevance(case: TestCase, facts: CodeFacts, paths: LiteralPaths) -> int:
    if (_black_box_broken(facts) or facts.backdoor_imports or not _sends(facts)
            or paths.off_spec):
        return 0
    score = 2 - facts.hardcoded_host - bool(paths.undocumented)
    if not _fits(case, facts):
        score -= 1
    return max(0, score)


def _descriptive(name: str) -> bool:
    """`test_<verb>_<thing>_<expectation>`: three or more words, two of them not vague."""
    tokens = name.split("_")[1:]
    words = [t for t in tokens if t not in VAGUE and not t.isdigit()]
    return bool(NAME_RE.match(name)) and len(name) <= 80 and len(words) >= 2


def _unstructured(facts: CodeFacts) -> bool:
    return (facts.lines > 8 and not facts.docstring and facts.comment_lines == 0
            and facts.blocks < 2)


def _leaves_data(case: TestCase, facts: CodeFacts) -> bool:
    return (case.category == "integration" and facts.creates
            and not (facts.cleanup or facts.unique_names))


def _fits(case: TestCase, facts: CodeFacts) -> bool:
    classes = {code // 100 for code in facts.status_codes}
    if case.category == "api_compliance":
        return 2 in classes or any(c.kind == "status" and not c.codes
                                   for c in facts.status_checks)
    if case.category == "error_handling":
        return 4 in classes
    if case.category == "edge_case":
        return bool(facts.edge_signals)
    distinct = {(r.method, r.path) for r in facts.requests}
    return len(distinct) + bool(facts.factory_fixtures) >= 2


# --- rationale --------------------------------------------------------------------------------

def _assert_sentence(facts: CodeFacts) -> str:
    if not facts.checks:
        return "AST: no assertions, so the test cannot fail on a wrong response"
    trivial = sum(c.kind == "trivial" for c in facts.checks)
    strong = facts.strong_checks
    parts = [plural(facts.asserts, "assert statement")]
    if facts.status_codes or facts.status_checks:
        codes = ", ".join(map(str, facts.status_codes)) or "2xx"
        parts.append(f"status checked ({codes})")
    if strong:
        kinds = sorted({c.kind for c in strong})
        parts.append(f"{plural(len(strong), 'strong check')} ({'/'.join(kinds)}) on fields "
                     f"{listing(facts.fields, 5)}")
    else:
        parts.append("no strong check on the body")
    if trivial:
        parts.append(f"{trivial} trivial")
    return "AST: " + "; ".join(parts)


def _hazard_sentence(facts: CodeFacts, paths: LiteralPaths) -> str:
    found = _reach_hazards(facts, paths) + _run_hazards(facts)
    if found:
        return "Hazards: " + "; ".join(found)
    imports = listing(sorted({i.split(".")[0] for i in facts.imports}), 5)
    urls = f"; its URLs name {listing(paths.documented, 3)}" if paths.documented else ""
    return f"No sleeps, randomness or oracle imports (imports: {imports}){urls}"


def _reach_hazards(facts: CodeFacts, paths: LiteralPaths) -> list[str]:
    """What the test reaches beyond the documented HTTP interface."""
    found = []
    if paths.undocumented:
        which = "only undocumented" if paths.off_spec else "undocumented"
        found.append(f"its URLs name {which} endpoints ({listing(paths.undocumented, 2)})")
    if facts.foreign_imports:
        found.append(f"imports oracle internals or non-standard modules "
                     f"({listing(facts.foreign_imports, 3)})")
    if facts.oracle_refs:
        found.append("reaches for the oracle (path or sys.path)")
    if facts.backdoor_imports:
        found.append(f"imports {listing(facts.backdoor_imports, 3)} (around the HTTP interface)")
    return found


def _run_hazards(facts: CodeFacts) -> list[str]:
    """What makes a run slow, flaky, or unable to fail."""
    found = []
    if facts.swallows:
        found.append("swallows assertion errors in try/except")
    if facts.sleeps:
        found.append(f"sleeps ({plural(facts.sleeps, 'call')})")
    if facts.unseeded_random:
        found.append("uses unseeded random")
    if facts.hardcoded_host:
        found.append("hard-codes the host instead of base_url")
    if facts.skips:
        found.append("skips itself")
    if any(c.permissive for c in facts.checks):
        found.append("a status check accepts success and failure alike")
    if not _sends(facts):
        found.append("sends no HTTP request")
    return found


def _style_sentence(case: TestCase, facts: CodeFacts) -> str:
    name = f"Name '{facts.name}' is " + ("descriptive" if _descriptive(facts.name)
                                         else "not descriptive")
    limit = SIZE_LIMIT.get(case.category, DEFAULT_SIZE_LIMIT)
    size = f"{facts.lines} lines (limit {limit})"
    structure = ("docstring" if facts.docstring else
                 "no docstring or visible structure" if _unstructured(facts) else "no docstring")
    extra = ""
    if _leaves_data(case, facts):
        extra = "; creates data without cleanup or unique names"
    elif case.category == "integration" and facts.creates:
        extra = "; cleans up or uses unique names"
    if facts.prints:
        extra += "; print debugging"
    return f"{name}; {size}, {structure}{extra}"
