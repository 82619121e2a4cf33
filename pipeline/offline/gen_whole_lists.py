"""Offline template for a list the document does not page: it holds every record.

"List posts", "To retrieve all employees": where the document gives the list no page, size or
offset parameter and its answer no page fields, an implementation that cuts it to a page
size of its own (the first ten, the newest twenty) loses records a client asked for. The test
makes more records than such a page holds and finds each one in the list.
"""

from __future__ import annotations

from pipeline.offline.gen_behaviour import (
    OFFSET_PARAMS,
    create_record,
    listable,
    start_cleaning,
)
from pipeline.offline.gen_code import Case, Writer, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_docs import query_params
from pipeline.offline.gen_model import PAGE_PARAMS, SIZE_PARAMS, Resource
from pipeline.offline.gen_query import id_list, list_shape, listing_of

MADE = 12  # more than the page sizes implementations pick unasked (10)
_PAGE_KEYS = ("page", "pages", "next", "previous", "prev", "total", "count", "limit", "offset",
              "per_page", "page_size", "has_more", "cursor", "meta", "links", "_links")


def every_record_listed(w: Writer, res: Resource) -> Case | None:
    found = listing_of(w, res)
    if found is None or not listable(w, res):
        return None
    ep, records = found
    names = {p.name for p in query_params(ep)}
    doc, shape = list_shape(ep), res.observed(ep)
    if names & {*PAGE_PARAMS, *SIZE_PARAMS, *OFFSET_PARAMS} or (shape and shape.list_paged) \
            or (isinstance(doc, dict) and set(doc) & set(_PAGE_KEYS)):
        return None
    case = start_cleaning(f"test_{thing(ep.path)}_lists_every_record", "integration", w, res)
    one = Case(case.name, case.category)
    create_record(one, w, res, "new", [])
    case.endpoints += [e for e in one.endpoints if e not in case.endpoints]
    case.add(f"for _ in range({MADE}):", *[f"    {line}" for line in one.setup + one.body])
    case.add(w.call(case, "listed", ep, {}), status_assert("listed", ep),
             "body = listed.json()",
             f"ids = {id_list(records, res)}",
             "assert [i for i in created if i not in ids] == [], ids")
    return case
