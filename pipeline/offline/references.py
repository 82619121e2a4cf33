"""Ids a create body carries of other records, and which of them a test may send as written.

A body that names another record (`"category_id": 1`) can only be sent where that record
exists. Two kinds are safe without creating it first: an id of a thing no documented path
manages (the service cannot check it), and an id the document itself shows existing (its
list example holds the record) that the running oracle accepted in the create. Pure.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pipeline.offline.names import REFERENCE_KEY, segments, singular, snake
from pipeline.offline.own_ids import Bound
from pipeline.offline.tolerant import id_of_record, records_in

if TYPE_CHECKING:
    from pipeline.offline.resource import Resource

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


_DESCRIBED_ID = re.compile(r"\(ids?\)|\bids? of (?:an?|the)\b", re.I)


def described_ids(params: list[Any], payload: dict[str, Any]) -> tuple[str, ...]:
    """Body keys the document describes as ids of other records (`payer`: "paid by who?
    (id)"), whatever their names: the service looks them up, so the example's `1` names
    some record of another test run."""
    said = {p.name for p in params if p.location == "body" and _DESCRIBED_ID.search(
        p.description or "")}
    return tuple(k for k in payload if k in said)


def link_siblings(res: Resource, resources: list[Resource]) -> None:
    """Ids a record under a parent sends of its siblings (a bill's `payer` and `payed_for`,
    members of the same project): the test makes those records first, so the body names
    records that exist (`member_ids`, a list where the example sends several)."""
    if res.create is None or not res.payload or res.parent is None:
        return
    skip = (*res.free_refs, *res.shown_refs, res.parent_key)
    said = described_ids(res.create.params, res.payload)
    keys = [k for k in res.payload if k not in skip and (k in said or (
        REFERENCE_KEY.search(k) and k not in ("sku", "isbn")))]
    res.ref_keys = tuple(k for k in keys if k in said)
    siblings = [r for r in resources if r is not res and r.parent is res.parent
                and r.create is not None and r.payload and r.id_field]
    for key in keys:
        stem = snake(singular(REFERENCE_KEY.sub("", key) or key))
        named = [r for r in siblings if r.noun == stem]
        target = (named or siblings)[0] if len(named or siblings) == 1 else None
        if target is None:
            continue
        res.refs[key] = target
        res.ref_keys = tuple(dict.fromkeys((*res.ref_keys, key)))
        ids = f"{target.noun}_ids"
        res.payload[key] = Bound(ids if isinstance(res.payload[key], list) else f"{ids}[-1]")


def referenced_counts(res: Resource) -> dict[str, tuple[Resource, int]]:
    """Per sibling noun, the record to make and how many (two where a key sends a list)."""
    out: dict[str, tuple[Resource, int]] = {}
    for key, target in res.refs.items():
        example = (res.create.request_example if res.create else None) or {}
        sent = example.get(key) if isinstance(example, dict) else None
        count = min(len(sent), 2) if isinstance(sent, list) and sent else 1
        out[target.noun] = (target, max(count, out.get(target.noun, (target, 0))[1]))
    return out
