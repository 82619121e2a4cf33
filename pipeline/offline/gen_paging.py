"""Offline templates for paged lists.

- A paged list the document counts: walking its pages from the first (as the document numbers
  them) until a page is empty or, where the document says so, not found, meets every record
  once, as many as the documented total says. A page numbered from the wrong end, a page that
  repeats the one before, or a total that counts something else fails here; it needs no page
  size, no order and no record of its own.
- A paged list under a record: three made under a parent of their own split two and one.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Made, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import path_params, query_param, records_expr, thing
from pipeline.offline.gen_model import (
    PAGE_PARAMS,
    SIZE_PARAMS,
    Resource,
    error_code,
    first_record,
    response_doc,
    success_status,
)
from pipeline.records import Endpoint

_TOTAL = re.compile(r"(?:^|_)(?:total|count)(?:_|$)|^total[A-Z]", re.I)
MAX_PAGES = 200


def _total_key(doc: object) -> str | None:
    keys = [k for k, v in doc.items() if _TOTAL.search(str(k)) and isinstance(v, int)
            and not isinstance(v, bool)] if isinstance(doc, dict) else []
    return keys[0] if len(keys) == 1 else None


def _first_page(ep: Endpoint, name: str) -> int | None:
    """The number of the first page: the documented default, when it is 0 or 1."""
    param = next((p for p in ep.params if p.name == name), None)
    first = param.constraints.get("default") if param is not None else None
    return first if first in (0, 1) and not isinstance(first, bool) else None


def pages_hold_every_record(w: Writer, ep: Endpoint) -> Case | None:
    doc = response_doc(ep)
    records = records_expr(doc, "body")
    total = _total_key(doc)
    name = query_param(w.model, ep, PAGE_PARAMS)
    first = _first_page(ep, name) if name else None
    if ep.method != "GET" or path_params(ep.path) or records is None or total is None \
            or first is None or success_status(ep) != 200 or not w.model.reachable(ep) \
            or not isinstance(doc, dict):
        return None
    sample = first_record(doc)
    if not isinstance(sample, dict) or "id" not in sample:
        return None
    case = Case(f"test_list_{thing(ep.path)}_pages_hold_every_record_once", "edge_case")
    page = literal(name)
    case.add(w.call(case, "response", ep, {}, f"params={{{page}: {first}}}"),
             status_assert("response", ep), f"total = response.json()[{literal(total)}]",
             "seen = []", f"for number in range({first}, {first} + {MAX_PAGES}):",
             "    " + w.call(case, "response", ep, {}, f"params={{{page}: number}}"))
    if error_code(ep, 404, "page"):  # the document answers a page that is not there so
        case.add("    if response.status_code == 404:", "        break")
    case.add("    " + status_assert("response", ep), "    body = response.json()",
             f"    if not {records}:", "        break",
             f"    seen += [record[\"id\"] for record in {records}]",
             "assert len(seen) == len(set(seen)), seen",
             "assert len(seen) == total, (len(seen), total)")
    return case


_PAGES = ("pages", "total_pages", "totalPages", "page_count", "pageCount", "num_pages")


def _answer_keys(ep: Endpoint) -> dict[str, str]:
    """Key -> JSON type of the documented list answer (its example, else its schema)."""
    doc = response_doc(ep)
    if isinstance(doc, dict):
        return {str(k): "array" if isinstance(v, list) else "integer" if isinstance(v, int)
                and not isinstance(v, bool) else "other" for k, v in doc.items()}
    props = (ep.response_schema or {}).get("properties") or {}
    return {k: str(v.get("type")) for k, v in props.items() if isinstance(v, dict)}


def pages_split_new_records(w: Writer, res: Resource) -> Case | None:
    """A list that reports its page size (`per_page`): one record more than a page holds,
    made by the test, is met exactly once walking the pages from the first. A page offset off
    by one, a page that repeats the one before, or a last page left out fails here."""
    ep, create = res.listing, res.create
    if ep is None or create is None or not res.creatable or res.parent is not None \
            or res.id_field is None or res.observed(create) is not None \
            or not (w.model.reachable(ep) and w.model.reachable(create)):
        return None
    keys = _answer_keys(ep)
    arrays = [k for k, kind in keys.items() if kind == "array"]
    size = next((k for k in SIZE_PARAMS if keys.get(k) == "integer"), None)
    pages = next((k for k in _PAGES if keys.get(k) == "integer"), None)
    name = query_param(w.model, ep, PAGE_PARAMS)
    first = _first_page(ep, name) if name else None
    if len(arrays) != 1 or size is None or first is None or success_status(ep) != 200:
        return None
    records, page = f"body[{literal(arrays[0])}]", literal(name)
    case = Case(f"test_list_{thing(ep.path)}_pages_split_new_records_without_repeats",
                "edge_case")
    case.add(w.call(case, "response", ep, {}, f"params={{{page}: {first}}}"),
             status_assert("response", ep), f"size = response.json()[{literal(size)}]",
             "assert isinstance(size, int) and 0 < size <= 100, size", "made = []")
    if res.delete is not None and w.model.reachable(res.delete):
        auth = ", headers=auth_headers" if w.model.needs_auth(res.delete) else ""
        url = w.url(res.delete.path, {path_params(res.delete.path)[-1]: "record_id"})
        case.cleanup += ["for record_id in made:", f"    session.delete({url}{auth})"]
    case.add("for _ in range(size + 1):",
             *["    " + line for line in payload_lines("payload", w.payload_for(res) or {})],
             "    " + w.call(case, "created", create, {}, "json=payload"),
             "    " + status_assert("created", create),
             f"    made.append({res.created_id('created')})",
             "seen = []")
    last = f"{first} + response.json()[{literal(pages)}]" if pages else f"{first} + {MAX_PAGES}"
    if pages:
        case.add(w.call(case, "response", ep, {}, f"params={{{page}: {first}}}", target=False))
    case.add(f"for number in range({first}, {last}):",
             "    " + w.call(case, "response", ep, {}, f"params={{{page}: number}}"),
             "    if response.status_code == 404:", "        break",
             "    " + status_assert("response", ep), "    body = response.json()",
             f"    if not {records}:", "        break",
             f"    seen += [record[{literal(res.id_field)}] for record in {records}]",
             "assert len(seen) == len(set(seen)), seen",
             "assert set(made) <= set(seen), (made, seen)")
    return case


def nested_pages_split(w: Writer, res: Resource) -> Case | None:
    """Under a parent of its own, three records paged two at a time: two on the first page,
    one on the second, each once (a page parameter that is ignored repeats the first)."""
    ep, parent = res.listing, res.parent
    names = [p.name for p in ep.params if p.location == "query"] if ep is not None else []
    page = next((n for n in (*PAGE_PARAMS, "offset", "skip") if n in names), None)
    size = next((n for n in SIZE_PARAMS if n in names), None)
    if ep is None or parent is None or page is None or size is None or res.create is None \
            or not res.creatable or not w.model.reachable(ep) \
            or not w.model.reachable(res.create):
        return None
    case = Case(f"test_{res.noun}s_under_one_{parent.noun}_split_into_pages", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    ids = [res.id_var]
    for n in (2, 3):
        case.add(*payload_lines(f"payload_{n}", w.payload_for(res) or {}))
        if res.parent_key:
            case.add(f"payload_{n}[{literal(res.parent_key)}] = {parent.id_var}")
        case.add(w.call(case, f"made_{n}", res.create, bindings, f"json=payload_{n}",
                        target=False), status_assert(f"made_{n}", res.create))
        if not w.take_created(case, res, bindings, Made(
                f"made_{n}", f"payload_{n}", f"record_{n}", f"id_{n}")):
            return None
        ids.append(f"id_{n}")
    first, second = ("0", "2") if page in ("offset", "skip") else ("1", "2")
    for tag, at in (("one", first), ("two", second)):
        case.add(w.call(case, f"page_{tag}", ep, bindings,
                        f"params={{{literal(page)}: {at}, {literal(size)}: 2}}"),
                 status_assert(f"page_{tag}", ep),
                 f"ids_{tag} = [id_of_record(r, {literal(res.noun)}) "
                 f"for r in records_in(page_{tag}.json())]")
    case.add("assert len(ids_one) == 2 and len(ids_two) == 1, (ids_one, ids_two)",
             f"assert sorted(map(str, ids_one + ids_two)) == sorted(map(str, [{', '.join(ids)}]))")
    return case
