"""Records whose id the client chooses: the create body carries it (`{"oid": ...}`).

Such an id must fit the pattern the document writes in the item's path (`/client/([0-9]*)`),
must differ between runs (a second create of the same id is a conflict), and an update body
that carries it must carry the record's own id, or the update moves the record.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.records import Endpoint

# keys that name the record itself, never another record (`user_id` does; `oid` does not)
OWN_ID = re.compile(r"_?id|[a-z]{1,2}id|uuid|guid|pk", re.I)
_CANDIDATES = ("4829173650", "a1b2c3d4e5", "sample-4829173650")


class Bound(str):
    """A payload value that is the source of a variable (the record's own id), not a text."""


def own_id_key(fields: dict[str, Any], payload: dict[str, Any] | None) -> str | None:
    """The one key of the record's representation (or create body) that names the record."""
    keys = [k for k in dict.fromkeys([*fields, *(payload or {})]) if OWN_ID.fullmatch(k)]
    return keys[0] if len(keys) == 1 else None


def path_pattern(*eps: Endpoint | None) -> str | None:
    """The pattern the item's path pins on its parameter, where the document writes one."""
    for ep in eps:
        for param in ep.params if ep is not None else ():
            rule = param.constraints.get("pattern") if param.location == "path" else None
            if isinstance(rule, str) and rule:
                return rule
    return None


def fitting_id(value: Any, pattern: str | None) -> Any:
    """`value` where it fits `pattern` (or there is none), else a value that does."""
    if pattern is None or not isinstance(value, str):
        return value
    try:
        rule = re.compile(pattern)
    except re.error:
        return value
    if rule.fullmatch(value):
        return value
    return next((c for c in _CANDIDATES if rule.fullmatch(c)), value)
