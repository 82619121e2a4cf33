"""A document-wide list of error statuses applied to the endpoints that can meet them.

Many documents list their errors once, outside any endpoint:

    Common Error Codes:
    - `404`: Resource not found (e.g., `game_id` does not exist)
    - `409`: Resource conflict (e.g., non-current player making move, position already occupied)
    - `422`: Data validation failed

An endpoint that can hit the condition a status names should answer with that status, so the
status is copied onto the endpoint (never over a status the endpoint documents itself):
- not found / does not exist -> endpoints with a path parameter (the record it names);
- validation / parameter / invalid -> endpoints that take a body or query parameter (a 400
  beside a listed 422 validation status: endpoints with a body only);
- any other 4xx whose examples name the endpoint ("making move" beside `Make Move`,
  `POST /games/{id}/moves`) -> that endpoint only.
Server errors (5xx) and auth statuses (401/403, handled by the auth reader) are left alone.
Pure: text in, endpoints updated in place.
"""

from __future__ import annotations

import re

from pipeline.records import Endpoint

_LABEL = re.compile(r"^\W*(?:common\s+|general\s+|global\s+|standard\s+)?(?:error|status)"
                    r"\s+(?:codes?|statuses)\b|^\W*(?:通用|公共|常见)?错误码", re.I)
_ITEM = re.compile(r"^\s*[-*+]\s*`?(?P<code>[1-5]\d\d)`?\s*(?:\*\*)?\s*[:：\-–—]\s*(?P<text>.+)$")
_BLANK_OR_ITEM = re.compile(r"^\s*(?:[-*+]\s|$)")
_NOT_FOUND = re.compile(r"not\s+found|does\s+not\s+exist|doesn't\s+exist|no\s+such|不存在", re.I)
_VALIDATION = re.compile(r"validat|invalid|parameter|bad\s+request|malformed|参数|校验|验证",
                         re.I)
_EXAMPLES = re.compile(r"\((?:e\.g\.|eg\.|for example|such as|例如|如)[,:：]?\s*([^)]*)\)", re.I)
_WORD = re.compile(r"[a-z]{3,}")
_STOP = {"the", "and", "not", "non", "for", "with", "already", "current", "resource",
         "request", "error", "does", "exist", "making", "make"}


def common_error_codes(markdown_text: str) -> dict[int, str]:
    """The statuses a document-wide error list names, with their text (first list wins)."""
    lines = markdown_text.splitlines()
    for i, line in enumerate(lines):
        if not _LABEL.search(line.strip("#*_ ")):
            continue
        found: dict[int, str] = {}
        for item in lines[i + 1:]:
            match = _ITEM.match(item)
            if match:
                found.setdefault(int(match.group("code")), match.group("text").strip())
            elif not _BLANK_OR_ITEM.match(item) or (found and not item.strip()):
                break
        if found:
            return found
    return {}


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP}


def _named(ep: Endpoint, text: str) -> bool:
    """Do the status's examples name the endpoint (its summary or its path's last word)?"""
    examples = " ".join(_EXAMPLES.findall(text))
    if not examples:
        return False
    static = [s for s in ep.path.strip("/").split("/") if s and "{" not in s]
    own = _words(ep.summary) | (_words(static[-1]) if static else set())
    return bool(own & _words(examples))


def _applies(ep: Endpoint, code: int, text: str, codes: dict[int, str]) -> bool:
    if _NOT_FOUND.search(text):
        return bool(ep.path_params)
    if _VALIDATION.search(text):
        if code == 400 and _VALIDATION.search(codes.get(422, "")):
            # a separate validation status is listed: a query value of the wrong type is a
            # validation failure; 400 stays for a request body that cannot be read
            return any(p.location == "body" for p in ep.params)
        return any(p.location in ("body", "query") for p in ep.params)
    return _named(ep, text)


def apply_common_errors(endpoints: list[Endpoint], markdown_text: str) -> None:
    """Copy each document-wide 4xx onto the endpoints that can meet its condition."""
    codes = {c: t for c, t in common_error_codes(markdown_text).items()
             if 400 <= c < 500 and c not in (401, 403)}
    for ep in endpoints:
        added = {c: t for c, t in codes.items()
                 if c not in ep.status_codes and _applies(ep, c, t, codes)}
        if added:
            ep.status_codes = dict(sorted({**ep.status_codes, **added}.items()))
