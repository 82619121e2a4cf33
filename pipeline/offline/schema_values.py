"""What an output schema alone says about a record: its fields with a value of their type,
and the fields whose schema allows one value only (pure)."""

from __future__ import annotations

import copy
from typing import Any

from pipeline.records import Endpoint

_SCHEMA_VALUE = {"integer": 0, "number": 0.0, "boolean": False, "array": [], "object": {}}


def schema_constants(ep: Endpoint | None) -> dict[str, Any]:
    """Top-level answer fields whose schema allows exactly one value (`"status": "string
    (enum: ['in_progress'])"` on a create): the value itself is documented."""
    props = ((ep.response_schema or {}).get("properties") or {}) if ep is not None else {}
    out: dict[str, Any] = {}
    for name, sub in props.items() if isinstance(props, dict) else ():
        enum = sub.get("enum") if isinstance(sub, dict) else None
        if isinstance(enum, list) and len(enum) == 1 and enum[0] is not None:
            out[name] = enum[0]
    return out


def schema_record(*eps: Endpoint | None) -> dict[str, Any]:
    """A record's fields when the document gives only an output schema, no example: the
    first schema's property names, each with a value of its documented type (None for text
    and nullable fields, whose form the schema does not pin), so the id key and the fields a
    record holds come from the document and not from a guess."""
    for ep in eps:
        props = ((ep.response_schema or {}).get("properties") or {}) if ep is not None else {}
        if not isinstance(props, dict) or not props:
            continue
        out: dict[str, Any] = {}
        for name, sub in props.items():
            kind = sub.get("type") if isinstance(sub, dict) else None
            out[name] = _SCHEMA_VALUE.get(kind) if isinstance(kind, str) else None
        return copy.deepcopy(out)
    return {}


def skeleton(schema: Any) -> Any:
    """A body of the documented shape from a JSON schema (for locating keys, not values)."""
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {k: skeleton(v) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        item = skeleton(schema.get("items"))
        return [item] if item is not None else []
    return {"integer": 0, "number": 0.0, "boolean": False, "string": ""}.get(str(kind))
