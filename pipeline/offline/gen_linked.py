"""Offline templates for a list under a record (`GET /users/{id}/todos`) over records the
service already holds: the list names only records that belong to that one (their
`userId`, `user_id` or `user`), and a record created for it appears there.

The test needs an id of a record that exists. It takes one from what the service lists: a
list whose records name such ids (`GET /posts` holds `userId`), the record's own list
(`GET /users`), or, one step further, a list under another record (`GET /users/{id}/albums`
for album ids). Which lists hold which keys is read from the observed answers; the test reads
the ids at run time, the largest one, so a lookup by position or by the wrong key shows.
"""

from __future__ import annotations

from typing import Any

from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import path_params
from pipeline.offline.gen_model import Resource, response_doc
from pipeline.offline.names import is_param, segments, singular, snake
from pipeline.offline.shape import holds
from pipeline.offline.tolerant import records_in
from pipeline.records import Endpoint

# numbers in numeric order, as text (`2` before `10`): the test takes the largest id
_ORDER = "lambda v: (len(str(v)), str(v))"


def _link_keys(noun: str) -> tuple[str, ...]:
    return (f"{noun}Id", f"{noun}_id", f"{noun}ID")


def _nested(ep: Endpoint) -> tuple[str, str] | None:
    """(parent noun, child collection word) of `GET /parents/{id}/children`."""
    segs = segments(ep.path)
    if ep.method != "GET" or len(segs) < 3 or len(path_params(ep.path)) != 1 \
            or not is_param(segs[-2]) or is_param(segs[-1]) or is_param(segs[-3]):
        return None
    return snake(singular(segs[-3])), segs[-1]


def _observed_lists(w: Writer) -> dict[str, list[dict[str, Any]]]:
    """The records each observed list held that the service started with: not the ones the
    observation itself created (a fresh service in a test run has none of those)."""
    sent = [o.body for o in w.model.spec.observed
            if o.method == "POST" and isinstance(o.body, dict) and o.body]
    out: dict[str, list[dict[str, Any]]] = {}
    for o in w.model.spec.observed:
        if o.method == "GET" and "{" not in o.path and 200 <= o.status < 300:
            rows = [r for r in records_in(o.answer) if isinstance(r, dict)
                    and not any(2 * len(holds(r, b)) >= len(b) for b in sent)]
            if rows:
                out.setdefault(o.path, rows)
    return out


def _ids(w: Writer, case: Case, noun: str, var: str, depth: int = 0) -> bool:
    """Bind `var` to the ids of existing `noun` records, sorted; False when no list shows
    any."""
    lists = _observed_lists(w)
    for path, rows in lists.items():  # records naming the noun's ids
        key = next((k for k in _link_keys(noun) if k in rows[0]), None)
        ep = next((e for e in w.model.spec.endpoints if e.method == "GET" and e.path == path),
                  None)
        if key is not None and ep is not None and w.model.reachable(ep):
            case.add(w.call(case, f"{var}_source", ep, {}, target=False),
                     status_assert(f"{var}_source", ep),
                     f"{var} = sorted({{record[{literal(key)}] for record in "
                     f"records_in({var}_source.json())}}, key={_ORDER})")
            return True
    for ep in w.model.spec.endpoints:  # the noun's own list, or one under another record
        segs = segments(ep.path)
        if ep.method != "GET" or not segs or snake(singular(segs[-1])) != noun \
                or not w.model.reachable(ep):
            continue
        ids = (f"{{id_of_record(record, {literal(noun)}) for record in "
               f"records_in({var}_source.json())}}")
        if path_params(ep.path):  # under each of the newest ten of the records above
            nested = _nested(ep)
            if nested is None or depth > 0 or not _ids(w, case, nested[0], f"{var}_up", 1):
                continue
            call = w.call(case, f"{var}_source", ep, {path_params(ep.path)[0]: "up"},
                          target=False)
            case.add(f"{var} = set()", f"for up in {var}_up[-10:]:", f"    {call}",
                     f"    {status_assert(f'{var}_source', ep)}", f"    {var} |= {ids}",
                     f"{var} = sorted({var}, key={_ORDER})")
            return True
        if ep.path not in lists:
            continue
        case.add(w.call(case, f"{var}_source", ep, {}, target=False),
                 status_assert(f"{var}_source", ep), f"{var} = sorted({ids}, key={_ORDER})")
        return True
    return False


def _linked_rows(w: Writer, ep: Endpoint, noun: str, children: str) -> bool:
    """Do the records of this list name their parent (`postId`), by the evidence: its
    documented answer, or an observed answer of it or of the top-level list of the same
    records (`GET /comments`)? Without any, maybe."""
    rows = [r for r in records_in(response_doc(ep)) if isinstance(r, dict)]
    for o in w.model.spec.observed:
        tail = segments(o.path)[-1:] if o.method == "GET" else []
        if o.path == ep.path or (tail == [children] and "{" not in o.path):
            rows += [r for r in records_in(o.answer) if isinstance(r, dict)]
    # no evidence either way: the test runs on the oracle, which shows whether they do
    return not rows or any(any(k in r for k in (*_link_keys(noun), noun)) for r in rows)


def lists_only_linked(w: Writer, ep: Endpoint) -> Case | None:
    """`GET /users/{id}/todos` of an existing user lists only that user's todos."""
    nested = _nested(ep)
    if nested is None or not w.model.reachable(ep) or not _linked_rows(w, ep, *nested):
        return None
    noun, children = nested
    case = Case(f"test_get_{noun}_{snake(children)}_lists_only_its_own", "integration")
    if not _ids(w, case, noun, "parents"):
        return None
    call = w.call(case, "response", ep, {path_params(ep.path)[0]: "parent"})
    case.add("assert parents, \"no existing record to list under\"",
             "for parent in reversed(parents[-10:]):  # the newest that lists anything",
             f"    {call}", f"    {status_assert('response', ep)}",
             "    rows = records_in(response.json())", "    if rows:", "        break",
             "assert len(rows) >= 1, \"nothing listed under an existing record\"",
             f"assert all(link_of(row, {literal(noun)}) == parent for row in rows), rows")
    return case


def created_under_parent(w: Writer, res: Resource) -> Case | None:
    """A record created naming its parent (`userId` in the body) is listed under that
    parent (`GET /users/{id}/posts`)."""
    if not res.creatable or res.create is None or res.parent is not None:
        return None
    word = segments(res.collection)[-1] if segments(res.collection) else ""
    for ep in w.model.spec.endpoints:
        nested = _nested(ep)
        if nested is None or nested[1] != word or not w.model.reachable(ep):
            continue
        key = next((k for k in _link_keys(nested[0]) if k in (res.payload or {})), None)
        if key is None:
            continue
        case = Case(f"test_created_{res.noun}_is_listed_under_its_{nested[0]}", "integration")
        if not w.create_chain(case, res, {}):
            return None
        case.add(f"owner = payload[{literal(key)}]",
                 w.call(case, "listed", ep, {path_params(ep.path)[0]: "owner"}),
                 status_assert("listed", ep),
                 f"ids = [id_of_record(row, {literal(res.noun)}) for row in "
                 "records_in(listed.json())]",
                 f"assert {res.id_var} in ids, ids")
        return case
    return None


def filter_by_listed_value(w: Writer, ep: Endpoint) -> Case | None:
    """`GET /posts?userId={id}`: filtered by a value its own records hold (the largest), the
    list holds only records with that value, and at least one."""
    rows = _observed_lists(w).get(ep.path)
    if ep.method != "GET" or path_params(ep.path) or not rows or not w.model.reachable(ep):
        return None
    key = next((p.name for p in ep.params if p.location == "query" and p.name in rows[0]
                and isinstance(rows[0][p.name], int | str)
                and not isinstance(rows[0][p.name], bool)), None)
    if key is None:
        return None
    case = Case(f"test_list_{snake(segments(ep.path)[-1])}_filtered_by_{snake(key)}",
                "api_compliance")
    case.add(w.call(case, "whole", ep, {}), status_assert("whole", ep),
             f"values = sorted({{row[{literal(key)}] for row in records_in(whole.json())}}, "
             f"key={_ORDER})",
             "assert values, \"no record to filter\"",
             w.call(case, "response", ep, {}, f"params={{{literal(key)}: values[-1]}}"),
             status_assert("response", ep), "rows = records_in(response.json())",
             "assert len(rows) >= 1, \"the filter dropped every record\"",
             f"assert all(row[{literal(key)}] == values[-1] for row in rows), rows")
    return case
