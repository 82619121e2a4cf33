"""Parameters written as list items: '`name` (type, required): text'.

An endpoint's section often lists its parameters as bullets instead of a table, under a label
("Query Params:") or none; the meta in parentheses gives the type, whether the parameter is
required and sometimes where it goes ("`choice` (form): string, enum {...}").
"""

from __future__ import annotations

import re

from pipeline.records import Param
from pipeline.spec.markdown import plain
from pipeline.spec.schema import json_type, required_flag
from pipeline.spec.typedesc import looks_described

_META_IN = re.compile(r"^\s*(?P<loc>query|path|header|form|body)\b", re.I)
_BULLET_PARAM = re.compile(
    r"^\s*(?:[-*+]\s+)?`?(?P<name>[A-Za-z_][\w.\[\]-]*)`?\*?\s*\((?P<meta>[^)]{1,60})\)"
    r"\s*[:\-–—]?\s*(?P<desc>.*)$"
)
_BULLET_DASH = re.compile(  # "- `category` — only items of this category"
    r"^\s*(?:[-*+]\s+)?`(?P<name>[A-Za-z_][\w.\[\]-]*)`(?P<meta>)\s*(?:[—–:：]|\s-)\s*(?P<desc>.*)$")
_SENTENCE_END = re.compile(r"[.!?:;。)]\s*$|^$")
_TYPE_AFTER = re.compile(r"\((\w+)\)\s*\.?\s*$")
_OPTIONAL_OR_REQUIRED = re.compile(r"optional|required|可选|选填|必填", re.I)


def bullet_params(text: str, label: str, labelled: bool, loc: str) -> list[Param]:
    """The parameters a text block lists (`label`: the label above it, `labelled`: whether
    that label names parameters, `loc`: where they go unless an item says otherwise)."""
    params: list[Param] = []
    for raw in text.split("\n"):
        m = _BULLET_PARAM.match(plain(raw)) or _BULLET_DASH.match(raw)
        if params and (not m or f"`{m.group('name')}`" not in raw) \
                and not _SENTENCE_END.search(params[-1].description):
            # the item's text goes on: "pass a list of\nid (JSON)." is no parameter
            params[-1].description = f"{params[-1].description} {plain(raw).strip()}"
            continue
        if m and (param := _bullet_param(raw, m, label, labelled, loc)) is not None:
            params.append(param)
    return params


def _bullet_param(raw: str, m: re.Match[str], label: str, labelled: bool,
                  loc: str) -> Param | None:
    """One item as a parameter, or None when it reads as prose that merely looks alike."""
    meta = m.group("meta") or ""
    if f"`{m.group('name')}`" not in raw and json_type(meta) is None \
            and required_flag(meta) is None \
            and not (labelled and re.match(r"\s*default\b", meta, re.I)):
        return None  # "limit (default: 10)" under "Query Params:" is a parameter
    if not labelled and not (meta or looks_described(plain(m.group("desc")))):
        return None  # an unlabelled GET list: only "`name`: integer (...)" lines
    where = _META_IN.match(meta)  # "`choice` (form): string, enum {...}"
    if where:
        loc = {"form": "body"}.get(where.group("loc").lower(), where.group("loc").lower())
        meta = meta[where.end():].strip(" ,;")
    desc = plain(m.group("desc")).strip().lstrip(":：").strip()
    typ, desc = _type_and_desc(meta, desc, type_in_desc=bool(where and not meta))
    flag = required_flag(meta) if meta else None
    if flag is None:
        flag = required_flag(label) if _OPTIONAL_OR_REQUIRED.search(label) else None
    return Param(name=m.group("name"), location=loc,  # type: ignore[arg-type]
                 type=typ, required=flag, description=desc)


def _type_and_desc(meta: str, desc: str, type_in_desc: bool) -> tuple[str | None, str]:
    """The type, from the meta or else the text; meta that is no type ("≥ 0, default 0")
    holds rules, so it joins the description rather than being lost."""
    first = re.split(r"[,;/]", meta)[0].strip()
    if type_in_desc:  # the type follows the colon: "string, enum {...}"
        first = re.split(r"[,;/(\s，；、（]", desc)[0].strip()
    typ = first if first and json_type(first) else None
    if type_in_desc and typ:
        typ = json_type(typ)  # "整数" → "integer"
    if meta and typ is None:  # "(≥ 0, default 0)": rules, not a type
        desc = f"{meta}{'; ' + desc.lstrip('. ') if desc.strip('. ') else ''}"
    if typ is None and (end := _TYPE_AFTER.search(desc)) and json_type(end.group(1)):
        typ = json_type(end.group(1))  # "what has been paid (string)"
    return typ, desc
