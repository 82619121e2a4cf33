"""Offline templates for documented input rules: required fields, ranges, allowed values,
defaults. Each sends one request that breaks (or leaves out) exactly one documented rule and
expects the documented validation status and code, so a service that dropped a check fails.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import VERBS, action_name, bind, no_write, thing
from pipeline.offline.gen_contrast import accepted_create, limit_edit
from pipeline.offline.gen_errors import PARAM_WORDS, validation_code
from pipeline.offline.gen_model import (
    UNSAFE_PATH,
    Resource,
    error_code,
    has_reference,
    response_doc,
    success_status,
)
from pipeline.offline.gen_state_rules import unchanged_record
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint, Param

_RANGE = re.compile(r"(?<![\w.])(-?\d+)\s*(?:–|—|-|\.\.|to)\s*(-?\d+)(?![\w.])")
_MIN = re.compile(r"(?:≥|>=)\s*(-?\d+)(?![\w.])")
_CHARS = re.compile(r"characters|chars|字符|length|长度", re.I)
_ONE_OF = re.compile(r"\bone of\b\s*:?\s*([^.;()]+)", re.I)
_DEFAULT = re.compile(r"\bdefault(?:s to)?\s*:?\s*`?([^\s`,;)]+)`?", re.I)
MAX_PER_ENDPOINT = 3


def _body(ep: Endpoint) -> list[Param]:
    return [p for p in ep.params if p.location == "body"]


def _required(ep: Endpoint) -> list[str]:
    schema = ep.request_schema or {}
    names = [p.name for p in _body(ep) if p.required]
    return list(dict.fromkeys(names + list(schema.get("required") or [])))


def _start(w: Writer, ep: Endpoint, name: str) -> tuple[Case, dict[str, str], dict] | None:
    """A case with the records the path names created and the documented payload bound."""
    res = _created_by(w, ep)
    doc = response_doc(ep)
    payload = w.payload_for(res) if res else payload_of(ep, doc if isinstance(doc, dict) else None)
    if (ep.method not in ("POST", "PUT", "PATCH") or payload is None or has_reference(payload)
            or UNSAFE_PATH.search(ep.path) or not w.model.reachable(ep)):
        return None
    case = Case(name, "error_handling")
    bindings = bind(case, w, ep, target_var="owner") if "{" in ep.path else {}
    if bindings is None:
        return None
    case.add(*payload_lines("sent", payload))
    return case, bindings, payload


def _refused(w: Writer, case: Case, ep: Endpoint, bindings: dict[str, str], code: int,
             edits: list[str] | None = None) -> None:
    """Send `sent`, expect the refusal; a refused create must not have stored a record (or,
    when the collection cannot be counted, the valid create with `edits` is accepted)."""
    res = _created_by(w, ep)
    unchanged = no_write(w, case, res, bindings) if res is not None else []
    owner = w.model.owner(ep.path) if res is None and bindings else None
    if owner is not None:  # an action on a record: the refused one leaves it as it was
        unchanged = unchanged_record(w, case, owner, bindings)
    case.add(w.call(case, "response", ep, bindings, "json=sent"),
             f"assert response.status_code == {code}, response.text",
             *w.errors("response", code), *unchanged)
    if res is not None and not unchanged:
        case.add(*accepted_create(w, case, res, bindings, edits))


def _created_by(w: Writer, ep: Endpoint) -> Resource | None:
    return next((r for r in w.model.resources if r.create is ep and r.creatable), None)


def _label(w: Writer, ep: Endpoint) -> str:
    res = _created_by(w, ep)
    if res is not None:
        return f"create_{res.noun}"
    return f"{VERBS[ep.method]}_{action_name(w.model, ep)}"


def missing_required(w: Writer, ep: Endpoint) -> list[Case]:
    """One case per required field (a few): the body without it is refused."""
    code = validation_code(ep)
    out: list[Case] = []
    for field in _required(ep)[:MAX_PER_ENDPOINT] if code else []:
        name = f"test_{_label(w, ep)}_without_{field.lower()}_returns_{code}"
        made = _start(w, ep, name)
        if made is None or field not in made[2] or len(made[2]) < 2 and not _body(ep):
            continue
        case, bindings, _ = made
        case.add(f"del sent[{literal(field)}]")
        _refused(w, case, ep, bindings, code or 422)
        out.append(case)
    return out


def _bounds(param: Param) -> tuple[int, int] | None:
    low, high = param.constraints.get("minimum"), param.constraints.get("maximum")
    if isinstance(low, int) and isinstance(high, int) and low < high and param.location == "body":
        return low, high  # a schema's "integer (0-2)" read into constraints
    text = f"{param.type or ''} {param.description}"
    match = _RANGE.search(text)
    if match is None or _CHARS.search(text[match.end():match.end() + 14]):
        return None
    low, high = int(match.group(1)), int(match.group(2))
    return (low, high) if low < high else None


def out_of_range(w: Writer, ep: Endpoint) -> list[Case]:
    """Numbers just outside a documented range (both ends) are refused."""
    code = validation_code(ep)
    out: list[Case] = []
    for param in _body(ep) if code else []:
        bounds = _bounds(param)
        if bounds is None or "int" not in (param.type or "integer").lower():
            continue
        for side, value in (("above", bounds[1] + 1), ("below", bounds[0] - 1)):
            name = f"test_{_label(w, ep)}_with_{param.name.lower()}_{side}_range_returns_{code}"
            made = _start(w, ep, name)
            if made is None:
                continue
            case, bindings, _ = made
            case.add(f"sent[{literal(param.name)}] = {value}")
            edge = bounds[1] if side == "above" else bounds[0]  # the limit itself is allowed
            _refused(w, case, ep, bindings, code or 422,
                     [f"valid[{literal(param.name)}] = {edge}"])
            out.append(case)
    return out


def too_long(w: Writer, ep: Endpoint) -> list[Case]:
    """Text one character over its documented maximum length is refused."""
    code = validation_code(ep)
    out: list[Case] = []
    for param in _body(ep) if code else []:
        most = param.constraints.get("maxLength")
        if not isinstance(most, int) or not 0 < most <= 10000 or len(out) >= MAX_PER_ENDPOINT:
            continue
        name = f"test_{_label(w, ep)}_with_{param.name.lower()}_over_{most}_chars_returns_{code}"
        made = _start(w, ep, name)
        if made is None or param.name not in made[2]:
            continue
        case, bindings, payload = made
        case.add(f'sent[{literal(param.name)}] = "x" * {most + 1}')
        edit = limit_edit("valid", param.name, payload, most)  # exactly the limit is allowed
        _refused(w, case, ep, bindings, code or 422, [edit] if edit else [])
        out.append(case)
    return out


def _allowed(param: Param) -> list[str]:
    enum = param.constraints.get("enum")
    if isinstance(enum, list) and all(isinstance(v, str) for v in enum):
        return list(enum)  # "string (enum: ['X', 'O'])" read into constraints
    match = _ONE_OF.search(param.description)
    if match is None:
        return []
    return [v for v in re.split(r"[,\s/|]+|\bor\b", match.group(1).strip()) if v.isidentifier()]


def not_allowed(w: Writer, ep: Endpoint) -> list[Case]:
    """A value outside the documented list of allowed values is refused."""
    code = validation_code(ep)
    out: list[Case] = []
    for param in _body(ep) if code else []:
        if len(_allowed(param)) < 2:
            continue
        name = f"test_{_label(w, ep)}_with_unlisted_{param.name.lower()}_returns_{code}"
        made = _start(w, ep, name)
        if made is None:
            continue
        case, bindings, _ = made
        case.add(f'sent[{literal(param.name)}] = unique("unlisted")')
        _refused(w, case, ep, bindings, code or 422)
        out.append(case)
    return out


def _default(param: Param) -> tuple[bool, Any]:
    match = _DEFAULT.search(param.description)
    if match is None:
        return False, None
    word = match.group(1).rstrip(".")
    word = {"False": "false", "True": "true", "None": "null"}.get(word, word)  # Python's
    try:
        return True, json.loads(word)
    except ValueError:
        return False, None


def default_applied(w: Writer, ep: Endpoint) -> list[Case]:
    """An optional field left out takes its documented default in the answer."""
    doc = response_doc(ep)
    out: list[Case] = []
    for param in _body(ep):
        found, value = _default(param)
        shown = doc if isinstance(doc, dict) else (ep.response_schema or {}).get("properties")
        if not found or param.required or not isinstance(shown, dict) or param.name not in shown:
            continue
        name = f"test_{_label(w, ep)}_without_{param.name.lower()}_uses_default"
        made = _start(w, ep, name)
        if made is None:
            continue
        case, bindings, _ = made
        case.category = "edge_case"
        case.add(f"sent.pop({literal(param.name)}, None)",
                 w.call(case, "response", ep, bindings, "json=sent"),
                 status_assert("response", ep),
                 f"assert response.json()[{literal(param.name)}] "
                 f"{'is' if value is None or isinstance(value, bool) else '=='} {literal(value)}")
        out.append(case)
    return out


def _query_code(ep: Endpoint) -> int | None:
    return next((c for c in (400, 422) if error_code(ep, c, *PARAM_WORDS)), None)


def query_out_of_range(w: Writer, ep: Endpoint) -> list[Case]:
    """A list's numeric query parameter just outside its documented range (a cap, a page
    number below the first) is refused with the documented status and code."""
    code = _query_code(ep)
    if ep.method != "GET" or "{" in ep.path or code is None or not w.model.reachable(ep):
        return []
    out: list[Case] = []
    for param in [p for p in ep.params if p.location == "query"]:
        bounds = _bounds(param)
        low = _MIN.search(f"{param.type or ''} {param.description}")
        sides = [("above", bounds[1] + 1), ("below", bounds[0] - 1)] if bounds else \
            [("below", int(low.group(1)) - 1)] if low else []
        for side, value in sides:
            case = Case(f"test_list_{thing(ep.path)}_with_{param.name.lower()}_{side}_range_"
                        f"returns_{code}", "edge_case")
            case.add(w.call(case, "response", ep, {}, f"params={{{literal(param.name)}: {value}}}"),
                     f"assert response.status_code == {code}, response.text",
                     *w.errors("response", code))
            out.append(case)
    return out


def query_defaults(w: Writer, ep: Endpoint) -> Case | None:
    """A list asked without paging parameters answers with their documented defaults."""
    doc = response_doc(ep)
    if (ep.method != "GET" or "{" in ep.path or not isinstance(doc, dict)
            or success_status(ep) != 200 or not w.model.reachable(ep)):
        return None
    checks = []
    for param in [p for p in ep.params if p.location == "query"]:
        found, value = _default(param)
        if found and isinstance(value, int) and isinstance(doc.get(param.name), int):
            checks.append(f"assert body[{literal(param.name)}] == {value}")
    if not checks:
        return None
    case = Case(f"test_list_{thing(ep.path)}_uses_documented_defaults", "edge_case")
    case.add(w.call(case, "response", ep, {}), status_assert("response", ep),
             "body = response.json()", *checks)
    return case


def rule_cases(w: Writer) -> list[Case | None]:
    """Every rule template over every documented endpoint, in document order."""
    out: list[Case | None] = []
    for ep in w.model.spec.endpoints:
        if ep.path in {e.path for e in (w.model.login, w.model.register) if e is not None}:
            continue
        out += missing_required(w, ep) + out_of_range(w, ep) + not_allowed(w, ep)
        out += too_long(w, ep)
        out += default_applied(w, ep) + query_out_of_range(w, ep) + [query_defaults(w, ep)]
    return out
