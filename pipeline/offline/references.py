"""Ids a create body carries of other records, and which of them a test may send as written.

A body that names another record (`"category_id": 1`) can only be sent where that record
exists. Two kinds are safe without creating it first: an id of a thing no documented path
manages (the service cannot check it), and an id the document itself shows existing (its
list example holds the record) that the running oracle accepted in the create. Pure.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.offline.names import segments, singular
from pipeline.offline.tolerant import id_of_record, records_in

_REF = re.compile(r"^([a-z]+)_id$")

def free_references(payload: dict[str, Any], paths: set[str]) -> tuple[str, ...]:
    """Top-level string ids (`content_id`) of a thing no documented path names (no
    `/contents`): the service cannot check them against anything, so a fresh value is valid."""
    words = {w for p in paths for seg in p.strip("/").split("/") for w in re.split(r"[-_]", seg)}
    out = []
    for key, value in payload.items():
        m = re.match(r"^([a-z]+)_id$", key)
        if m and isinstance(value, str) and not any(
                w.lower().startswith(m.group(1).lower())
                or singular(w.lower()) == m.group(1).lower() for w in words if w):
            out.append(key)
    return tuple(out)


def shown_ids(doc: Any) -> set[str]:
    """Ids a documented list answer shows: its records' ids, or the keys of an id -> name
    map (`"categories": {"1": "Science", ...}`)."""
    ids = {str(i) for r in records_in(doc) if (i := id_of_record(r)) is not None}
    maps = [doc] + ([v for v in doc.values() if isinstance(v, dict)] if isinstance(doc, dict)
                    else [])
    for value in maps:
        if isinstance(value, dict) and value and all(
                str(k).isdigit() and isinstance(v, str | int | float) for k, v in value.items()):
            ids |= {str(k) for k in value}
    return ids


def shown_references(payload: dict[str, Any], listings: dict[str, Any],
                     accepted: bool) -> tuple[str, ...]:
    """Top-level ids (`category_id`) of records the document's list example for them
    (`GET /categories`, in `listings` by path) shows existing; only once the oracle
    `accepted` a create sending them, so the document and the service agree they exist."""
    if not accepted:
        return ()
    out = []
    for key, value in payload.items():
        m = _REF.match(key)
        if m is None or isinstance(value, bool) or not isinstance(value, int | str):
            continue
        for path, doc in listings.items():
            segs = segments(path)
            if segs and singular(segs[-1].lower()) == m.group(1) and str(value) in \
                    shown_ids(doc):
                out.append(key)
                break
    return tuple(out)
