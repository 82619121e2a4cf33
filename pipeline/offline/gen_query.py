"""Offline templates for documented list query parameters when the README gives no example.

Many documents describe a list only by its output schema (`"tasks": [{...}]`, `"pagination":
{"total": ...}`) and its query parameters by type, default, maximum and enum
(`limit: integer (optional, default: 10, max: 100)`, `status: enum: ['pending', ...]`).
Shape checks pass on a service that ignores `?priority=` or `?limit=`; these cases check the
parameters against records the test created: an enum filter lists the created record under its
value and not under another, `limit=1` returns one record, pages 1 and 2 differ, the default
page equals page 1, the total counts the created records, a limit above the documented maximum
is capped or refused. No assertion sits inside a loop over a collection that may be empty.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.offline.gen_behaviour import create_record, listable, start_cleaning
from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import listed_records, thing
from pipeline.offline.gen_docs import query_params
from pipeline.offline.gen_model import (
    PAGE_PARAMS,
    SIZE_PARAMS,
    UPCOMING,
    Resource,
    response_doc,
    shift_dates,
)
from pipeline.offline.schema_values import skeleton
from pipeline.records import Endpoint, Param

_ENUM = re.compile(r"enum\s*:?\s*\[([^\]]*)\]", re.I)
_MAX = re.compile(r"\b(?:max(?:imum)?|capped\s+at|at\s+most)\s*[:=]?\s*(\d+)", re.I)
_DEFAULT = re.compile(r"\bdefault\s*[:=]?\s*(\d+)", re.I)
_TOTAL_KEYS = ("total", "total_count", "totalCount", "count", "total_items")


def enum_values(param: Param) -> list[str]:
    """The values of an `enum: ['a', 'b']` list: the spec reader's constraint (any language),
    else the list in the parameter's description."""
    parsed = param.constraints.get("enum")
    match = _ENUM.search(param.description or "")
    if isinstance(parsed, list) and all(isinstance(v, str) for v in parsed):
        values = [str(v) for v in parsed]
    elif match:
        values = [v.strip().strip("'\"` ") for v in match.group(1).split(",")]
    else:
        return []
    values = [v for v in values if re.fullmatch(r"[\w-]+", v)]
    return values if len(values) >= 2 and len(values) == len(set(values)) else []


_CONSTRAINT = {_MAX.pattern: "maximum", _DEFAULT.pattern: "default"}


def number_after(pattern: re.Pattern[str], param: Param) -> int | None:
    """The documented maximum / default: the spec reader's constraint, which reads any
    language ("默认10, 最大100" as well as "default 10, max 100"), else the English words."""
    parsed = param.constraints.get(_CONSTRAINT.get(pattern.pattern, ""))
    if isinstance(parsed, int) and not isinstance(parsed, bool):
        return parsed
    match = pattern.search(param.description or "")
    return int(match.group(1)) if match else None


def list_shape(ep: Endpoint) -> Any:
    doc = response_doc(ep)
    return doc if doc is not None else skeleton(ep.response_schema)


def records_path(doc: Any) -> str | None:
    """Source for the records in a list body named `body` (top-level list or enveloped)."""
    if isinstance(doc, list):
        return "body"
    if isinstance(doc, dict):
        for key, value in doc.items():
            if isinstance(value, list) and (not value or isinstance(value[0], dict)):
                return f"body[{literal(key)}]"
    return None


def total_path(doc: Any) -> str | None:
    """Source for the documented total count (top level or one object down)."""
    if not isinstance(doc, dict):
        return None
    for key in _TOTAL_KEYS:
        if key in doc and isinstance(doc[key], int) and not isinstance(doc[key], bool):
            return f"body[{literal(key)}]"
    for outer, value in doc.items():
        if isinstance(value, dict):
            for key in _TOTAL_KEYS:
                if isinstance(value.get(key), int) and not isinstance(value.get(key), bool):
                    return f"body[{literal(outer)}][{literal(key)}]"
    return None


def listing_of(w: Writer, res: Resource) -> tuple[Endpoint, str] | None:
    ep = res.listing
    if ep is None or not w.model.reachable(ep) or not listable(w, res):
        return None
    # where the document shows no list answer, wherever the oracle's list held the record
    records = records_path(list_shape(ep)) or listed_records(res, ep, "body")
    return (ep, records) if records else None


def get_listed(case: Case, w: Writer, ep: Endpoint, var: str, params: str, records: str) -> str:
    """List with `params`; the source of the listed ids, read from `<var>_body`."""
    case.add(w.call(case, var, ep, {}, f"params={params}"), status_assert(var, ep),
             f"{var}_body = {var}.json()")
    return records.replace("body", f"{var}_body", 1)


def id_list(records: str, res: Resource) -> str:
    return f"[record[{literal(res.id_field)}] for record in {records}]"


def size_param(ep: Endpoint) -> tuple[Param | None, int]:
    """The page-size parameter and a size that surely holds every record of one test run."""
    param = next((p for p in query_params(ep) if p.name in SIZE_PARAMS), None)
    cap = number_after(_MAX, param) if param else None
    return param, min(cap or 100, 100)


def _body_enum(res: Resource, name: str) -> list[str]:
    """A filter documented without its values whose record field the create documents with
    allowed values (`?action=` beside `"action": "view|search|share"`): those values."""
    ep = res.create
    if ep is None:
        return []
    props = (ep.request_schema or {}).get("properties") or {}
    prop = props.get(name) if isinstance(props, dict) else None
    found = prop.get("enum") if isinstance(prop, dict) else None
    found = found or next((p.constraints.get("enum") for p in ep.params
                           if p.name == name and p.location == "body"), None)
    values = [v for v in found or [] if isinstance(v, str)]
    return values if len(values) >= 2 and len(values) == len(set(values)) else []


def enum_filter_cases(w: Writer, res: Resource) -> list[Case]:
    """Per enum query parameter the create (or update) can set: the created record is listed
    under its value, every listed record has that value, and it is absent under another."""
    found = listing_of(w, res)
    if found is None:
        return []
    ep, records = found
    size, big = size_param(ep)
    payload = res.payload or {}
    update_fields = {p.name for p in (res.update.params if res.update else [])
                     if p.location == "body"}
    out = []
    for param in query_params(ep):
        values = enum_values(param) or _body_enum(res, param.name)
        if not values or param.name in SIZE_PARAMS + PAGE_PARAMS:
            continue
        via_create = param.name in payload
        if not via_create and (param.name not in update_fields or res.update is None
                               or not w.model.reachable(res.update)):
            continue
        value = payload.get(param.name) if payload.get(param.name) in values else values[-1]
        other = next(v for v in values if v != value)
        case = start_cleaning(f"test_list_{thing(ep.path)}_enum_filter_{param.name.lower()}_lists_"
                              f"created_{res.noun}_only_under_its_value", "api_compliance", w, res)
        edit = [f"{{p}}[{literal(param.name)}] = {literal(value)}"] if via_create else []
        rid = create_record(case, w, res, "rec", edit)
        if not via_create:
            assert res.update is not None
            case.add(f"change = {{{literal(param.name)}: {literal(value)}}}")
            case.add(w.call(case, "changed", res.update, {res.param or "id": rid}, "json=change"),
                     status_assert("changed", res.update))
        extra = f", {literal(size.name)}: {big}" if size else ""
        got = get_listed(case, w, ep, "matching",
                         f"{{{literal(param.name)}: {literal(value)}{extra}}}", records)
        case.add(f"assert {rid} in {id_list(got, res)}",
                 f"assert {{record[{literal(param.name)}] for record in {got}}} == "
                 f"{{{literal(value)}}}")
        rest = get_listed(case, w, ep, "others",
                          f"{{{literal(param.name)}: {literal(other)}{extra}}}", records)
        case.add(f"assert {rid} not in {id_list(rest, res)}",
                 f"assert {literal(value)} not in {{record[{literal(param.name)}] for record in "
                 f"{rest}}}")
        out.append(case)
    return out


def paging_case(w: Writer, res: Resource) -> Case | None:
    """Two created records and pages of one: one record per page, pages differ, the default
    page is page 1, the total counts at least the created ones, the maximum size holds."""
    found = listing_of(w, res)
    if found is None:
        return None
    ep, records = found
    size, _ = size_param(ep)
    page = next((p for p in query_params(ep) if p.name in PAGE_PARAMS), None)
    if size is None or page is None:
        return None
    case = start_cleaning(f"test_list_{thing(ep.path)}_{size.name.lower()}_and_{page.name.lower()}_"
                          f"split_the_list", "edge_case", w, res)
    ids = [create_record(case, w, res, f"rec{i}", []) for i in range(2)]
    s, p = literal(size.name), literal(page.name)
    one = get_listed(case, w, ep, "first", f"{{{s}: 1, {p}: 1}}", records)
    two = get_listed(case, w, ep, "second", f"{{{s}: 1, {p}: 2}}", records)
    plain = get_listed(case, w, ep, "unpaged", f"{{{s}: 1}}", records)
    case.add(f"assert len({one}) == 1 and len({two}) == 1",
             f"assert {id_list(one, res)} != {id_list(two, res)}",
             f"assert {id_list(plain, res)} == {id_list(one, res)}")
    total = total_path(list_shape(ep))
    if total is not None:
        case.add(f"assert {total.replace('body', 'first_body', 1)} >= {len(ids)}")
    cap = number_after(_MAX, size)
    if cap is not None:
        case.add(w.call(case, "over", ep, {}, f"params={{{s}: {cap + 1}}}"),
                 "assert over.status_code < 500, over.text",
                 "if over.status_code < 300:",
                 f"    assert len({records.replace('body', 'over.json()', 1)}) <= {cap}",
                 "else:",
                 "    assert 400 <= over.status_code < 500, over.text")
    return case


def default_size_case(w: Writer, res: Resource) -> Case | None:
    """A documented default page size: with more records than it, an unpaged list holds
    exactly that many."""
    found = listing_of(w, res)
    if found is None:
        return None
    ep, records = found
    size, _ = size_param(ep)
    default = number_after(_DEFAULT, size) if size else None
    if size is None or default is None or not 1 <= default <= 25:
        return None
    case = start_cleaning(f"test_list_{thing(ep.path)}_default_{size.name.lower()}_is_{default}",
                          "edge_case", w, res)
    _make_records(case, w, res, default + 1)
    got = get_listed(case, w, ep, "listed", "{}", records)
    case.add(f"assert len({got}) == {default}")
    return case


def _make_records(case: Case, w: Writer, res: Resource, count: int) -> None:
    """Create `count` records in a loop (each deleted when the case ends)."""
    case.add("codes = []", f"for _ in range({count}):")
    inner = Case("inner", "x")
    create_record(inner, w, res, "rec", [])
    case.endpoints += [e for e in inner.endpoints if e not in case.endpoints]
    lines = [line for line in inner.setup + inner.body if not line.startswith("assert ")]
    case.add(*["    " + line for line in lines], "    codes.append(rec_created.status_code)",
             f"assert len(codes) == {count}",
             "assert all(200 <= code < 300 for code in codes), codes")


MAX_CAP = 200  # more records than this in one test is a load test, not a rule check


def cap_holds_case(w: Writer, res: Resource) -> Case | None:
    """A documented largest page size (`capped at 100`) on a list that does not echo its
    size: with more records than the cap, a page asked one larger holds exactly the cap (or
    the size is refused with a 4xx)."""
    found = listing_of(w, res)
    if found is None:
        return None
    ep, records = found
    size, _ = size_param(ep)
    cap = number_after(_MAX, size) if size else None
    if size is None or cap is None or not 1 <= cap <= MAX_CAP \
            or _echo_path(list_shape(ep), size.name) is not None:
        return None
    case = start_cleaning(f"test_list_{thing(ep.path)}_{size.name.lower()}_above_{cap}_"
                          f"holds_at_most_{cap}", "edge_case", w, res)
    _make_records(case, w, res, cap + 1)
    case.add(w.call(case, "over", ep, {}, f"params={{{literal(size.name)}: {cap + 1}}}"),
             "assert over.status_code < 500, over.text",
             "if over.status_code < 300:",
             "    body = over.json()",
             f"    assert len({records}) == {cap}, len({records})",
             "else:",
             "    assert 400 <= over.status_code < 500, over.text")
    return case


def _dated(payload: dict[str, Any], year: int) -> list[str]:
    """Edits that move the payload's dates so the earliest falls in `year`."""
    return [f"{{p}}[{literal(k)}] = {literal(v)}" for k, v in shift_dates(payload, year).items()]


def upcoming_case(w: Writer, res: Resource) -> Case | None:
    """A list the document calls upcoming (its summary, or a parameter that asks for it)
    shows a record dated ahead and leaves out one dated in the past."""
    found = listing_of(w, res)
    if found is None or not res.payload:
        return None
    ep, records = found
    param = next((p for p in query_params(ep) if UPCOMING.search(f"{p.name} {p.description}")),
                 None)
    shape = res.observed(ep)
    size, big = size_param(ep)
    if (param is None and not UPCOMING.search(ep.summary)) or not _dated(res.payload, 2000) \
            or (shape is not None and shape.list_paged and size is None):
        return None
    case = start_cleaning(f"test_list_{thing(ep.path)}_upcoming_shows_a_future_{res.noun}"
                          f"_not_a_past_one", "api_compliance", w, res)
    past = create_record(case, w, res, "past", _dated(res.payload, 2000))
    ahead = create_record(case, w, res, "ahead", _dated(res.payload, 2099))
    params = [f"{literal(param.name)}: \"true\""] if param is not None else []
    params += [f"{literal(size.name)}: {big}"] if size is not None else []
    got = get_listed(case, w, ep, "listed", "{" + ", ".join(params) + "}", records)
    case.add(f"assert {ahead} in {id_list(got, res)}",
             f"assert {past} not in {id_list(got, res)}")
    return case


def _echo_path(doc: Any, name: str) -> str | None:
    """Source for the response key that echoes the page size (top level or one down)."""
    if isinstance(doc, dict) and isinstance(doc.get(name), int):
        return f"body[{literal(name)}]"
    for outer, value in (doc.items() if isinstance(doc, dict) else []):
        if isinstance(value, dict) and isinstance(value.get(name), int):
            return f"body[{literal(outer)}][{literal(name)}]"
    return None


def size_cap_case(w: Writer, ep: Endpoint) -> Case | None:
    """A page size above the documented maximum is capped (the echoed size and the page stay
    within it) or refused with a 4xx; never an error or an unbounded page."""
    size, _ = size_param(ep)
    cap = number_after(_MAX, size) if size else None
    shape = list_shape(ep)
    echo = _echo_path(shape, size.name) if size else None
    if (ep.method != "GET" or "{" in ep.path or size is None or cap is None or echo is None
            or not w.model.reachable(ep)):
        return None
    case = Case(f"test_list_{thing(ep.path)}_{size.name.lower()}_above_{cap}_is_capped_or_refused",
                "edge_case")
    case.add(w.call(case, "over", ep, {}, f"params={{{literal(size.name)}: {cap + 1}}}"),
             "assert over.status_code < 500, over.text",
             "if over.status_code < 300:",
             f"    assert {echo.replace('body', 'over.json()', 1)} <= {cap}",
             "else:",
             "    assert 400 <= over.status_code < 500, over.text")
    return case


def query_cases(w: Writer) -> list[Case | None]:
    """Every query-parameter template over the model's resources, in a fixed order."""
    out: list[Case | None] = []
    for res in w.model.resources:
        out += enum_filter_cases(w, res)
        out += [paging_case(w, res), default_size_case(w, res), upcoming_case(w, res),
                cap_holds_case(w, res)]
    out += [size_cap_case(w, ep) for ep in w.model.spec.endpoints]
    return out
