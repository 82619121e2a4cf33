"""A delete seen through the list, for records the document gives no single-record read.

Without `GET /things/{id}` a lost delete (the service answers 200 but keeps the record) passes
every status check; the list shows it: the created record is listed, deleted, and no longer
listed, while a second record created beside it stays. The list is read with the documented
largest page size, so other records cannot push the test's own off the page.
"""

from __future__ import annotations

from pipeline.offline.gen_behaviour import create_record, listable, start_cleaning
from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import Resource
from pipeline.offline.gen_query import get_listed, id_list, listing_of, size_param
from pipeline.offline.gen_refusals import documents_errors


def deleted_not_listed(w: Writer, res: Resource) -> Case | None:
    """Create two, delete one: it leaves the list, the other stays."""
    found = listing_of(w, res)
    if (found is None or res.get is not None or res.delete is None or not listable(w, res)
            or not w.model.reachable(res.delete) or documents_errors(res.delete)):
        return None
    ep, records = found
    size, big = size_param(ep)
    params = f"{{{literal(size.name)}: {big}}}" if size else "{}"
    case = start_cleaning(f"test_deleted_{res.noun}_leaves_the_{thing(ep.path)}_list",
                          "integration", w, res)
    gone = create_record(case, w, res, "gone", [])
    kept = create_record(case, w, res, "kept", [])
    before = get_listed(case, w, ep, "before", params, records)
    case.add(f"assert {gone} in {id_list(before, res)} and {kept} in {id_list(before, res)}")
    case.add(w.call(case, "removed", res.delete, {res.param or "id": gone}),
             status_assert("removed", res.delete))
    after = get_listed(case, w, ep, "after", params, records)
    case.add(f"assert {gone} not in {id_list(after, res)}",
             f"assert {kept} in {id_list(after, res)}")
    return case


def list_cases(w: Writer) -> list[Case | None]:
    """Every template here over the model's resources, in a fixed order."""
    return [deleted_not_listed(w, res) for res in w.model.resources]
