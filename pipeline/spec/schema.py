"""JSON bodies, field tables → parameters and JSON schemas, auth markers (pure helpers)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pipeline.records import Param
from pipeline.spec.markdown import plain

_NAME_H = re.compile(r"(?:^|\s)(?:field|name|param(?:eter)?|key|property|attribute|argument)s?\b"
                     r"|^(?:查询|请求|路径)?(?:参数|参数名|参数名称|字段|字段名|名称|属性)"
                     r"|^part$", re.I)
_TYPE_H = re.compile(r"type|类型", re.I)
_REQ_H = re.compile(r"required|mandatory|optional|必填|必须|必需|是否必|必选", re.I)
_DESC_H = re.compile(r"desc|meaning|note|comment|detail|rules?\b|constraints?"
                     r"|说明|描述|备注|含义|规则|约束", re.I)
_DESC_FLAG = re.compile(r"^\W*(?P<flag>required|mandatory|optional|必填|必须|选填|可选)", re.I)
_IN_H = re.compile(r"^(?:in|location|位置|参数位置|类别)$", re.I)
_DEFAULT_H = re.compile(r"^(?:default(?:\s+value)?|默认值?)$", re.I)
_TYPES = [
    (r"int|long|integer|整|short", "integer"),
    (r"float|double|number|decimal|numeric|数字|浮点|小数", "number"),
    (r"bool|布尔", "boolean"),
    (r"array|list|\[\]|数组|列表", "array"),
    (r"object|dict|map|json|对象", "object"),
    (r"str|text|date|time|uuid|email|url|字符|文本|日期", "string"),
]


def json_type(raw: str | None) -> str | None:
    """'int' / 'String' / '整数' → a JSON schema type (None when unknown)."""
    if not raw:
        return None
    for pattern, name in _TYPES:
        if re.search(pattern, raw, re.I):
            return name
    return None


def required_flag(text: str) -> bool | None:
    low = text.strip().lower()
    if re.search(r"optional|\bno\b|\bfalse\b|^n$|否|可选|选填|非必", low):
        return False
    if re.search(r"required|mandatory|\byes\b|\btrue\b|^y$|是|必填|必须|必需|✓|✔|√", low):
        return True
    return None


_COMMENT = re.compile(r"(?<![:\"'\w])\s*(?://|#).*$", re.M)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_BAD_ESCAPE = re.compile(r"\\(?![\"\\/bfnrtu])")
_MISSING_COMMA = re.compile(r'((?:"|\d|true|false|null|[}\]]))[ \t]*(\n\s*")')


def parse_json(text: str) -> Any:
    """A JSON body as written in a document; tolerates comments and trailing commas."""
    s = text.strip()
    if not s or s[0] not in "{[":
        return None
    try:
        return json.loads(s)
    except ValueError:
        pass
    cleaned = _TRAILING_COMMA.sub(r"\1", _COMMENT.sub("", s))
    cleaned = re.sub(r"^\s*\.\.\.\s*,?\s*$", "", cleaned, flags=re.M)
    cleaned = re.sub(r",\s*(?:\.\.\.|…)(?=\s*[\]}])", "", cleaned)
    cleaned = _TRAILING_COMMA.sub(r"\1", cleaned)
    try:
        return json.loads(cleaned)
    except ValueError:
        pass
    try:  # a regex written as "^\$[a-z]+$": a backslash JSON has no escape for stays literal
        return json.loads(_BAD_ESCAPE.sub(r"\\\\", cleaned))
    except ValueError:
        pass
    try:  # a comma left out at a line's end (`"success": true` / `"created_user_id": 4`)
        return json.loads(_MISSING_COMMA.sub(r"\1,\2", cleaned))
    except ValueError:
        return s


def _col(header: list[str], pattern: re.Pattern[str]) -> int | None:
    return next((i for i, h in enumerate(header) if pattern.search(h)), None)


def _default_cell(cell: str) -> int | float | bool | None:
    """A "Default" column's number or yes/no (`20`, `0`, `false`); None for a dash or text."""
    value = cell.strip("` ")
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    if re.fullmatch(r"-?\d+\.\d+", value):
        return float(value)
    return {"true": True, "false": False}.get(value.lower())


@dataclass(frozen=True)
class _Columns:
    """Where a field table keeps each fact (None: it has no such column)."""

    name: int
    type: int | None
    required: int | None
    desc: int | None
    where: int | None
    default: int | None

    @classmethod
    def of(cls, header: list[str]) -> _Columns | None:
        """None unless the table names its fields and says something about them."""
        name_c = _col(header, _NAME_H)
        type_c, req_c, desc_c, in_c, default_c = (
            _col(header, p) for p in (_TYPE_H, _REQ_H, _DESC_H, _IN_H, _DEFAULT_H))
        if name_c is None or (type_c is None and desc_c is None and req_c is None):
            return None
        return cls(name_c, type_c, req_c, desc_c, in_c, default_c)


def field_table(rows: tuple[tuple[str, ...], ...]) -> tuple[list[Param], dict[str, Any]] | None:
    """A parameter/field table → params and an object schema; None for other tables."""
    if len(rows) < 2:
        return None
    header = [plain(c).strip() for c in rows[0]]
    cols = _Columns.of(header)
    if cols is None:
        return None
    params: list[Param] = []
    props: dict[str, Any] = {}
    required: list[str] = []
    for raw in rows[1:]:
        param = _row_param([plain(c).strip() for c in raw] + [""] * len(header), cols)
        if param is None:
            continue
        params.append(param)
        if "." in param.name or "[" in param.name:
            continue  # a nested field ("user.name", "tags[]") is no property of the object
        props[param.name] = _property(param)
        if param.required:
            required.append(param.name)
    if not params:
        return None
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    return params, schema


def _row_param(cells: list[str], cols: _Columns) -> Param | None:
    """One row as a parameter; None when its name cell holds no field name."""
    name = cells[cols.name].strip("*` ")
    if not re.fullmatch(r"[A-Za-z_][\w.\[\]-]*", name):
        return None
    typ = cells[cols.type] if cols.type is not None else None
    desc = cells[cols.desc] if cols.desc is not None else ""
    loc = cells[cols.where].lower() if cols.where is not None else ""
    location = next((x for x in ("path", "query", "header", "body") if x in loc), "query")
    default = _default_cell(cells[cols.default]) if cols.default is not None else None
    return Param(name=name, location=location, type=typ or None,  # type: ignore[arg-type]
                 required=_row_required(cells, cols, desc), description=desc,
                 constraints={} if default is None else {"default": default})


def _row_required(cells: list[str], cols: _Columns, desc: str) -> bool | None:
    """The required column, else a starred name ("title*"), else a description that opens
    with the word ("Required. The title")."""
    req = required_flag(cells[cols.required]) if cols.required is not None else None
    if req is None and cells[cols.name].rstrip().endswith("*"):
        req = True
    flag = _DESC_FLAG.match(desc) if cols.required is None else None
    if req is None and flag:
        req = required_flag(flag.group("flag"))
    return req


def _property(param: Param) -> dict[str, Any]:
    prop: dict[str, Any] = {}
    if json_type(param.type):
        prop["type"] = json_type(param.type)
    if param.description:
        prop["description"] = param.description
    return prop


_AUTH_NO = re.compile(
    r"auth(?:entication|orization)?\s*(?:required|needed)?\s*[:：]\s*(?:no|none|false|not\s+required"
    r"|public|n/a|optional|not\s+needed)\b|\bno\s+auth(?:entication)?\b|\bpublic\s+endpoint\b|\bwithout\s+auth"
    r"|\bdoes\s+not\s+require\s+(?:auth|a\s+token)|无需(?:认证|登录|鉴权|授权|token|令牌)"
    r"|不需要(?:认证|登录|鉴权|授权|token|令牌)|(?:是否)?需要(?:认证|登录|鉴权|授权)\s*[:：]\s*否"
    r"|(?:认证|鉴权|授权|身份验证)\s*[:：]\s*(?:可选|否|无|不需要|非必需|公开)",
    re.I,
)
_AUTH_YES = re.compile(
    r"auth(?:entication|ori[sz]ation)?\s*(?:required|needed)?\s*[:：]\s*(?:yes|true|required|bearer"
    r"|token|jwt|api[\s-]?key)\b|\brequires?\s+(?:an?\s+)?(?:valid\s+)?(?:auth\w*|login|token"
    r"|bearer|jwt|api[\s-]?key|access\s+token)|\bauth(?:entication)?\s+required\b|🔒"
    r"|\bprotected\b|需要(?:认证|登录|鉴权|授权|token|令牌|Token)"
    r"|\b(?:token|auth\w*|login|api[\s-]?key)\s+(?:is\s+)?required\b"
    r"|(?:是否)?需要(?:认证|登录|鉴权|授权)\s*[:：]\s*是"
    r"|(?:认证|鉴权|授权|身份验证)\s*[:：]\s*(?:bearer|token|jwt|必填|必需|必须|需要|是)"
    r"|\bheaders?\b[^.。]{0,20}\bauthorization\s*:\s*(?:bearer|token)\b",
    re.I,
)


def auth_marker(text: str) -> bool | None:
    """True/False when a line says an endpoint needs (or not) authentication."""
    if _AUTH_NO.search(text):
        return False
    if _AUTH_YES.search(text):
        return True
    return None
