"""Offline templates for input rules and deletes when the README documents no status codes.

A schema with `required`, `maxLength` and `enum` states rules a service must enforce even when
the document never names the error status: a body that breaks one rule is refused with *a*
4xx (400 <= code < 500, the only safe reading) and no record is stored (the documented list
total is unchanged). A deleted record reads back as 404 and a second delete of it is 404 too,
the obvious HTTP meaning. Templates here run only where `gen_rules` / `gen_api` write nothing
because no code is documented, so the two never test the same rule twice.
"""

from __future__ import annotations

from typing import Any

from pipeline.offline.gen_behaviour import create_record, listable, start_cleaning
from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_errors import validation_code
from pipeline.offline.gen_model import Resource, has_reference
from pipeline.offline.gen_query import list_shape, total_path
from pipeline.records import Endpoint

MAX_RULES = 5


def documents_errors(ep: Endpoint) -> bool:
    return any(400 <= code < 500 for code in ep.status_codes)


def _rules(ep: Endpoint, payload: dict[str, Any]) -> list[tuple[str, str]]:
    """(name suffix, payload edit) per schema rule the documented payload can break."""
    schema = ep.request_schema or {}
    props = schema.get("properties") or {}
    required = [p.name for p in ep.params if p.location == "body" and p.required]
    required = list(dict.fromkeys(required + list(schema.get("required") or [])))
    out = [(f"without_{name.lower()}", f"del sent[{literal(name)}]")
           for name in required if name in payload and len(payload) > 1]
    for name, prop in props.items():
        if not isinstance(prop, dict):
            continue
        limit = prop.get("maxLength")
        if isinstance(limit, int) and prop.get("type") == "string" and 0 < limit <= 10000:
            out.append((f"with_{name.lower()}_over_{limit}_chars",
                        f"sent[{literal(name)}] = \"x\" * {limit + 1}"))
        enum = prop.get("enum")
        if isinstance(enum, list) and len(enum) >= 2 and all(isinstance(v, str) for v in enum):
            out.append((f"with_unlisted_{name.lower()}",
                        f"sent[{literal(name)}] = \"not_\" + {literal(enum[0])} + \"_at_all\""))
    return out[:MAX_RULES]


def _total_lines(w: Writer, case: Case, res: Resource) -> tuple[list[str], list[str]]:
    """Lines reading the list total before, and checking it after (empty: no total)."""
    ep = res.listing
    total = total_path(list_shape(ep)) if ep is not None else None
    if ep is None or total is None or not w.model.reachable(ep):
        return [], []
    # counting is not what the case tests
    before = [w.call(case, "count_before", ep, {}, target=False),
              status_assert("count_before", ep)]
    after = [w.call(case, "count_after", ep, {}, target=False), status_assert("count_after", ep),
             f"assert {total.replace('body', 'count_after.json()', 1)} == "
             f"{total.replace('body', 'count_before.json()', 1)}"]
    return before, after


def refused_cases(w: Writer, res: Resource) -> list[Case]:
    """A create that breaks one schema rule is refused with a 4xx and stores nothing."""
    ep = res.create
    payload = w.payload_for(res)
    if (ep is None or payload is None or has_reference(payload) or res.parent is not None
            or not w.model.reachable(ep) or validation_code(ep)):
        return []
    # "On failure status code 400 (bad request) is returned": the one failure it documents
    failures = [c for c in ep.status_codes if 400 <= c < 500]
    code = failures[0] if failures == [400] else None
    out = []
    for suffix, edit in _rules(ep, payload):
        case = Case(f"test_create_{res.noun}_{suffix}_is_refused_with_{code or '4xx'}",
                    "error_handling")
        case.add(*payload_lines("sent", payload), edit)
        before, after = _total_lines(w, case, res)
        case.add(*before, w.call(case, "response", ep, {}, "json=sent"),
                 f"assert response.status_code == {code}, response.text" if code else
                 "assert 400 <= response.status_code < 500, response.text", *after)
        out.append(case)
    return out


def deleted_is_gone(w: Writer, res: Resource) -> Case | None:
    """Create, delete: the record reads back 404 and a second delete is 404."""
    if (not listable(w, res) or res.get is None or res.delete is None
            or not w.model.reachable(res.get) or not w.model.reachable(res.delete)
            or documents_errors(res.get) or documents_errors(res.delete)):
        return None
    case = start_cleaning(
        f"test_delete_{thing(res.delete.path)}_then_read_and_delete_again_return_404",
        "integration", w, res)
    rid = create_record(case, w, res, "rec", [])
    bind = {res.param or "id": rid}
    case.add(w.call(case, "removed", res.delete, bind), status_assert("removed", res.delete),
             w.call(case, "read", res.get, bind),
             "assert read.status_code == 404, read.text",
             w.call(case, "again", res.delete, bind),
             "assert again.status_code == 404, again.text")
    return case


def refusal_cases(w: Writer) -> list[Case | None]:
    """Every template here over the model's resources, in a fixed order."""
    out: list[Case | None] = []
    for res in w.model.resources:
        out += refused_cases(w, res)
        out.append(deleted_is_gone(w, res))
    return out
