"""A create body for a service whose document shows none, shaped like a record it already
lists (the data a service starts with: "replicates the behaviour of JSONPlaceholder").

The body holds the listed record's own fields, not its id or its stamps; free text is made
new (so a read that finds the listed record instead of the created one shows), and short
codes, numbers, flags and references to other records keep the listed value, which the
service already accepted. Observation (`stages/observe.py`) sends it and the offline model
(`gen_model.build_model`) builds the same body from the same observed list.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.offline.own_ids import OWN_ID
from pipeline.offline.tolerant import records_in

_STAMP = re.compile(r"(?:_at|At|_on|_time|timestamp|date)$", re.I)
_KEPT_TEXT = re.compile(r"^[\w.+-]{1,12}$|@|://|^\d{4}-\d{2}-\d{2}")


def seeded_payload(listed: Any) -> dict[str, Any] | None:
    """The body, from a list answer's last record; None when it lists no object."""
    records = [r for r in records_in(listed) if isinstance(r, dict)]
    if not records:
        return None
    out: dict[str, Any] = {}
    for key, value in records[-1].items():
        if OWN_ID.fullmatch(str(key)) or _STAMP.search(str(key)) or value is None \
                or isinstance(value, dict | list):
            continue
        new = isinstance(value, str) and not _KEPT_TEXT.search(value)
        out[str(key)] = f"{value} (new)" if new else value
    return out or None


def listed_answer(observed: list[Any], collection: str) -> Any:
    """The first observed answer of the list at `collection` (before any create of the
    observation), or None."""
    paths = {collection, collection.rstrip("/"), collection.rstrip("/") + "/"}
    return next((o.answer for o in observed if o.method == "GET" and o.path in paths
                 and 200 <= o.status < 300), None)
