"""A delete seen through the list, for records the document gives no single-record read.

Without `GET /things/{id}` a lost delete (the service answers 200 but keeps the record) passes
every status check; the list shows it: the created record is listed, deleted, and no longer
listed, while a second record created beside it stays. The list is read with the documented
largest page size, so other records cannot push the test's own off the page.
"""

from __future__ import annotations

from pipeline.offline.gen_behaviour import _create, _start, _usable
from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import Resource
from pipeline.offline.gen_query import _get, _id_list, _listing, _size
from pipeline.offline.gen_refusals import _documents_errors


def deleted_not_listed(w: Writer, res: Resource) -> Case | None:
    """Create two, delete one: it leaves the list, the other stays."""
    found = _listing(w, res)
    if (found is None or res.get is not None or res.delete is None or not _usable(w, res)
            or not w.model.reachable(res.delete) or _documents_errors(res.delete)):
        return None
    ep, records = found
    size, big = _size(ep)
    params = f"{{{literal(size.name)}: {big}}}" if size else "{}"
    case = _start(f"test_deleted_{res.noun}_leaves_the_{thing(ep.path)}_list", "integration",
                  w, res)
    gone = _create(case, w, res, "gone", [])
    kept = _create(case, w, res, "kept", [])
    before = _get(case, w, ep, "before", params, records)
    case.add(f"assert {gone} in {_id_list(before, res)} and {kept} in {_id_list(before, res)}")
    case.add(w.call(case, "removed", res.delete, {res.param or "id": gone}),
             status_assert("removed", res.delete))
    after = _get(case, w, ep, "after", params, records)
    case.add(f"assert {gone} not in {_id_list(after, res)}",
             f"assert {kept} in {_id_list(after, res)}")
    return case


def list_cases(w: Writer) -> list[Case | None]:
    """Every template here over the model's resources, in a fixed order."""
    return [deleted_not_listed(w, res) for res in w.model.resources]
