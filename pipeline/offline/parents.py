"""The record a nested collection hangs under, where no documented path makes it directly.

- `/users/{id}/categories` under the accounts a sign-up makes (`POST /users` with a
  password): the parent is the signed-in user, whose id the test reads from its token
  (`tolerant.user_id_in`).
- `/categories/{id}/recipes` where categories live at `/users/{user_id}/categories/
  {category_id}` (shallow nesting): the parent is the one record kind of that noun, and the
  `{id}` of the nested path is its id.

Anything else under an unknown record is left without a create (`gen_model.build_model`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.offline.names import is_param, segments, singular, snake
from pipeline.records import Endpoint

if TYPE_CHECKING:
    from pipeline.offline.resource import Resource


def account_collections(eps: list[Endpoint]) -> set[str]:
    """Paths where accounts are made: an open POST whose body carries a password."""
    return {e.path.rstrip("/") for e in eps if e.method == "POST" and "{" not in e.path
            and isinstance(e.request_example, dict)
            and any("pass" in str(k).lower() for k in e.request_example)}


def adopt(res: Resource, resources: list[Resource], accounts: set[str]) -> bool:
    """Give `res` (whose parent item no documented path serves) the signed-in account or a
    record kind of the same noun as its parent; False when neither fits."""
    segs = segments(res.collection)
    if len(segs) < 3 or not is_param(segs[-2]):
        return False
    param = segs[-2][1:-1]
    if "/" + "/".join(segs[:-2]) in accounts:
        res.account_param = param
        return True
    noun = snake(singular(segs[-3]))
    found = [r for r in resources if r is not res and r.noun == noun and r.item]
    if len(found) != 1 or found[0].collection == res.collection:
        return False
    res.parent, res.parent_param = found[0], param
    return True
