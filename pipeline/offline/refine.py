"""Offline refine: repair what the evidence and the reviews name, never weaken to nothing.

`refine_case(case, evidence, reviews, spec, note)` returns the next round of a test case:
- a failing status assertion takes the status the oracle returned when the document lists it
  for that endpoint (an error status the document also lists for it, as the test expected,
  stays allowed beside it), and is dropped otherwise (other assertions stay);
- a failing field check (missing key, wrong type or value) loses that field check;
- a case that passes on the oracle and fails on an alternative (over-specified) is loosened to
  what the document states: its failing status assertion becomes the class both answers share
  (any 4xx), any other failing assertion or field check is dropped;
- reviews or a note that call the case "status-only" get body-field assertions from the
  documented response;
- a test that still asserts only status, keys or types gets value assertions from the
  document (`refine_values`: values sent read back, documented constants).
A repair that would leave no assertion, or code that does not parse, is not made: the case
comes back unchanged (same round) so routing can discard it after the maximum rounds.
A refined version carries the refiner's answer to each review (`rebuttal.answers`).
"""

from __future__ import annotations

import ast
import re

from pipeline.offline.gen_code import set_assert
from pipeline.offline.gen_common import body_checks
from pipeline.offline.rebuttal import Action, answers, code_change
from pipeline.offline.refine_errors import add_error_code_checks
from pipeline.offline.refine_lookup import repair_lookup
from pipeline.offline.refine_values import add_value_checks
from pipeline.offline.strength import shape_only_code
from pipeline.offline.tolerant import CALLS, PRELUDE
from pipeline.records import Endpoint, Evidence, Review, Spec, TestCase

_STATUS = re.compile(r"^assert\s+(\w+)\.status_code\s*==\s*(\d{3})\b")
_IN_CODES = re.compile(r"^assert\s+(\w+)\.status_code\s+in\s+\(")
_RANGE = re.compile(r"^assert\s+\d{3}\s*<=\s*(\w+)\.status_code\s*<\s*\d{3}")
_ACTUAL = re.compile(r"^E\s+assert\s+(?:(\d{3})\s*==\s*\d{3}|\d{3}\s*<=\s*(\d{3})\s*<)")
_WHERE = re.compile(r"where\s+(\d{3})\s*=\s*<Response")
_KEYERROR = re.compile(r"^E\s+KeyError:\s*'([^']+)'")
_EXTRA = re.compile(r"^E\s+Extra items in the left set:")
_CALL = re.compile(r"^(\w+)\s*=\s*session\.(get|post|put|patch|delete)\(\s*f?\"\{base_url\}"
                   r"([^\"]*)\"")
_SHAPE = re.compile(r"status|keys|types|no value|shape", re.I)
_ERROR_CODE = re.compile(r"documented error code|error body's code|error code", re.I)
_STATUS_ONLY = re.compile(r"status[- ]only|shape[- ]only|only (?:checks|asserts) (?:the )?status|"
                          r"asserts only the status|no body "
                          r"assert|without (?:any )?body|no (?:strong )?check on the body|"
                          r"no response field", re.I)


def _failure_output(evidence: Evidence | None) -> str:
    """The first failing run's output: on the oracle, else on an alternative."""
    if evidence is None:
        return ""
    if evidence.passed:
        bad = evidence.rejects_alternative
        return bad[0].output if bad else ""
    for run in evidence.runs:
        if run.outcome != "passed":
            return run.output
    return ""


def _statements(tree: ast.AST) -> list[ast.stmt]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.stmt)
            and not isinstance(n, ast.FunctionDef | ast.Try)]


def _failing_stmt(lines: list[str], tree: ast.AST, output: str) -> ast.stmt | None:
    marked = [ln[1:].strip() for ln in output.splitlines() if ln.startswith(">")]
    stmts = _statements(tree)
    for text in reversed(marked):
        for stmt in stmts:
            if lines[stmt.lineno - 1].strip() == text:
                return stmt
    return None


def _endpoint_of(var: str, lines: list[str], before: int, spec: Spec) -> Endpoint | None:
    """The documented endpoint the request that produced `var` (before line `before`) hit."""
    for line in reversed(lines[:before]):
        m = _CALL.match(line.strip())
        if m and m.group(1) == var:
            method, url = m.group(2).upper(), m.group(3)
            for ep in spec.endpoints:
                pattern = re.sub(r"\\\{[^{}]+\\\}", "[^/]+", re.escape(ep.path))
                if ep.method == method and re.fullmatch(pattern, url.split("?")[0]):
                    return ep
            return None
    return None


def _actual_status(output: str) -> int | None:
    for line in output.splitlines():
        m = _ACTUAL.match(line.strip())
        if m:
            return int(m.group(1) or m.group(2))
        w = _WHERE.search(line)
        if w:
            return int(w.group(1))
    return None


def _extra_keys(output: str) -> list[str]:
    out, on = [], False
    for line in output.splitlines():
        if _EXTRA.match(line.strip()):
            on = True
            continue
        if on:
            m = re.match(r"^E\s+'([^']*)'\s*$", line.strip())
            if not m:
                break
            out.append(m.group(1))
    return out


def _drop(lines: list[str], stmt: ast.stmt) -> list[str]:
    """Remove a statement; a block it leaves empty gets `pass`."""
    assert stmt.end_lineno is not None
    indent = re.match(r"\s*", lines[stmt.lineno - 1]).group(0)  # type: ignore[union-attr]
    new = lines[:stmt.lineno - 1] + lines[stmt.end_lineno:]
    try:
        ast.parse("\n".join(new))
        return new
    except SyntaxError:
        return lines[:stmt.lineno - 1] + [indent + "pass"] + lines[stmt.end_lineno:]


def _drop_field(lines: list[str], keys: list[str]) -> list[str]:
    """Remove `keys` from field checks (set literals, isinstance and equality lines)."""
    out = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("assert") and any(f'["{k}"]' in line or f"['{k}']" in line
                                                 for k in keys):
            continue
        for k in keys:
            line = re.sub(rf'(?<=[{{\s,])"{re.escape(k)}",\s*|,\s*"{re.escape(k)}"(?=\s*}})',
                          "", line)
            line = re.sub(rf'^(\s*assert\s*){{"{re.escape(k)}"}}\s*<=.*$', "", line)
        if line.strip() or not stripped:
            out.append(line)
    return out


endpoint_of = _endpoint_of  # public name: the generator adds value checks the same way


def _loosened_status(lines: list[str], stmt: ast.stmt, var: str, actual: int | None
                     ) -> list[str]:
    """A status assertion the oracle passes and an alternative fails: the class both answers
    share (any 4xx when the document pins no code the alternative gave), else no assertion."""
    m = _STATUS.match(lines[stmt.lineno - 1].strip())
    if m is None or actual is None or str(actual)[0] != m.group(2)[0]:
        return _drop(lines, stmt)
    low = int(m.group(2)[0]) * 100
    new = re.sub(r"assert\s+.*?status_code\s*==\s*\d{3}",
                 f"assert {low} <= {var}.status_code < {low + 100}", lines[stmt.lineno - 1],
                 count=1)
    return lines[:stmt.lineno - 1] + [new] + lines[stmt.lineno:]


def _repair_failure(lines: list[str], output: str, spec: Spec, case: TestCase,
                    loosen: bool = False) -> list[str]:
    """Repair what failed: on the oracle, or (`loosen`) on an independent correct
    implementation, where the assertion says more than the document."""
    tree = ast.parse("\n".join(lines))
    stmt = _failing_stmt(lines, tree, output)
    if stmt is None:
        return lines
    text = lines[stmt.lineno - 1].strip()
    key = next((m.group(1) for ln in output.splitlines() if (m := _KEYERROR.match(ln.strip()))),
               None)
    listed = _IN_CODES.match(text)
    if listed and key is None and not loosen:
        refused = _refusal(lines, stmt, listed.group(1), _actual_status(output))
        if refused is not None:
            return refused
    status = _STATUS.match(text) or _RANGE.match(text)
    if status and key is None:
        var = status.group(1)
        actual = _actual_status(output)
        ep = _endpoint_of(var, lines, stmt.lineno - 1, spec)
        documented = ep.status_codes if ep else {}
        if loosen:
            return _loosened_status(lines, stmt, var, actual)
        if actual is not None and actual in documented:
            expected = int(status.group(2)) if status.re is _STATUS else None
            # both documented (a 404 for "does not exist", a 422 for "previously deleted"):
            # the document does not say which one this request meets, so either holds
            check = f"in ({expected}, {actual})" if expected in documented and \
                expected != actual and expected >= 400 and actual >= 400 else f"== {actual}"
            new = re.sub(r"assert\s+.*?status_code\s*(?:==\s*\d{3}|<\s*\d{3})",
                         f"assert {var}.status_code {check}", lines[stmt.lineno - 1], count=1)
            return lines[:stmt.lineno - 1] + [new] + lines[stmt.lineno:]
        return _refusal(lines, stmt, var, actual) or _drop(lines, stmt)
    if not isinstance(stmt, ast.Assert):  # a setup step: the id of the record it created?
        fixed = None if loosen else repair_lookup(lines, stmt.lineno - 1, output, spec,
                                                  _endpoint_of)
        return fixed if fixed is not None else lines
    extra = _extra_keys(output)
    if extra:
        return _drop_field(lines, extra)
    if key is not None:
        return _drop_field(lines, [key])
    return _drop(lines, stmt)


def _refusal(lines: list[str], stmt: ast.stmt, var: str, actual: int | None
             ) -> list[str] | None:
    """A test that expected a refusal (only error codes, none documented as what came back)
    and got one by another error code: a client error where one was expected stays asserted
    as one (a second delete of a record: refused, by whichever 4xx); any other error status
    only when dropping the check would leave the test asserting nothing; None otherwise."""
    text = lines[stmt.lineno - 1]
    m = re.search(r"status_code\s*(?:==\s*(\d{3})|in\s*\(([\d,\s]+)\))", text)
    expected = [int(c) for c in re.findall(r"\d{3}", m.group(1) or m.group(2))] if m else []
    if actual is None or actual < 400 or not expected or min(expected) < 400:
        return None
    client = 400 <= actual < 500 and max(expected) < 500
    if not client and response_assertions("\n".join(_drop(lines, stmt))) > 0:
        return None
    check = f"400 <= {var}.status_code < 500" if client else f"{var}.status_code >= 400"
    new = re.sub(r"assert\s+(\w+)\.status_code\s*(?:==\s*\d{3}|in\s*\([\d,\s]+\))",
                 f"assert {check}", text, count=1)
    return lines[:stmt.lineno - 1] + [new] + lines[stmt.lineno:]


def _error_checks(var: str, ep: Endpoint | None, code: int, spec: Spec) -> list[str]:
    doc = ep.response_examples.get(code) if ep is not None else None
    doc = doc if isinstance(doc, dict) else spec.error_format
    if not isinstance(doc, dict) or not doc:
        return []
    return ["", *set_assert([k for k in doc if isinstance(k, str)], f"set({var}.json())")]


def _add_body_checks(lines: list[str], spec: Spec) -> list[str]:
    """After each status assertion whose response body is never read, check its fields
    (documented success body, or the documented error format for a 4xx)."""
    out = list(lines)
    for i in range(len(lines) - 1, -1, -1):
        m = _STATUS.match(lines[i].strip())
        if not m or m.group(2) == "204" or m.group(2)[0] not in "24":
            continue
        var = m.group(1)
        if any(f"{var}.json()" in ln for ln in lines):
            continue
        ep = _endpoint_of(var, lines, i, spec)
        if m.group(2).startswith("4"):
            checks = _error_checks(var, ep, int(m.group(2)), spec)
        else:
            checks = body_checks(var, ep, f"{var}_body") if ep else []
        if len(checks) > 1:
            indent = re.match(r"\s*", lines[i]).group(0)  # type: ignore[union-attr]
            out[i + 1:i + 1] = [indent + c for c in checks if c]
    return out


def response_assertions(code: str) -> int:
    """Asserts that read a response: its status, its body, or a value taken from the body."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return 0
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name):
            src = ast.unparse(node.value)
            if src.startswith("session.") or any(
                    re.match(rf"{re.escape(n)}\b", src) for n in names):
                names.add(node.targets[0].id)
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            used = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
            count += bool(used & names)
    return count


def refine_case(case: TestCase, evidence: Evidence | None, reviews: list[Review], spec: Spec,
                note: str | None = None) -> TestCase:
    """The next round of `case`, repaired from its evidence and reviews (or `case` itself)."""
    try:
        ast.parse(case.code)
    except SyntaxError:
        return case
    lines, actions = _repair_failed(case, evidence, spec)
    feedback = " ".join([r.rationale for r in reviews] + [note or ""])
    lines, answered = _answer_feedback(lines, feedback, spec, case.name)
    actions += answered
    code = "\n".join(lines).rstrip() + "\n"
    if code == case.code.rstrip() + "\n" or response_assertions(code) == 0:
        return case
    prelude = case.prelude
    if CALLS.search(code) and "def created_record(" not in prelude:  # the helpers it calls
        prelude = (prelude.rstrip() + "\n\n\n" + PRELUDE).lstrip()
    return case.model_copy(update={"round": case.round + 1, "origin": "refined", "code": code,
                                   "author": "offline", "prelude": prelude,
                                   "rebuttal": answers(reviews, evidence, actions)})


def _repair_failed(case: TestCase, evidence: Evidence | None,
                   spec: Spec) -> tuple[list[str], list[Action]]:
    """The case's lines with what failed repaired (on the oracle), or loosened to the document
    (where it failed on an independent correct implementation only)."""
    lines = case.code.splitlines()
    output = _failure_output(evidence)
    if not output:
        return lines, []
    over = evidence is not None and evidence.passed
    repaired = _repair_failure(lines, output, spec, case, loosen=over)
    if repaired == lines:
        return lines, []
    where = ("loosened what failed on an independent correct implementation to what "
             "the document states" if over else "repaired what failed on the oracle")
    return repaired, [Action(f"{where}: " + code_change("\n".join(lines), "\n".join(repaired)))]


def _answer_feedback(lines: list[str], feedback: str, spec: Spec,
                     name: str) -> tuple[list[str], list[Action]]:
    """The lines strengthened (or cleaned of sleeps) where the reviews ask for it."""
    actions: list[Action] = []
    if _STATUS_ONLY.search(feedback):
        before = lines
        lines = _add_body_checks(lines, spec)
        if lines != before:
            actions.append(Action(f"added {len(lines) - len(before)} assertion line(s) on the "
                                  "documented response body", _STATUS_ONLY))
    if shape_only_code("\n".join(lines), name):
        before = lines
        lines = add_value_checks(lines, spec, _endpoint_of)
        if lines != before:
            actions.append(Action(f"added {len(lines) - len(before)} assertion(s) on documented "
                                  "values (values sent read back, documented constants), so a "
                                  "wrong value no longer passes", _SHAPE))
    if _ERROR_CODE.search(feedback):
        before = lines
        lines = add_error_code_checks(lines, spec, _endpoint_of)
        if lines != before:
            actions.append(Action("added an assertion on the documented error code",
                                  _ERROR_CODE))
    if "sleep" in feedback.lower() and any("time.sleep(" in ln for ln in lines):
        lines = [ln for ln in lines if "time.sleep(" not in ln]
        actions.append(Action("removed the fixed sleeps", re.compile("sleep", re.I)))
    return lines, actions
