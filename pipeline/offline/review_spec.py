"""The spec reviewer: judges a test case against the requirement document's endpoint spec.

Evidence used: the endpoints it targets (its declared `endpoints` and the literal URL paths in
its code, path parameters normalised) against the documented ones, the status codes it asserts
against each endpoint's documented codes, the response fields it asserts against the documented
schema and examples, and whether it fits its declared category.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pipeline.offline.common import (
    FAILED_NOTE,
    declared_targets,
    error_body_documented,
    error_status_test,
    failed_on_oracle,
    listing,
    make_review,
)
from pipeline.offline.endpoints import (
    Target,
    literal_segments,
    parse_target,
    resolve,
    same_endpoint,
)
from pipeline.offline.facts import CodeFacts, code_facts
from pipeline.offline.strength import capped, caps, error_code_documented, transitions
from pipeline.records import Endpoint, Evidence, Review, Spec, TestCase
from pipeline.rubric import Rubric
from pipeline.spec.texts import fixed_part

REVIEWER = "offline:spec"
CONVENTIONAL_SUCCESS = {"GET": {200}, "POST": {200, 201}, "PUT": {200, 204},
                        "PATCH": {200, 204}, "DELETE": {200, 204}, "HEAD": {200},
                        "OPTIONS": {200, 204}}
CONVENTIONAL_ERRORS = {400, 401, 403, 404, 405, 409, 413, 415, 422}
ERROR_FIELDS = {"detail", "error", "errors", "message", "code", "status", "title"}


@dataclass
class Alignment:
    """How the test lines up with the document."""

    targets: list[Target]
    documented: list[Endpoint]
    undocumented: list[Target]
    codes: dict[int, str] = field(default_factory=dict)  # code -> documented|conventional|no
    fields: dict[str, str] = field(default_factory=dict)  # field -> documented|known|no|open
    endpoint_fields: set[str] = field(default_factory=set)
    permissive: bool = False  # a status check accepts success and failure alike
    unverifiable: bool = False  # the spec lists no endpoint at all
    strict_codes: list[int] = field(default_factory=list)  # from non-permissive checks

    def codes_where(self, kind: str) -> list[int]:
        return sorted(c for c, k in self.codes.items() if k == kind)

    def fields_where(self, *kinds: str) -> list[str]:
        return sorted(f for f, k in self.fields.items() if k in kinds)

    @property
    def status_ok(self) -> bool:
        return any(k != "no" for k in self.codes.values())


def review(case: TestCase, evidence: Evidence | None, spec: Spec, rubric: Rubric) -> Review:
    facts = code_facts(case.code, case.name)
    al = align(case, facts, spec, evidence)
    fits, fit_reason = _fit(case, facts, al)
    failed = failed_on_oracle(evidence)
    internals = bool(facts.foreign_imports) or facts.oracle_refs
    error_test = error_status_test(case, facts)
    scores = {
        "correctness": 0 if failed else min(_correctness(facts, al, error_test),
                                            1 if internals else 3),
        "coverage": _coverage(case, facts, al, error_test, error_body_documented(spec)),
        "readability": _readability(case, facts, al),
        "relevance": 0 if internals else _relevance(al, fits),
    }
    scores = capped(scores, caps(facts, error_test, error_code_documented(spec)))
    if internals:
        fit_reason = ("It reaches into implementation internals "
                      f"({listing(facts.foreign_imports or ['the oracle'], 2)}) instead of "
                      "the documented interface")
    first = _target_sentence(al) + (FAILED_NOTE if failed else "")
    sentences = [first, _assert_sentence(facts, al), fit_reason]
    return make_review(case, REVIEWER, rubric, scores, sentences)


# --- alignment --------------------------------------------------------------------------------

def align(case: TestCase, facts: CodeFacts, spec: Spec,
          evidence: Evidence | None = None) -> Alignment:
    """Targets: declared endpoints, literal URL paths in the code, and requests the runs sent."""
    targets = declared_targets(case)
    sent = [t for t in map(parse_target, evidence.requests if evidence else []) if t]
    for t in facts.targets + sent:
        if not any(same_endpoint(t, d) for d in targets):
            targets.append(t)
    documented, undocumented = resolve(spec, targets)
    al = Alignment(targets, documented, undocumented, unverifiable=not spec.endpoints)
    al.permissive = any(c.permissive for c in facts.checks)
    al.strict_codes = sorted({code for c in facts.checks if not c.permissive for code in c.codes})
    al.endpoint_fields = set().union(*(endpoint_fields(ep) for ep in documented))
    vocabulary = set().union(*(endpoint_fields(ep) for ep in spec.endpoints)) | _keys(
        spec.error_format) | _record_ids(spec)
    for code in facts.status_codes:
        al.codes[code] = "open" if al.unverifiable else _code_kind(code, documented)
    for name in facts.fields:
        al.fields[name] = _field_kind(name, al.endpoint_fields, vocabulary, facts)
    return al


def endpoint_fields(ep: Endpoint) -> set[str]:
    """Field names the document shows for an endpoint: schemas, examples, parameters."""
    out = _keys(ep.response_schema) | _keys(ep.response_example) | _keys(ep.request_schema)
    out |= _keys(ep.request_example)
    for example in ep.response_examples.values():
        out |= _keys(example)
    page = {fixed_part(t) for t in ep.response_text}  # the text a page must show
    return out | {p.name for p in ep.params} | page


def _keys(value: Any, depth: int = 0) -> set[str]:
    """Keys of a JSON example or schema, two levels deep, looking into lists and `properties`."""
    if depth > 3:
        return set()
    if isinstance(value, list):
        return set().union(*(_keys(v, depth + 1) for v in value[:3])) if value else set()
    if not isinstance(value, dict):
        return set()
    if isinstance(value.get("properties"), dict):
        return _keys(value["properties"], depth) | _keys(value.get("items"), depth + 1)
    if value.get("type") == "array" and "items" in value:
        return _keys(value["items"], depth + 1)
    out = {str(k) for k in value}
    for v in value.values():
        if isinstance(v, dict | list):
            out |= _keys(v, depth + 1)
    return out


def _code_kind(code: int, documented: list[Endpoint]) -> str:
    if any(code in ep.status_codes for ep in documented):
        return "documented"
    for ep in documented:
        same_class = [c for c in ep.status_codes if c // 100 == code // 100]
        usual = (CONVENTIONAL_SUCCESS.get(ep.method, {200}) if code < 300
                 else CONVENTIONAL_ERRORS)
        if not same_class and code in usual:
            return "conventional"
    return "no"


def _record_ids(spec: Spec) -> set[str]:
    """Ids a document implies by addressing records as `/movies/{movie_id}`: `movie_id`, and
    `id` for the record's own field, even when it shows no response body."""
    out: set[str] = set()
    for ep in spec.endpoints:
        for name in re.findall(r"\{([^{}]+)\}", ep.path):
            out.add(name)
            if name == "id" or name.endswith(("_id", "Id")):
                out.add("id")
    return out


def _field_kind(name: str, endpoint: set[str], vocabulary: set[str], facts: CodeFacts) -> str:
    if name in endpoint:
        return "documented"
    if name in vocabulary:
        return "known"
    if name in ERROR_FIELDS and any(c >= 400 for c in facts.status_codes):
        return "known"
    if name in facts.written_keys:  # what the test sent, read back: its own input
        return "known"
    return "open" if not vocabulary else "no"


# --- scores -----------------------------------------------------------------------------------

def _correctness(facts: CodeFacts, al: Alignment, error_test: bool) -> int:
    if not (al.documented or al.unverifiable) or not facts.meaningful:
        return 0
    good = al.fields_where("documented", "known", "open")
    bad = al.fields_where("no")
    strong = facts.strong_checks or transitions(facts)  # a side effect seen later counts
    if not strong:
        score = 2 if error_test else 1
    elif len(good) >= (1 if error_test else 2) and not bad:
        score = 3
    elif good or (strong and not facts.fields):
        score = 2
    else:
        score = 1
    if al.codes_where("no") or al.permissive:
        score = min(score, 1)
    if al.undocumented or not al.status_ok:
        score = min(score, 2)
    return score


def _coverage(case: TestCase, facts: CodeFacts, al: Alignment, error_test: bool,
              body_documented: bool) -> int:
    if not (al.documented or al.unverifiable) or not facts.meaningful:
        return 0
    checked = al.fields_where("documented", "known", "open")
    if case.category in ("error_handling", "edge_case"):
        need = 1
    else:
        need = min(3, len(al.endpoint_fields)) if al.endpoint_fields else 2
    body = bool(checked) or (bool(facts.strong_checks or transitions(facts))
                             and not facts.fields)
    if not body:
        if error_test and al.status_ok and not body_documented:
            return 2  # the exact documented 4xx is all the document promises
        return 1 if al.status_ok else 0
    if not al.status_ok:
        return 1
    score = 3 if len(checked) >= need else 2
    if case.category == "integration" and (len(al.documented) < 2
                                           or len(facts.status_checks) < 2):
        score = min(score, 2)
    return score


def _readability(case: TestCase, facts: CodeFacts, al: Alignment) -> int:
    score = 2
    words = _stems(facts.name or case.name) | _stems(_docstring_words(case.code))
    resources: set[str] = set()
    for t in al.targets:
        resources |= _stems(" ".join(literal_segments(t.path)))
    if not _mentions(resources, words):
        score -= 1
    declared = declared_targets(case)
    code = facts.targets
    if not declared or (code and not facts.factory_fixtures and not any(
            same_endpoint(c, d) for c in code for d in declared)):
        score -= 1
    return score


def _relevance(al: Alignment, fits: bool) -> int:
    if al.unverifiable:
        return 1  # nothing to check against: neither relevant nor irrelevant by the document
    if not al.documented:
        return 0
    off = bool(al.undocumented) or bool(al.codes_where("no")) or bool(al.fields_where("no"))
    return 2 - off - (not fits)


# a documented answer that refuses though its code is not 4xx (`202: Invalid credentials`)
_REFUSAL = re.compile(r"invalid|not\s+found|already\s+exists|denied|unauthori[sz]ed|forbidden"
                      r"|\bfail|\berror|not\s+allowed|wrong", re.I)


def _refusal(al: Alignment, code: int) -> bool:
    return any(_REFUSAL.search(str(ep.status_codes.get(code) or "")) for ep in al.documented)


def _fit(case: TestCase, facts: CodeFacts, al: Alignment) -> tuple[bool, str]:
    cat = case.category
    ok_codes = [c for c in al.strict_codes if al.codes.get(c) != "no"]
    if cat == "api_compliance":
        success = any(200 <= c < 300 for c in ok_codes) or any(
            c.kind == "status" and not c.codes and not c.permissive for c in facts.status_checks)
        fields = bool(al.fields_where("documented", "known", "open"))
        if success and fields:
            return True, "Fits api_compliance: asserts a documented success status and fields"
        missing = "definite documented success status" if not success else "response fields"
        return False, f"Weak fit for api_compliance: it asserts no {missing}"
    if cat == "error_handling":
        errors = sorted(c for c in ok_codes if 400 <= c < 500 or _refusal(al, c))
        if errors:
            kind = "4xx" if all(400 <= c < 500 for c in errors) else "refusal"
            return True, (f"Fits error_handling: asserts documented {kind} "
                          f"{', '.join(map(str, errors))}")
        return False, "Does not fit error_handling: it asserts no definite documented 4xx"
    if cat == "edge_case":
        if facts.edge_signals:
            return True, f"Fits edge_case: uses {listing(facts.edge_signals, 3)}"
        return False, "Does not fit edge_case: no boundary, unknown id or empty collection"
    if len(al.documented) >= 2:
        flow = listing([f"{ep.method} {ep.path}" for ep in al.documented], 4)
        return True, f"Fits integration: a flow across {flow}"
    return False, "Does not fit integration: fewer than two documented endpoints in the flow"


# --- rationale --------------------------------------------------------------------------------

def _target_sentence(al: Alignment) -> str:
    if not al.targets:
        return "Spec: no endpoint named, declared or readable in the code"
    if al.unverifiable:
        named = listing([t.label for t in al.targets], 3)
        return f"Spec: the document lists no endpoints, so {named} cannot be checked against it"
    docs = [f"{ep.method} {ep.path}" + (f" (codes {', '.join(map(str, sorted(ep.status_codes)))})"
                                        if ep.status_codes else " (no codes listed)")
            for ep in al.documented]
    text = f"Spec: targets {listing(docs, 3)}" if docs else "Spec: targets no documented endpoint"
    if al.undocumented:
        text += f"; not in the document: {listing([t.label for t in al.undocumented], 3)}"
    return text


def _assert_sentence(facts: CodeFacts, al: Alignment) -> str:
    if not facts.meaningful:
        return "Asserts nothing the document promises"
    parts = []
    for kind, label in (("documented", "documented"), ("conventional", "conventional"),
                        ("no", "not documented"), ("open", "unverifiable")):
        codes = al.codes_where(kind)
        if codes:
            parts.append(f"status {', '.join(map(str, codes))} ({label})")
    if not al.codes:
        parts.append("no status code")
    if al.permissive:
        parts.append("a status check accepts success and failure alike")
    for kinds, label in ((("documented",), "documented"), (("known",), "documented elsewhere"),
                         (("open",), "document lists no fields"), (("no",), "not documented")):
        names = al.fields_where(*kinds)
        if names:
            parts.append(f"fields {listing(names, 4)} ({label})")
    if not al.fields:
        parts.append("no response field")
    return "Asserts " + "; ".join(parts)


def _stems(text: str) -> set[str]:
    """Words of 3+ letters, singular-ish: 'short-links' -> {'short', 'link'}."""
    out = set()
    for w in re.split(r"[^a-z0-9]+", text.lower()):
        if len(w) >= 3:
            out.add(w[:-3] + "y" if w.endswith("ies") else w.rstrip("s") or w)
    return out


def _mentions(resources: set[str], words: set[str]) -> bool:
    """Whether any resource word appears among the name's words (prefixes of 4+ count)."""
    return any(r == w or (min(len(r), len(w)) >= 4 and (r.startswith(w) or w.startswith(r)))
               for r in resources for w in words)


def _docstring_words(code: str) -> str:
    m = re.search(r'("""|\'\'\')(.*?)\1', code, re.S)
    return m.group(2) if m else ""
