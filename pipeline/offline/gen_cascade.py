"""Offline template for a delete the document says takes records with it ("A user can delete
their account, which will cascade delete their projects, issues, and comments":
`Endpoint.cascades`, `spec/cascade_rules.py`).

The test's user makes a record of the first kind named; a second user who can read it (added
to it as a member by name, `gen_members`) reads it, or the records filed under it where the
document keeps the record itself to its author; the first user deletes their account; the
second user's read is then refused or finds nothing. A delete that only
deactivates the account, and leaves its records, fails.
"""

from __future__ import annotations

from pipeline.offline.gen_code import Case, Writer
from pipeline.offline.gen_members import new_member
from pipeline.offline.gen_model import Resource
from pipeline.offline.names import is_param, segments
from pipeline.records import Endpoint


def account_delete_takes_records(w: Writer, ep: Endpoint) -> Case | None:
    params = [s[1:-1] for s in segments(ep.path) if is_param(s)]
    if ep.method != "DELETE" or not ep.cascades or len(params) != 1 \
            or not w.model.reachable(ep) or not w.model.needs_auth(ep):
        return None
    res = next((r for noun in ep.cascades for r in w.model.resources
                if r.noun == noun and r.parent is None), None)
    read = _member_read(w, res) if res is not None else None
    if res is None or read is None:
        return None
    case = Case(f"test_deleted_account_takes_its_{res.noun}_with_it", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings) or not new_member(case, w, res, bindings):
        return None
    case.add(w.call_unsigned(case, "seen", read, bindings, "headers=headers", target=False),
             "assert 200 <= seen.status_code < 300, seen.text",
             "me = user_id_in(auth_headers)", 'assert me is not None, "no user id"',
             w.call(case, "gone", ep, {params[0]: "me"}),
             "assert 200 <= gone.status_code < 300, gone.text",
             w.call_unsigned(case, "after", read, bindings, "headers=headers",
                             target=False),
             "assert 400 <= after.status_code < 500, after.text")
    return case


def _member_read(w: Writer, res: Resource) -> Endpoint | None:
    """What a member may read of the record: the record itself, or where the document keeps
    that to its author, the list of a kind of record filed under it (a project's issues)."""
    if res.get is not None and not res.get.owner_only and w.model.reachable(res.get):
        return res.get
    return next((r.listing for r in w.model.resources if r.parent is res
                 and r.listing is not None and not r.listing.owner_only
                 and w.model.reachable(r.listing)), None)
