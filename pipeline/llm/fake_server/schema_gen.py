"""A deterministic instance of a JSON schema: minimal valid values.

Handles the three dialects the SDKs send: plain JSON Schema ($defs/$ref, anyOf, enum, const),
Gemini's OpenAPI subset (upper-case types, `nullable`), and Anthropic's transformed schemas
(constraints moved into the description as `{minimum: 1, maximum: 5}`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

Choice = Literal["min", "max", "mid"]
_DESC_CONSTRAINTS = re.compile(r"\{([^{}]*:[^{}]*)\}")
_CONSTRAINT_KEYS = {
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
    "minItems", "maxItems",
}


def _constraints_from_description(schema: dict) -> dict:
    desc = schema.get("description")
    if not isinstance(desc, str):
        return schema
    extra: dict[str, Any] = {}
    for group in _DESC_CONSTRAINTS.findall(desc):
        for part in group.split(","):
            key, _, value = part.partition(":")
            key = key.strip()
            if key in _CONSTRAINT_KEYS and key not in schema:
                try:
                    extra[key] = float(value.strip())
                except ValueError:
                    continue
    return {**schema, **extra} if extra else schema


def _number(schema: dict, integer: bool, choice: Choice) -> float | int:
    lo = schema.get("minimum")
    hi = schema.get("maximum")
    if lo is None and schema.get("exclusiveMinimum") is not None:
        lo = float(schema["exclusiveMinimum"]) + (1 if integer else 0.5)
    if hi is None and schema.get("exclusiveMaximum") is not None:
        hi = float(schema["exclusiveMaximum"]) - (1 if integer else 0.5)
    if lo is not None and hi is not None:
        value = {"min": lo, "max": hi, "mid": (float(lo) + float(hi)) / 2}[choice]
    elif lo is not None:
        value = lo
    elif hi is not None:
        value = min(0, hi)
    else:
        value = 0
    if integer:
        value = int(value) if choice != "mid" else int(round(float(value)))
        if lo is not None and value < lo:
            value = int(lo) + 1
        return value
    return float(value)


def _string(schema: dict) -> str:
    lo = int(schema.get("minLength") or 0)
    hi = schema.get("maxLength")
    fmt = schema.get("format")
    base = {"date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "uri": "http://x.test/"}.get(
        fmt, "fake"
    )
    if len(base) < lo:
        base = base + "x" * (lo - len(base))
    if hi is not None:
        base = base[: int(hi)]
    return base


def example(
    schema: Any, *, choice: Choice = "min", root: dict | None = None, depth: int = 0
) -> Any:
    """A value valid against `schema` (best effort for exotic keywords)."""
    if not isinstance(schema, dict) or depth > 20:
        return None
    root = schema if root is None else root

    def nested(sub: Any) -> Any:
        return example(sub, choice=choice, root=root, depth=depth + 1)

    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        return nested(_resolve_ref(root, ref))
    schema = _constraints_from_description(schema)
    if schema.get("nullable") is True:
        return None
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    inner = _combined(schema)
    if inner is not _NOT_COMBINED:
        return nested(inner)
    kind = _kind(schema)
    if kind == "object":
        return {name: nested(sub) for name, sub in (schema.get("properties") or {}).items()}
    if kind == "array":
        item = nested(schema.get("items") or {})
        return [item for _ in range(_array_length(schema, choice))]
    return _SCALARS.get(kind, _text)(schema, choice)


_NOT_COMBINED = object()  # `_combined`: the schema has no anyOf/oneOf/allOf to follow
_NULL = {"type": "null"}


def _resolve_ref(root: dict, ref: str) -> Any:
    """The schema a local `#/...` reference points at ({} where the path breaks)."""
    target: Any = root
    for part in ref[2:].split("/"):
        target = target.get(part, {}) if isinstance(target, dict) else {}
    return target


def _combined(schema: dict) -> Any:
    """The one schema an anyOf/oneOf (first option) or allOf (parts merged) stands for."""
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if options:
            if any(str(o.get("type", "")).lower() == "null" for o in options):
                return _NULL  # the minimal value of an optional field
            return options[0]
    if schema.get("allOf"):
        merged: dict = {}
        for part in schema["allOf"]:
            merged.update(part)
        return merged
    return _NOT_COMBINED


def _kind(schema: dict) -> str:
    """The lower-case type name: the first non-null of a type list, else guessed."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if str(k).lower() != "null"), "null")
    return str(kind).lower() if kind else ("object" if "properties" in schema else "string")


def _array_length(schema: dict, choice: Choice) -> int:
    n = int(schema.get("minItems") or 0)
    if choice != "min" and n == 0:
        n = 1
    if schema.get("maxItems") is not None:
        n = min(n, int(schema["maxItems"]))
    return n


def _text(schema: dict, choice: Choice) -> str:
    return _string(schema)


_SCALARS: dict[str, Callable[[dict, Choice], Any]] = {
    "integer": lambda schema, choice: _number(schema, True, choice),
    "number": lambda schema, choice: _number(schema, False, choice),
    "boolean": lambda schema, choice: choice != "min",
    "null": lambda schema, choice: None,
}
