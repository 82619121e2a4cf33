"""The body an update sends: the documented one, else the create body with a field changed.

Fields the service picks itself are left out of a PATCH, a flag is flipped (left as it was it
proves nothing), and fields naming the record or the record it is filed under carry the ids
the test holds (`Bound`), since the example's ids name other records.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_model import UNIQUE_KEY, Resource, has_reference
from pipeline.offline.own_ids import Bound
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint

_PICKED = re.compile(r"\bguess|\bdetect|\binferr?|\bderived?\b|if not (?:provided|given|sent)"
                     r"|when (?:absent|omitted|missing)", re.I)


def update_payload(res: Resource, own: str | None = None) -> dict | None:
    """The documented update body, else the create body with its title-like field changed;
    `own`: the variable holding the updated record's id (the resource's id variable)."""
    ep = res.update
    if ep is None:
        return None
    payload = _documented(res, ep)
    if payload is None and res.payload:
        payload = _changed_create(res, ep)
    if payload is None:
        return None
    return _bound(res, payload, own or res.id_var)


def _documented(res: Resource, ep: Endpoint) -> dict | None:
    """The documented update body, less what the service picks itself, its flags flipped."""
    payload = payload_of(ep, res.fields)
    if payload and ep.method == "PATCH" and not isinstance(ep.request_example, dict) \
            and res.shape is not None:
        # a text the document says the service picks when the create leaves it out ("language
        # will be guessed if not provided") comes from its vocabulary: a made-up value is no
        # change it must accept
        picked = {p.name for p in (res.create.params if res.create else [])
                  if _PICKED.search(p.description)}
        chosen = {k for k, kind in res.shape.record_types if kind == "string" and k in picked} \
            - set(res.payload or {})
        payload = {k: v for k, v in payload.items() if k not in chosen} or None
    for key, value in (payload or {}).items():  # a flag left as it was proves nothing
        was = (res.payload or {}).get(key, res.fields.get(key))
        if isinstance(value, bool) and value == was and not isinstance(ep.request_example, dict):
            payload[key] = not value  # type: ignore[index]
    return payload


def _changed_create(res: Resource, ep: Endpoint) -> dict | None:
    """The create body (whole for a PUT) with its title-like text and its counts changed;
    None when it has no such text."""
    assert res.payload is not None
    texts = [k for k, v in res.payload.items() if isinstance(v, str)
             and UNIQUE_KEY.search(k) and not k.endswith(("sku", "code", "isbn", "email"))]
    if not texts:
        return None
    payload = dict(res.payload) if ep.method == "PUT" else {}
    known = res.free_refs + res.shown_refs  # references to records that exist: kept
    for key, value in payload.items():  # a number left as it was proves nothing
        if isinstance(value, int) and not isinstance(value, bool) and value > 0 \
                and key not in known:
            payload[key] = value + 1
    old = str(res.payload[texts[0]])
    payload[texts[0]] = old.rstrip("/") + "/updated" if "://" in old else f"{old} (updated)"
    return payload


def _bound(res: Resource, payload: dict, own: str) -> dict | None:
    """`payload` with the ids the test holds where it names records (the record, its parent,
    the siblings it made) and its password kept; None when it names records the test cannot
    make."""
    named = _named_records(res, payload, own)
    if has_reference({k: v for k, v in payload.items()
                      if k not in (*res.free_refs, *res.shown_refs, *named, *res.refs)}):
        return None
    payload = {**payload, **named}
    for key in res.refs:  # the sibling records the test made, as the create sends them
        if key in payload and res.payload and key in res.payload:
            payload[key] = res.payload[key]
    for key in payload:  # a changed password would lock the test out of what it reads next
        if "pass" in key.lower() and isinstance((res.payload or {}).get(key), str):
            payload[key] = res.payload[key]  # type: ignore[index]
    if res.client_id and res.id_field in payload:  # the record's own id, or it moves
        payload[res.id_field] = Bound(own)  # type: ignore[index]
    return payload


def _named_records(res: Resource, payload: dict, own: str) -> dict[str, Bound]:
    """Update-body fields that name the record itself or the record it is filed under
    (`{"shoppinglist_id": 1, "title": ...}` sent to `/shoppinglist/{list_id}`): the ids the
    test holds, since the example's `1` names some other record."""
    out: dict[str, Bound] = {}
    for node in (res, res.parent):
        if node is None:
            continue
        for key in (f"{node.noun}_id", f"{node.noun}Id"):
            if key in payload and key not in out and not isinstance(payload[key], bool) \
                    and isinstance(payload[key], (int, str)):
                out[key] = Bound(own if node is res else node.id_var)
    return out
