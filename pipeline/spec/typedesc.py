"""Type descriptions as documents write them → JSON-schema fragments (pure).

Many requirement documents show a body as JSON whose values describe the field instead of
giving an example: `"username": "string (required, 3-20 characters)"`,
`"priority": "string (optional, enum: ['low', 'high'], default low)"`,
`"page": "integer (default 1, max 100)"`, `"数量": "整数（必填，1-99）"`. Such a body is a
schema, not an example: sending it verbatim would post the words "string (required ...)".
`describe()` reads one description; `body_schema()` turns a whole body into an object schema;
`example_of()` gives the smallest body that keeps every stated rule (required fields, types,
lengths, ranges, allowed values), which is what the spec offers as the request example.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from pipeline.records import Endpoint, Param

_TYPE_WORD = re.compile(
    r"^\s*(?P<t>array\s+of\s+\w+|list\s+of\s+\w+|string|str|text|integer|int|long|float|double"
    r"|number|decimal|numeric|boolean|bool|object|dict|array|list|uuid|date-?time|date|email"
    r"|url|uri|字符串|文本|整数|整型|数字|浮点数?|小数|布尔值?|对象|数组|列表|日期时间|日期)"
    r"(?P<null>\s*\|\s*null)?(?![\w-])",
    re.I,
)
_JSON_TYPE = [
    (r"^(?:array|list)\b|数组|列表", "array"),
    (r"^(?:integer|int|long)$|整", "integer"),
    (r"^(?:float|double|number|decimal|numeric)$|数字|浮点|小数", "number"),
    (r"^bool", "boolean"),
    (r"^(?:object|dict)$|对象", "object"),
]
_FORMATS = [(r"\bemail\b|邮箱", "email"), (r"iso\s*8601|date-?time|日期时间", "date-time"),
            (r"^date$|\bdate\b(?!-?time)", "date"), (r"\buuid\b", "uuid"),
            (r"^ur[li]$|\bvalid\s+url\b", "uri")]
_NUM = r"-?\d+(?:\.\d+)?"
_RANGE = re.compile(rf"(?<![A-Za-z0-9_.])(?P<lo>{_NUM})\s*(?:-|–|~|to|至|到)\s*(?P<hi>{_NUM})"
                    r"(?![A-Za-z0-9_.])")
_MIN = re.compile(rf"\b(?:min(?:imum)?|at\s+least|>=|≥|最小(?:值|长度)?|至少)"
                  rf"\s*[:：=]?\s*(?P<v>{_NUM})", re.I)
_MAX = re.compile(rf"(?:\bmax(?:imum)?|\bat\s+most|\bup\s+to|<=|≤|最大(?:值|长度)?|最多|不超过)"
                  rf"\s*[:：=]?\s*(?P<v>{_NUM})", re.I)
_DEFAULT = re.compile(r"(?:\bdefault(?:s\s+to)?|默认(?:值)?(?:为|是)?)\s*[:：=]?\s*"
                      r"(?P<v>'[^']*'|\"[^\"]*\"|`[^`]*`|[^\s,;，；)）]+)", re.I)
_ENUM_LIST = re.compile(r"(?:enum|one\s+of|allowed(?:\s+values)?|values?|可选值|取值)\s*[:：]?\s*"
                        r"(?P<v>\[[^\]]*\]|\{[^}]*\})", re.I)
_PIPES = re.compile(r"(?:^|[:：\s(（,，])(?P<v>[\w.-]+(?:\s*\|\s*[\w.-]+)+)(?=$|[\s,，;；)）])")
_ONE_OF = re.compile(r"\bone\s+of\s*:?\s*(?P<v>[\w.-]+(?:\s*(?:,|\bor\b|\|)\s*[\w.-]+)+)", re.I)
_LENGTH_WORDS = re.compile(r"char|letter|length|digit|字符|字|位|长度", re.I)
_REQ = re.compile(r"\brequired\b|\bmandatory\b|必填|必须|必需|必选", re.I)
_OPT = re.compile(r"\boptional\b|可选|选填|非必", re.I)


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def _json_type(word: str) -> str:
    low = word.strip().lower()
    for pattern, name in _JSON_TYPE:
        if re.search(pattern, low):
            return name
    return "string"


def _scalar(text: str, typ: str) -> Any:
    raw = text.strip().strip("`'\"")
    if typ in ("integer", "number"):
        try:
            return _number(raw)
        except ValueError:
            return raw
    if typ == "boolean" and raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    return raw


def _enum(note: str, typ: str) -> list[Any] | None:
    m = _ENUM_LIST.search(note)
    if m:
        inner = m.group("v")
        if inner.startswith("{") and inner.endswith("}"):
            inner = f"[{inner[1:-1]}]"  # "{6,8,20}" keeps its order (a set would not)
        try:
            value = ast.literal_eval(inner.replace("null", "None"))
            items = list(value) if isinstance(value, (list, tuple, set)) else []
        except (ValueError, SyntaxError):
            items = [x.strip(" '\"`") for x in inner.strip("[]{}").split(",") if x.strip()]
        return [x for x in items if x is not None] or None
    m = _ONE_OF.search(note)
    if m:
        return [_scalar(x, typ) for x in re.split(r"\s*(?:,|\bor\b|\|)\s*", m.group("v")) if x]
    m = _PIPES.search(note)
    if m and typ in ("string", "integer"):
        return [_scalar(x, typ) for x in re.split(r"\s*\|\s*", m.group("v"))]
    return None


def looks_described(value: Any) -> bool:
    """Is this string a type description ('string (required)', 'integer', '整数')?"""
    return isinstance(value, str) and _TYPE_WORD.match(value) is not None


def describe(text: str, type_hint: str | None = None) -> dict[str, Any]:
    """One description → a schema fragment; `required` (True/False) is kept as a key.

    `type_hint` is the type when the text itself does not start with one (a parameter
    bullet "`page`: Page number, starting from 1 (default: 1)").
    """
    m = _TYPE_WORD.match(text)
    word = m.group("t") if m else (type_hint or "")
    typ = _json_type(word) if word else None
    note = text[m.end():] if m else text
    out = _type_part(word, note, typ)
    _add_rules(out, note, typ)
    _add_bounds(out, note, typ)
    if typ is None and ("minimum" in out or "maximum" in out or "default" in out) and isinstance(
            out.get("default", 0), (int, float)):
        out["type"] = "integer"
    return out


def _type_part(word: str, note: str, typ: str | None) -> dict[str, Any]:
    """The type, an array's item type and a string's format ("email", "ISO 8601")."""
    out: dict[str, Any] = {}
    if typ:
        out["type"] = typ
    if typ == "array":
        of = re.search(r"of\s+(\w+)", word)
        if of:
            out["items"] = {"type": _json_type(re.sub(r"s$", "", of.group(1)))}
    fmt = next((f for p, f in _FORMATS if re.search(p, f"{word} {note}".strip(), re.I)), None)
    if fmt and typ in (None, "string"):
        out["format"] = fmt
    return out


def _add_rules(out: dict[str, Any], note: str, typ: str | None) -> None:
    """Whether the field is required, its allowed values and its default."""
    if _REQ.search(note):
        out["required"] = True
    elif _OPT.search(note):
        out["required"] = False
    enum = _enum(note, typ or "string")
    if enum:
        out["enum"] = enum
    default = _DEFAULT.search(note)
    if default:
        guess = typ or ("number" if re.fullmatch(_NUM, default.group("v")) else "string")
        out["default"] = _scalar(default.group("v"), guess)


def _add_bounds(out: dict[str, Any], note: str, typ: str | None) -> None:
    """Ranges, minimums and maximums; a range stated outright wins over a "min"/"max" word.
    The default and the allowed values are left out first: their numbers are no bounds."""
    lo_key, hi_key = _bound_keys(note, typ)
    clean = _ENUM_LIST.sub("", _DEFAULT.sub("", note))
    rng = _RANGE.search(clean)
    if rng and not re.search(r"\d{4}-\d{2}", clean):
        out[lo_key], out[hi_key] = _number(rng.group("lo")), _number(rng.group("hi"))
    lo, hi = _MIN.search(clean), _MAX.search(clean)
    if lo:
        out.setdefault(lo_key, _number(lo.group("v")))
    if hi:
        out.setdefault(hi_key, _number(hi.group("v")))
    start = re.search(rf"start(?:s|ing)?\s+(?:from|at)\s+(?P<v>{_NUM})|从\s*(?P<w>{_NUM})\s*开始",
                      clean, re.I)
    if start:
        out.setdefault("minimum", _number(start.group("v") or start.group("w")))


def _bound_keys(note: str, typ: str | None) -> tuple[str, str]:
    """What a bound limits: a string's length, an array's size or a number's value (an
    untyped field's bounds are a length only when the note speaks of characters)."""
    if typ is None and not _LENGTH_WORDS.search(note):
        return "minimum", "maximum"
    if typ in (None, "string") and (typ == "string" or _LENGTH_WORDS.search(note)):
        return "minLength", "maxLength"
    if typ == "array":
        return "minItems", "maxItems"
    return "minimum", "maximum"


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def is_described_body(value: Any) -> bool:
    """A JSON body whose values are (mostly) type descriptions rather than example values."""
    if not isinstance(value, (dict, list)):
        return False
    leaves = [x for x in _leaves(value) if x is not None]
    if not leaves:
        return False
    described = sum(1 for x in leaves if looks_described(x))
    return described * 2 > len(leaves)


def _schema(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return _object_schema(value)
    if isinstance(value, list):
        return {"type": "array", "items": _schema(value[0])} if value else {"type": "array"}
    if isinstance(value, str) and looks_described(value):
        frag = describe(value)
        if "|null" in value.replace(" ", "") and "type" in frag:
            frag["type"] = [frag["type"], "null"]
        return frag
    if value is None:
        return {}
    return {"type": _json_type(type(value).__name__), "example": value}


def _object_schema(value: dict[Any, Any]) -> dict[str, Any]:
    """An object's schema; each field's "required"/"optional" note becomes the object's
    list, as JSON schema keeps it there rather than on the field."""
    props: dict[str, Any] = {}
    required: list[str] = []
    optional: list[str] = []
    for key, sub in value.items():
        frag = _schema(sub)
        flag = frag.pop("required", None)
        if flag is True:
            required.append(str(key))
        elif flag is False:
            optional.append(str(key))
        props[str(key)] = frag
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    if optional:
        out["x-optional"] = optional  # said to be optional (only "required" is standard)
    return out


def body_schema(value: Any) -> dict[str, Any]:
    """A described body → a JSON schema (object/array), `required` lists included."""
    return _schema(value)


_KEEP = ("type", "required")


def _merge_param(p: Param, frag: dict[str, Any]) -> None:
    if p.type is None and isinstance(frag.get("type"), str):
        p.type = frag["type"]
    if p.required is None and "required" in frag:
        p.required = frag["required"]
    for key, value in frag.items():
        if key not in _KEEP and key != "items":
            p.constraints.setdefault(key, value)


def apply_described(ep: Endpoint) -> None:
    """Read type-description bodies and parameter notes into schemas and constraints."""
    if is_described_body(ep.request_example):
        body = ep.request_example
        ep.request_schema = ep.request_schema or body_schema(body)
        # descriptions are not values a client may send: a conforming example instead
        ep.request_example = example_of(ep.request_schema)
        if isinstance(body, dict) and ep.method in ("POST", "PUT", "PATCH"):
            _described_params(ep, body)
    if is_described_body(ep.response_example):
        ep.response_schema = ep.response_schema or body_schema(ep.response_example)
        ep.response_example = None  # "integer" is no value a service sends
    for code, value in list(ep.response_examples.items()):
        if is_described_body(value):
            del ep.response_examples[code]
            ep.response_schema = ep.response_schema or body_schema(value)
    for p in ep.params:  # body fields with no body schema: their bullet notes are the rules
        if p.description and (p.location != "body" or not p.constraints):
            _merge_param(p, describe(p.description, None))


def _described_params(ep: Endpoint, body: dict[Any, Any]) -> None:
    """Each described field of a sent body is a body parameter with the rules it states."""
    known = {p.name: p for p in ep.params if p.location == "body"}
    for name, raw in body.items():
        if not re.fullmatch(r"[A-Za-z_][\w.-]*", str(name)):
            continue
        p = known.get(name)
        if p is None:
            p = Param(name=name, location="body")
            ep.params.append(p)
        frag = describe(raw) if looks_described(raw) else (
            {"type": "object"} if isinstance(raw, dict) else {})
        _merge_param(p, frag)


_HINTS = [(r"e-?mail", "user@example.com"), (r"pass(?:word)?|pwd", "Passw0rd!2024"),
          (r"url|link|website", "https://example.com/page"), (r"phone|mobile", "+15551234567"),
          (r"date|_at$|time", "2030-01-01T00:00:00Z")]


def _string(name: str, frag: dict[str, Any]) -> str:
    fmt = frag.get("format")
    value = {"email": "user@example.com", "date-time": "2030-01-01T00:00:00Z",
             "date": "2030-01-01", "uri": "https://example.com/page",
             "uuid": "123e4567-e89b-12d3-a456-426614174000"}.get(str(fmt), "")
    if not value:
        value = next((v for p, v in _HINTS if re.search(p, name, re.I)), "")
    if not value:
        value = "sample_" + re.sub(r"\W+", "_", name) if name else "sample"
    lo, hi = int(frag.get("minLength", 0)), frag.get("maxLength")
    if len(value) < lo:
        value = value + "x" * (lo - len(value))
    if hi is not None and len(value) > int(hi):
        value = value[: max(int(hi), lo)]
    return value


def _value(name: str, frag: dict[str, Any]) -> Any:
    if "default" in frag:
        return frag["default"]
    if frag.get("enum"):
        return frag["enum"][0]
    typ = frag.get("type")
    typ = typ[0] if isinstance(typ, list) else typ
    if typ in ("integer", "number"):
        lo, hi = frag.get("minimum"), frag.get("maximum")
        value = lo if lo is not None else 1
        return min(value, hi) if hi is not None else value
    if typ == "boolean":
        return True
    if typ == "array":
        return []
    if typ == "object":
        return example_of(frag) if frag.get("properties") else {}
    return _string(name, frag)


def example_of(schema: dict[str, Any] | None) -> Any:
    """A body that keeps the schema's stated rules; optional fields are left out."""
    if not schema:
        return None
    if schema.get("type") == "array":
        return [] if not schema.get("items") else [example_of(schema["items"])]
    props = schema.get("properties")
    if not isinstance(props, dict):
        return _value("", schema)
    marked = set(schema.get("required") or [])  # unmarked fields are sent too
    optional = set(schema.get("x-optional") or [])
    out: dict[str, Any] = {}
    for name, frag in props.items():
        if name in marked or name not in optional:
            out[name] = _value(name, frag)
    return out
