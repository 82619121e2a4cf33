"""Offline template for a list under a record the document shows existing: the example of
`GET /categories/5/questions` answers `"current_category_id": 5` and questions of category 5,
and the document's list of categories shows category 5. A test reads the same list for that
record: the answer names the record it was asked for, every listed record belongs to it, and
a record the test adds to it (where it can add one) is listed there. A list that answers for
no record (`null`), for another, or lists records of every record fails here.

A list documented as a map from id to name (`"users": {"1": "Alice", "2": "Bob"}`) holds a
record the test creates under its id, with the name it was given."""

from __future__ import annotations

from typing import Any

from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import records_expr, thing
from pipeline.offline.gen_model import Resource, first_record, response_doc, success_status
from pipeline.offline.names import is_param, segments, singular
from pipeline.offline.references import shown_ids
from pipeline.records import Endpoint


def _shown_in_list(w: Writer, noun: str) -> set[str]:
    """Ids the document's list example of `noun`'s collection shows."""
    for ep in w.model.spec.endpoints:
        segs = segments(ep.path)
        if ep.method == "GET" and segs and not any(map(is_param, segs)) \
                and singular(segs[-1].lower()) == noun:
            return shown_ids(response_doc(ep))
    return set()


def _echoes(doc: dict[str, Any], noun: str) -> tuple[Any, list[str]] | None:
    """The one id value the answer's top-level keys naming the noun share, and those keys."""
    keys = [k for k, v in doc.items() if noun in str(k).lower() and str(k).lower().endswith(
        "id") and isinstance(v, int | str) and not isinstance(v, bool)]
    values = {doc[k] for k in keys}
    return (values.pop(), keys) if len(values) == 1 else None


def _child(w: Writer, ep: Endpoint, key: str) -> Resource | None:
    """The creatable top-level resource the listed records are, whose body names the parent
    by `key` (where the test can add one of them to the list)."""
    tail = segments(ep.path)[-1]
    return next((r for r in w.model.resources if r.parent is None and r.creatable
                 and segments(r.collection)[-1:] == [tail] and key in (r.payload or {})
                 and key in r.shown_refs), None)


def list_of_shown_record(w: Writer, ep: Endpoint) -> Case | None:
    segs = segments(ep.path)
    doc = response_doc(ep)
    params = [s for s in segs if is_param(s)]
    if ep.method != "GET" or len(params) != 1 or len(segs) != 3 or not is_param(segs[1]) \
            or not isinstance(doc, dict) or success_status(ep) != 200 \
            or not w.model.reachable(ep) or w.model.needs_auth(ep):
        return None
    noun = singular(segs[0].lower())
    echoed = _echoes(doc, noun)
    records = records_expr(doc, "body")
    if echoed is None or records is None or str(echoed[0]) not in _shown_in_list(w, noun):
        return None
    value, keys = echoed
    sample = first_record(doc)
    member = f"{noun}_id"
    if not isinstance(sample, dict) or sample.get(member) != value:
        return None
    param = segs[1][1:-1]
    case = Case(f"test_get_{thing(ep.path)}_of_a_documented_{noun}_lists_its_own", "integration")
    case.add(f"{param} = {literal(value)}")
    child = _child(w, ep, member)
    if child is not None and not w.create_chain(case, child, {}, overrides={member: param}):
        return None
    case.add(w.call(case, "response", ep, {}), status_assert("response", ep),
             "body = response.json()",
             *[f"assert body[{literal(k)}] == {param}" for k in keys],
             f"assert {records}",
             f"assert all(record[{literal(member)}] == {param} for record in {records})")
    if child is not None:
        case.add(f"assert {child.id_var} in [record[\"id\"] for record in {records}]")
    return case


def _name_map(doc: Any) -> str | None:
    """The key of the id -> name map a documented list answer holds."""
    if not isinstance(doc, dict):
        return None
    keys = [k for k, v in doc.items() if isinstance(v, dict) and v and all(
        str(i).isdigit() and isinstance(n, str) for i, n in v.items())]
    return keys[0] if len(keys) == 1 else None


def created_in_map(w: Writer, res: Resource) -> Case | None:
    ep = res.listing
    key = _name_map(response_doc(ep)) if ep is not None else None
    names = [k for k, v in (res.payload or {}).items() if isinstance(v, str)]
    if ep is None or key is None or len(names) != 1 or not res.creatable \
            or res.parent is not None or not w.model.reachable(ep):
        return None
    case = Case(f"test_created_{res.noun}_is_in_the_{thing(ep.path)}_map_under_its_id",
                "integration")
    if not w.create_chain(case, res, {}):
        return None
    case.add(w.call(case, "listed", ep, {}), status_assert("listed", ep),
             f"assert listed.json()[{literal(key)}][str({res.id_var})] == "
             f"payload[{literal(names[0])}]")
    return case
