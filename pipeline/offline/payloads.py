"""Request bodies the document vouches for: its example, else the fields it lists, with values
taken from the record example, its documented values or the field's type and name.

Pure functions over an `Endpoint`; `None` where the document does not say enough to write a
body a correct implementation accepts (the caller skips the case).
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.records import Endpoint
from pipeline.spec.schema import json_type

# names whose value is a number, a flag, a date, a duration, a file or a reference even where
# no type is documented
_NOT_TEXT = re.compile(
    r"(?:^|_)(?:id|ids|count|amount|price|cost|age|qty|quantity|number|num|total|year|score|"
    r"rating|level|size|weight|height|width|lat|lng|latitude|longitude|limit|max|min|page|"
    r"offset|index|position|order|priority|percent|port|version|ttl|duration|timeout|"
    r"date|time|day|days|hours?|minutes?|seconds?|ms|at|on|is|has|enabled|active|public|"
    r"private|visible|done|completed|file|files|image|photo|avatar|attachment|upload|picture|"
    r"document)$|(?:Id|At|Date|Count|Days)$|^(?:is|has)[A-Z_]", re.I)
_TEXT_TYPE = re.compile(r"^(?:str|string|text|varchar|char)\b", re.I)


def _text_for(name: str, type_: str, constraints: dict[str, Any], word: str) -> str | None:
    """A string for a field the document lists without an example: plain words, within its
    documented length, where neither its type nor its name says it is anything but text (a
    format or pattern the document states is a rule this cannot follow: no value)."""
    if (type_ and not _TEXT_TYPE.match(type_)) or constraints.get("format") \
            or constraints.get("pattern") or (not type_ and _NOT_TEXT.search(name)):
        return None
    text = f"{word} {name.replace('_', ' ')}"
    low, high = constraints.get("minLength"), constraints.get("maxLength")
    if isinstance(high, int) and high >= 1:
        text = text[:high]
    if isinstance(low, int) and len(text) < low:
        text += "x" * (low - len(text))
    return text


def _value_for(name: str, type_: str | None, known: dict[str, Any],
               constraints: dict[str, Any] | None = None, word: str = "Sample") -> Any:
    """A value the document vouches for: the record example's, else one of its documented
    values, else a typed default."""
    if name in known and known[name] is not None:
        return known[name]
    constraints = constraints or {}
    enum = constraints.get("enum")
    if isinstance(enum, list) and enum and enum[0] is not None:
        return enum[0]
    t = (type_ or "").lower()
    if "bool" in t:
        return True
    if "int" in t:
        return 1
    if any(w in t for w in ("num", "float", "decimal")):
        return 1.5
    low = name.lower()
    if "email" in low and (not t or "str" in t):
        return "someone@example.com"
    if ("url" in low or "link" in low) and (not t or "str" in t):
        return "https://example.com/page"
    return _text_for(name, t, constraints, word)


_NUMERAL = re.compile(r"^-?\d+(?:\.\d+)?$")


def _typed(ep: Endpoint, example: dict[str, Any],
           known: dict[str, Any] | None = None) -> dict[str, Any]:
    """The example with a number written as a string (`"rating": "3"`, as curl examples often
    send) given as the number its documented type says: a service reading `rating (int)`
    answers and stores 3, which the test then compares with what it sent. A form carries
    only text: there the record's example (`known`) says which fields are numbers."""
    props = (ep.request_schema or {}).get("properties") or {}
    for key, value in example.items():
        if not isinstance(value, str) or not _NUMERAL.match(value):
            continue
        param = next((p for p in ep.params if p.name == key and p.location == "body"), None)
        kind = json_type(param.type if param else None) or (props.get(key) or {}).get("type")
        shown = (known or {}).get(key) if ep.request_form else None
        if kind in (None, "string") and isinstance(shown, int | float) \
                and not isinstance(shown, bool):  # "string": the form's text, not a rule
            kind = "number"
        if kind == "integer" and "." not in value:
            example[key] = int(value)
        elif kind == "number":
            example[key] = float(value) if "." in value else int(value)
    return example


def payload_of(ep: Endpoint, known: dict[str, Any] | None = None) -> dict | None:
    """A request body the document vouches for: its example, else its required fields
    (values from `known`, the record example, or typed defaults); where the document marks
    none required or optional, every field it lists (sending all is what it describes); an
    update's text differs from a create's, so a lost update shows."""
    if isinstance(ep.request_example, dict) and ep.request_example:
        return _typed(ep, dict(ep.request_example), known)
    body = [p for p in ep.params if p.location == "body"]
    schema = ep.request_schema or {}
    required = set(schema.get("required") or []) | {p.name for p in body if p.required}
    if not required and body and all(p.required is None for p in body):
        required = {p.name for p in body if p.name.isidentifier()}
    elif not required and body:  # some marked optional: the ones left unmarked are not
        required = {p.name for p in body if p.required is None and p.name.isidentifier()}
    if not required:
        return None
    props = schema.get("properties") or {}
    out: dict[str, Any] = {}
    for name in sorted(required, key=lambda n: ([p.name for p in body] + [n]).index(n)):
        param = next((p for p in body if p.name == name), None)
        type_ = (param.type if param else None) or (props.get(name) or {}).get("type")
        value = _value_for(name, type_, known or {}, param.constraints if param else None,
                           "Changed" if ep.method in ("PUT", "PATCH") else "Sample")
        if value is None:
            return None
        out[name] = value
    return out
