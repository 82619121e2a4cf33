"""Details written inline in prose: JSON bodies in backticks, parameter lists, `NNN` codes.

- "Body: `{"ids": ["<id>"]}`", "Response `200`: `{"status": "ok"}`" → (context, JSON) pairs,
  and the same without backticks when the JSON follows a label at a line's start
  ("Payload: {" then the body over the next lines);
- "Query parameters: `folder` (only files in that folder), `limit` (1–200)" and
  "`customer_email` required" → parameters;
- codes written as inline code ("`404 not_found`", "`401`") are status codes whatever the
  wording around them.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

from pipeline.records import Param
from pipeline.spec.markdown import plain
from pipeline.spec.schema import json_type, parse_json, required_flag

_SPAN = re.compile(r"`([^`]+)`")
_JSON_SPAN = re.compile(r"`\s*([{\[][^`]*[}\]])\s*`")
_IDENT = re.compile(r"[A-Za-z_][\w.\[\]-]*")
_CODE_SPAN = re.compile(r"`\s*([1-5]\d{2})\b[^`]*`")
_PARAM_LABEL = re.compile(
    r"(?P<opt>\boptional\s+)?\b(?P<kind>query|path|form|body|request\s+body|payload)"
    r"(?:\s+(?:param(?:eter)?s?|fields?|parts?|arguments?))?"
    r"(?:\s*\((?P<note>[^)]{0,40})\))?(?:\s*,\s*(?P<note2>all\s+\w+))?"
    r"\s*(?:\bcontains\b|[:：]|(?=`))"
    r"|(?P<zh>查询参数|请求参数|路径参数|请求体)\s*[:：]"
    # a bare "Arguments: `title`, `text`" after an endpoint: where they go follows the method
    r"|\b(?P<bare>arguments|parameters|params|fields)\s*[:：](?=\s*`)",
    re.I,
)
_ALL_REQUIRED = re.compile(r"\ball\s+(?:\w+\s+)?(?:are\s+)?required\b|\(all\s+required\)|均为必填",
                           re.I)
_ALL_OPTIONAL = re.compile(r"\ball\s+(?:\w+\s+)?(?:are\s+)?optional\b|均为可选|均为选填", re.I)
_FLAG_AFTER = re.compile(r"`(?P<name>[A-Za-z_][\w-]*)`\s+(?:is\s+)?(?P<flag>required|optional)\b"
                         r"|`(?P<zh>[A-Za-z_][\w-]*)`\s*(?:为|是)?(?P<zflag>必填|选填|可选)")
_MUST_HOLD = re.compile(r"\b(?:body|request|payload|object)\b[^.`]{0,30}\b(?:must|has to|needs? to)"
                        r"\s+(?:contain|include|define|have|provide|hold)\b", re.I)
_KEYS = re.compile(r"\"([A-Za-z_][\w-]*)\"\s*:\s*(.?)")
_OPENER_TYPE = {"[": "array", "{": "object", '"': "string"}


def joined(raw: str) -> str:
    """A paragraph's soft-wrapped lines as one line (emphasis markers dropped)."""
    return re.sub(r"\s*\n\s*", " ", raw.replace("**", "").replace("__", "")).strip()


def backticked_codes(raw: str) -> set[int]:
    """Status codes written as inline code: "`404`", "`409 file_exists`"."""
    return {int(m.group(1)) for m in _CODE_SPAN.finditer(raw)}


def json_spans(raw: str) -> list[tuple[str, Any]]:
    """(plain context before, parsed value or raw string) for each inline JSON span."""
    text = joined(raw)
    out: list[tuple[str, Any]] = []
    prev = 0
    for m in _JSON_SPAN.finditer(text):
        before = plain(text[prev:m.start()])
        context = re.split(r"(?<=[.;。；])\s+|[。；;，]", before)[-1]
        opened = max(context.rfind("("), context.rfind("（"))
        if opened > max(context.rfind(")"), context.rfind("）")):
            context = context[opened + 1:]  # "(the example's `tags` become `[...]`)"
        value = parse_json(m.group(1))
        if value is not None:
            out.append((context, value))
        prev = m.end()
    return out


_BARE_LABEL = re.compile(r"(?:^|\n)[ \t>*-]*"
                         r"(?P<label>[A-Za-z\u4e00-\u9fff][\w ()/\u4e00-\u9fff-]{0,40}?)"
                         r"\s*[:：]\s*(?=[{\[])")


def bare_json_spans(raw: str) -> list[tuple[str, Any]]:
    """(label, parsed value) for JSON written without a fence or backticks right after a
    label at the start of a line ("Payload: {...}", "Response: [...]" spread over the
    following lines). Only whole objects and arrays of objects count: a brace in prose
    ("Path: {id}") is not a body."""
    out: list[tuple[str, Any]] = []
    for m in _BARE_LABEL.finditer(raw):
        start = m.end()
        depth, end = 0, None
        for i, ch in enumerate(raw[start:], start):  # the bracket that closes the first
            depth += ch in "{["
            depth -= ch in "}]"
            if depth == 0:
                end = i + 1
                break
        value = parse_json(raw[start:end]) if end else None
        if isinstance(value, dict) and value or (
                isinstance(value, list) and value and all(isinstance(v, dict) for v in value)):
            out.append((plain(m.group("label")), value))
    return out


def default_required(text: str) -> bool | None:
    """'(all required)' / 'all optional' said of a list of fields."""
    if _ALL_OPTIONAL.search(text):
        return False
    return True if _ALL_REQUIRED.search(text) else None


def keys_of(text: str) -> dict[str, str | None]:
    """The keys of a JSON-like body that does not parse ('{"title": ..., "year": ...}'), each
    with the type its value's opening character shows ('"orders": [<order>, ...]' is an
    array: a string sent there is a wrong body, not a sample)."""
    out: dict[str, str | None] = {}
    for key, opener in _KEYS.findall(text):
        out.setdefault(key, _OPENER_TYPE.get(opener))
    return out


def _tail_names(tail: str) -> list[tuple[str, str]]:
    """Top-level `name` (meta) pairs in the text after a parameter label."""
    out: list[tuple[str, str]] = []
    depth = 0
    i = 0
    while i < len(tail):
        ch = tail[i]
        if ch == "`":
            pair, i = _name_at(tail, i, depth)
            if i < 0:
                break
            if pair is not None:
                out.append(pair)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and ch in ".。;；:：" and (i + 1 == len(tail) or tail[i + 1] in " \t"):
            break
        i += 1
    return out


def _name_at(tail: str, i: int, depth: int) -> tuple[tuple[str, str] | None, int]:
    """The `name` (meta) opening with the backtick at `i` (None when the span is no
    top-level name) and where reading goes on: -1 when the list ends there. Reading goes on
    inside the meta, so its parentheses still count towards the depth."""
    end = tail.find("`", i + 1)
    if end < 0:
        return None, -1
    name = tail[i + 1:end].strip()
    if not depth and name[:1] in "{[":
        return None, -1  # a JSON body: what follows describes it, not more parameters
    if depth or not _IDENT.fullmatch(name):
        return None, end + 1
    return (name, _parenthesised(tail, end + 1)), end + 1


def _parenthesised(tail: str, pos: int) -> str:
    """The text in the balanced parentheses right after `pos` ('' when none follow)."""
    m = re.match(r"\s*\(", tail[pos:])
    if not m:
        return ""
    start = pos + m.end()
    level, j = 1, start
    while j < len(tail) and level:
        level += {"(": 1, ")": -1}.get(tail[j], 0)
        j += 1
    return tail[start:j - 1]


def _query_string(tail: str) -> list[tuple[str, str]]:
    """`?name=value&other=value` written right after a parameter label: names and examples."""
    m = re.match(r"\s*`?\?([A-Za-z_][\w.-]*=[^\s`]+)", tail)
    return parse_qsl(m.group(1)) if m else []


def _meta_flag(meta: str) -> bool | None:
    if re.search(r"\boptional\b|可选|选填|非必", meta, re.I):
        return False
    if re.search(r"\brequired\b|\bmandatory\b|必填|必须", meta, re.I):
        return True
    return None


def prose_params(raw: str, method: str) -> list[Param]:
    """Parameters listed in a sentence after a label such as "Query parameters:"."""
    text = joined(raw)
    params: list[Param] = []
    body_method = method in ("POST", "PUT", "PATCH")
    for label in _PARAM_LABEL.finditer(text):
        kind = (label.group("kind") or label.group("zh") or "").lower()
        loc = ("query" if kind in ("query", "查询参数") else "path" if kind in ("path", "路径参数")
               else "body" if body_method else "query")
        note = " ".join(label.group(g) or "" for g in ("opt", "note", "note2"))
        default = None
        if re.search(r"optional|可选|选填", note, re.I) or _ALL_OPTIONAL.search(text):
            default = False
        elif re.search(r"required|必填", note, re.I) or _ALL_REQUIRED.search(text):
            default = True
        tail = text[label.end():]
        for name, value in _query_string(tail):  # "Optional Query Param: ?timezone=Asia/Kolkata"
            params.append(Param(name=name, location="query",
                                required=False if default is None else default,
                                constraints={"examples": [value]}))
        for name, meta in _tail_names(tail):
            flag = _meta_flag(meta)
            typ = re.split(r"[,;]", meta)[0].strip() if meta else ""
            params.append(Param(name=name, location=loc,  # type: ignore[arg-type]
                                type=typ if json_type(typ) and len(typ.split()) <= 3 else None,
                                required=default if flag is None else flag,
                                description=plain(meta)))
    if body_method:
        for m in _FLAG_AFTER.finditer(text):
            name = m.group("name") or m.group("zh")
            flag = m.group("flag") or m.group("zflag")
            params.append(Param(name=name, location="body", required=required_flag(flag)))
        for sentence in re.split(r"(?<=[.!?])\s+|<br\s*/?>", text):
            if _MUST_HOLD.search(sentence):  # "The body must contain ... `a` and `b` fields"
                params += [Param(name=n, location="body", required=True)
                           for n in re.findall(r"`([A-Za-z_][\w-]*)`", sentence)]
    return params


def spans(raw: str) -> list[str]:
    return _SPAN.findall(raw)
