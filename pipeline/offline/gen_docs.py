"""What the document says beyond shapes: error codes per status, filters, search, sorting.

Pure functions over spec records. They let the templates assert *values* (the documented error
code, the filtered records, the sort order) instead of only status codes and key sets; every
answer is None when the document does not say enough to be sure.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.records import Endpoint, Param

_TOKEN = r"(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"
_LEADING = re.compile(rf"^[\s（(`]*({_TOKEN}(?:[\s`]*(?:,|/|\bor\b|\band\b)[\s`]*{_TOKEN})*)"
                      rf"(?![\w-])")
_INNER = re.compile(rf"[（(]\s*`?({_TOKEN})`?\s*[)）]")
_ANY = re.compile(_TOKEN)
_CODE_VALUE = re.compile(rf"^{_TOKEN}$|^[a-z]+$")
CASE_INSENSITIVE = re.compile(r"case[- ]insensitive|不区分大小写", re.I)
SUBSTRING = re.compile(r"substring|contains|partial|包含|模糊", re.I)
NEWEST_FIRST = re.compile(r"newest first|most recent first|latest first", re.I)
OLDEST_FIRST = re.compile(r"oldest first|ordered by (?:`?id`?|creation)(?: ascending)?|"
                          r"in (?:creation|registration) order", re.I)


def error_tokens(ep: Endpoint | None, status: int) -> tuple[str, ...]:
    """The machine-readable error codes the document gives for `status` on `ep` (may be ())."""
    if ep is None or status not in ep.status_codes:
        return ()
    text = str(ep.status_codes[status] or "")
    lead = _LEADING.match(text)
    if lead:
        return tuple(dict.fromkeys(_ANY.findall(lead.group(1))))
    inner = _INNER.search(text)
    return (inner.group(1),) if inner else ()


def _code_path(fmt: Any) -> tuple[str, ...] | None:
    """Where the documented error format keeps its code: ("error", "code"), ("code",)..."""
    if not isinstance(fmt, dict):
        return None
    for key in ("code", "error_code", "errorCode"):
        if isinstance(fmt.get(key), str) and _CODE_VALUE.match(fmt[key]):
            return (key,)
    inner = fmt.get("error")
    if isinstance(inner, dict):
        found = _code_path(inner)
        return ("error", *found) if found else None
    if isinstance(inner, str) and re.fullmatch(_TOKEN, inner):
        return ("error",)
    return None


def error_value_asserts(var: str, fmt: Any, status: int, tokens: tuple[str, ...]) -> list[str]:
    """Assertions on the error body's values: its code (when documented) and echoed status."""
    lines: list[str] = []
    if not isinstance(fmt, dict):
        return lines
    path = _code_path(fmt)
    if path and tokens:
        where = "".join(f'["{k}"]' for k in path)
        if len(tokens) == 1:
            lines.append(f'assert {var}.json(){where} == "{tokens[0]}", {var}.text')
        else:
            options = ", ".join(f'"{t}"' for t in tokens)
            lines.append(f"assert {var}.json(){where} in ({options}), {var}.text")
    if isinstance(fmt.get("status"), int):
        lines.append(f'assert {var}.json()["status"] == {status}')
    return lines


def query_params(ep: Endpoint) -> list[Param]:
    return [p for p in ep.params if p.location == "query"]


def filter_field(param: Param, fields: dict[str, Any], payload: dict[str, Any]) -> str | None:
    """The record field a query parameter filters on (`tag` → `tags`), if the test can set it
    (a document that shows no record at all: a field the test sends)."""
    for name in (param.name, param.name + "s", param.name + "es"):
        if name in payload and (name in fields or not fields):
            return name
    return None


ENUMERATED = re.compile(r"\bone of\b|\w\s*/\s*\w|\||\w+,\s*\w+,?\s+or\s+\w|\btrue\b|"
                        r"\bfalse\b|之一", re.I)


def is_text_filter(value: Any, param: Param | None = None) -> bool:
    """A payload value a unique marker can replace (free text, or a list of free texts)."""
    if param is not None and ENUMERATED.search(param.description or param.type or ""):
        return False  # only the listed values are allowed
    if isinstance(value, str):
        return bool(value)
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def named_fields(param: Param, payload: dict[str, Any]) -> list[str]:
    """The payload's text fields a search parameter's description names ("Filter by name,
    description, or URL")."""
    text = param.description.lower()
    return [k for k, v in payload.items() if isinstance(v, str) and v
            and re.search(rf"\b{re.escape(k.lower())}\b", text)]


def search_field(param: Param, payload: dict[str, Any]) -> str | None:
    """The payload field a free-text search matches: named in its description, else title."""
    text = param.description.lower()
    named = [k for k, v in payload.items() if isinstance(v, str) and v and k.lower() in text]
    for key in named + ["title", "name"]:
        if isinstance(payload.get(key), str) and payload[key]:
            return key
    return None


def default_order(ep: Endpoint) -> str | None:
    """"newest" or "oldest" when the document states the list's default order by creation."""
    text = " ".join([ep.summary, *map(str, ep.status_codes.values())])
    if NEWEST_FIRST.search(text):
        return "newest"
    if OLDEST_FIRST.search(text):
        return "oldest"
    return None


SORT_PARAMS = ("sort", "sort_by", "order_by", "sortBy", "orderBy")
DIRECTION_PARAMS = ("order", "direction", "dir", "sort_order", "sortOrder")
_DESC_PREFIX = re.compile(r"prefix(?:ed)? (?:with |by )?`?-`?|`-\w+`|leading `?-", re.I)


def sort_params(ep: Endpoint, fields: dict[str, Any]) -> tuple[str, list[str], str] | None:
    """(sort parameter, sortable fields it names, how to reverse: a direction parameter's
    name, or "-" for a minus prefix) when the document describes sorting well enough."""
    params = {p.name: p for p in query_params(ep)}
    sort = next((params[n] for n in SORT_PARAMS if n in params), None)
    if sort is None:
        return None
    named = [f for f in fields if re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])",
                                            sort.description)]
    direction = next((n for n in DIRECTION_PARAMS if n in params and n != sort.name
                      and re.search(r"\basc\b", params[n].description, re.I)), None)
    if direction is None and _DESC_PREFIX.search(sort.description):
        direction = "-"
    if not named or direction is None:
        return None
    return sort.name, named, direction


def allowed_values(param: Param) -> list[str]:
    """The values an enumerated parameter lists (`low / normal / high`, `one of a, b, c`)."""
    text = re.sub(r"(?i)^.*?\bone of\b\s*:?", "", param.description)
    text = re.split(r"[;.]|，|；", re.sub(r"\([^)]*\)|（[^）]*）", "", text))[0]
    words = [w.strip("` ") for w in re.split(r"\s*(?:/|\||,|\bor\b)\s*", text)]
    words = [w for w in words if re.fullmatch(r"[A-Za-z][\w-]*", w)]
    return words if len(words) >= 2 and len(words) == len(set(words)) else []
