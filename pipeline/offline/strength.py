"""Shape or behaviour: does a test check what the service did, or only what it looks like?

A bug a code-writing agent really makes (a filter ignored, a write lost, a redirect to the
wrong place) returns the right status with the right keys and types; only an assertion on a
*value* (a field equal to what was sent, a list's length or contents, a header's target)
fails on it. So a test whose assertions are all on status, key presence or types is
"shape-only" and, by the rubric, reaches neither correctness 3 nor coverage 3. An assertion
inside a loop (or `all(...)`/`any(...)`) over a collection that may be empty asserts nothing
when it is empty, so it counts only when the test also checks a length outside any loop.
Pure: reads `CodeFacts`, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pipeline.offline.assertions import Check
from pipeline.offline.facts import CodeFacts, Request, code_facts
from pipeline.records import Spec

BEHAVIOUR_KINDS = ("value", "length")
_CODE_KEYS = {"code", "error_code", "errorcode", "type", "reason"}
# a schema's type placeholder (`"code": "string"`) names no code a test could assert
_TYPE_WORD = re.compile(r"^\s*(?:string|str|text|integer|int|number|boolean|bool|object|any)\b",
                        re.I)
_CODE_VALUE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


@dataclass(frozen=True)
class Caps:
    """The highest correctness and coverage the assertions allow."""

    correctness: int = 3
    coverage: int = 3
    why: str = ""


WRITES = ("POST", "PUT", "PATCH", "DELETE")


def transitions(facts: CodeFacts) -> list[tuple[str, int, int]]:
    """Side effects seen through a later request: the same endpoint answered with a different
    exact status after a write in between (`GET /me` 200, logout, `GET /me` 401; a 404 after
    a delete; a refused delete, then the same delete allowed: the record survived). Each is
    (endpoint, status before, status after). A status check belongs to the request on its
    line or the closest request before it; one of one class (`in (401, 403)`) counts when the
    two sets share no code."""
    reqs = [r for r in facts.requests if r.path]
    if len(reqs) < 2:
        return []
    strict = sorted((c for c in facts.checks if c.codes and not c.permissive),
                    key=lambda c: c.line)
    status: dict[int, tuple[int, ...]] = {}
    for check in strict:
        owner = max((i for i, r in enumerate(reqs) if r.line <= check.line), default=None)
        if owner is not None and owner not in status:
            status[owner] = check.codes
    out = []
    for i, first in enumerate(reqs):
        for j in range(i + 1, len(reqs)):
            later = reqs[j]
            if (first.method == "DELETE" and later.method == "GET" and later.path == first.path
                    and set(status.get(j, ())) and set(status[j]) <= {404, 410}):
                out.append((f"GET {later.path}", status.get(i, (0,))[0], status[j][0]))  # gone
                continue
            if (later.method, later.path) != (first.method, first.path):
                continue
            wrote = any(r.method in WRITES for r in reqs[i + 1:j]) or first.method == "DELETE"
            if wrote and i in status and j in status and set(status[i]).isdisjoint(status[j]):
                out.append((f"{first.method} {first.path}", status[i][0], status[j][0]))
    return out


def behaviour_checks(facts: CodeFacts) -> list[Check]:
    """Assertions on values: a value or length check, not vacuous over an empty collection."""
    guarded = any(c.kind == "length" and not c.looped for c in facts.checks)
    return [c for c in facts.checks
            if c.kind in BEHAVIOUR_KINDS and (guarded or not c.looped)]


def checked_requests(facts: CodeFacts) -> list[Request]:
    """The test's requests whose outcome a value is checked on: the request a value or length
    check follows, the writes before such a check (the value shows what they stored), and the
    requests of a side effect seen through a later request (`transitions`), and a request
    whose answer is the credential that opened a later request checked for success or by
    value (a login's token is checked by what it opens)."""
    reqs = facts.requests
    picked: set[int] = set()
    for check in behaviour_checks(facts):
        owner = _owner(reqs, check.line)
        if owner is None:
            continue
        picked.add(owner)
        picked.update(i for i in range(owner) if reqs[i].method in WRITES)
    seen = {key for key, _, _ in transitions(facts)}
    if seen:
        picked.update(i for i, r in enumerate(reqs)
                      if f"{r.method} {r.path}" in seen or r.method in WRITES)
    opened = picked | {owner for c in facts.checks if c.codes and not c.permissive
                       and all(200 <= code < 300 for code in c.codes)
                       if (owner := _owner(reqs, c.line)) is not None}
    picked.update(i for i, r in enumerate(reqs) if r.result and any(
        reqs[j].line > r.line and r.result in reqs[j].credentials for j in opened))
    return [reqs[i] for i in sorted(picked)]


def _owner(reqs: list[Request], line: int) -> int | None:
    """The request a check on `line` is about: the closest one on or before it."""
    return max((i for i, r in enumerate(reqs) if r.line <= line), default=None)


def shape_only(facts: CodeFacts) -> bool:
    """The test asserts something, but only status, key presence, types or truthiness (and no
    status that changed after a write: that is a side effect, i.e. behaviour)."""
    return (facts.ok and facts.meaningful and not behaviour_checks(facts)
            and not transitions(facts))


def shape_only_code(code: str, name: str = "") -> bool:
    """`shape_only` of a test function's source (for reports over published suites)."""
    return shape_only(code_facts(code, name))


def caps(facts: CodeFacts, error_test: bool, body_documented: bool = False) -> Caps:
    """Caps for a shape-only test: an error contract (exact 4xx) keeps level 2 when the
    document gives no error code to check (`body_documented` False), else a wrong error body
    would still pass (level 1, like a success test that checks only the shape of its
    response); success and error statuses without a side effect between them keep level 2."""
    if not shape_only(facts):
        return Caps()
    strict = {code // 100 for c in facts.checks if not c.permissive for code in c.codes}
    if error_test and body_documented:
        return Caps(1, 1, "it asserts the error status and at most the error body's keys, not "
                          "the documented error code, so a wrong error would still pass")
    if error_test or {2, 4} <= strict:
        return Caps(2, 2, "it asserts status codes and at most keys or types, no value")
    return Caps(1, 1, "it asserts only the status, keys or types of a success, no value, so "
                      "a wrong value (an ignored filter, a lost write) would still pass")


def capped(scores: dict[str, int], limit: Caps) -> dict[str, int]:
    """`scores` with correctness and coverage held to `limit`."""
    return scores | {"correctness": min(scores["correctness"], limit.correctness),
                     "coverage": min(scores["coverage"], limit.coverage)}


def error_code_documented(spec: Spec) -> bool:
    """The document gives error bodies with a machine-readable code a test can assert
    (`{"error": {"code": "book_on_loan"}}`), not only a free-text message."""
    examples = [spec.error_format] + [body for ep in spec.endpoints
                                      for status, body in ep.response_examples.items()
                                      if status >= 400]
    return any(_has_code(e) for e in examples)


def _has_code(value: Any, depth: int = 0) -> bool:
    if depth > 4:
        return False
    if isinstance(value, dict):
        return any((str(k).lower() in _CODE_KEYS and isinstance(v, str) and v.strip()
                    and not _TYPE_WORD.match(v))
                   or (isinstance(v, str) and _CODE_VALUE.match(v) is not None)
                   or _has_code(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_code(v, depth + 1) for v in value[:3])
    return False
