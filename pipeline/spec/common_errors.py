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
- a not-found whose examples name a page ("a page of questions that don't exist") -> also the
  lists that take a page parameter;
- any other 4xx whose examples name the endpoint ("making move" beside `Make Move`,
  `POST /games/{id}/moves`) -> that endpoint only; where the examples name what is done
  ("attempting to update ..."), only the endpoints whose method does it.
The list is a bullet list under a label ("Common Error Codes:"), or a heading per status
under an error heading (`### Error Handling` / `#### 404: Not Found` / its paragraph), the way
many course-built services document their errors.
Server errors (5xx), auth statuses (401/403, handled by the auth reader) and 405 (a method the
path does not take, never a condition of a documented endpoint) are left alone.
Pure: text in, endpoints updated in place.
"""

from __future__ import annotations

import re

from pipeline.records import Endpoint

_LABEL = re.compile(r"^\W*(?:common\s+|general\s+|global\s+|standard\s+)?(?:error|status)"
                    r"\s+(?:codes?|statuses)\b|^\W*(?:通用|公共|常见)?错误码"
                    r"|^\W*(?:error\s+handling|errors|error\s+(?:types|responses))\W*$"
                    r"|\berror\s+types\b[^.]*:\s*$", re.I)
_HEADING = re.compile(r"^(#{1,6})\s")
_HEAD_ITEM = re.compile(r"^(?P<level>#{1,6})\s*`?(?P<code>[1-5]\d\d)`?\s*(?:[:：\-–—]\s*)?"
                        r"(?P<text>.*)$")
_ITEM = re.compile(r"^\s*[-*+]\s*`?(?P<code>[1-5]\d\d)`?\s*(?:\*\*)?\s*[:：\-–—]\s*(?P<text>.+)$")
_BLANK_OR_ITEM = re.compile(r"^\s*(?:[-*+]\s|$)")
_NOT_FOUND = re.compile(r"not\s+found|does\s+not\s+exist|doesn't\s+exist|no\s+such|不存在", re.I)
_VALIDATION = re.compile(r"validat|invalid|parameter|bad\s+request|malformed|参数|校验|验证",
                         re.I)
_EXAMPLES = re.compile(r"\((?:e\.g\.|eg\.|i\.e\.|for example|such as|例如|如)[,:：]?\s*([^)]*)\)",
                       re.I)
_PAGE = re.compile(r"\bpages?\b", re.I)
_DOES = {"GET": re.compile(r"\b(?:view|get|read|fetch|retriev|list|show)", re.I),
         "POST": re.compile(r"\b(?:creat|add|post|submit)", re.I),
         "PUT": re.compile(r"\b(?:updat|edit|modif|chang|replac)", re.I),
         "DELETE": re.compile(r"\b(?:delet|remov)(?!ed\b)", re.I)}
_DOES["PATCH"] = _DOES["PUT"]
_WORD = re.compile(r"[a-z]{3,}")
_STOP = {"the", "and", "not", "non", "for", "with", "already", "current", "resource",
         "request", "error", "does", "exist", "making", "make"}


def common_error_codes(markdown_text: str) -> dict[int, str]:
    """The statuses a document-wide error list names, with their text (first list wins)."""
    lines = markdown_text.splitlines()
    for i, line in enumerate(lines):
        if not _LABEL.search(line.strip("#*_ ")):
            continue
        found = _bullets(lines[i + 1:]) or _headings(lines[i + 1:], _HEADING.match(line))
        if found:
            return found
    return {}


def _bullets(lines: list[str]) -> dict[int, str]:
    found: dict[int, str] = {}
    for item in lines:
        match = _ITEM.match(item)
        if match:
            found.setdefault(int(match.group("code")), match.group("text").strip())
        elif not _BLANK_OR_ITEM.match(item) or (found and not item.strip()):
            break
    return found


def _headings(lines: list[str], label: re.Match[str] | None) -> dict[int, str]:
    """`#### 404: Not Found` and the paragraph under it, for each status under an error
    heading (until a heading no deeper than the label's)."""
    if label is None:
        return {}
    found: dict[int, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        item = _HEAD_ITEM.match(line)
        heading = _HEADING.match(line)
        if item and len(item.group("level")) > len(label.group(1)):
            current = found.setdefault(int(item.group("code")), [item.group("text").strip()])
        elif heading and len(heading.group(1)) <= len(label.group(1)):
            break
        elif heading:
            current = None
        elif current is not None and line.strip() and not line.startswith(("```", "    ")):
            current.append(line.strip())
    return {code: " ".join(t for t in text if t) for code, text in found.items()}


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


def _does(ep: Endpoint, text: str) -> bool:
    """Do the status's examples fit what the endpoint's method does (no action named: yes)?"""
    examples = " ".join(_EXAMPLES.findall(text))
    named = [m for m, verb in _DOES.items() if verb.search(examples)]
    return not named or ep.method in named


def _applies(ep: Endpoint, code: int, text: str, codes: dict[int, str]) -> bool:
    if _NOT_FOUND.search(text):
        paged = ep.method == "GET" and _PAGE.search(" ".join(_EXAMPLES.findall(text))) \
            and any(p.location == "query" and _PAGE.search(p.name) for p in ep.params)
        return bool(paged) or bool(ep.path_params)
    if _VALIDATION.search(text):
        if code == 400 and _VALIDATION.search(codes.get(422, "")):
            # a separate validation status is listed: a query value of the wrong type is a
            # validation failure; 400 stays for a request body that cannot be read
            return any(p.location == "body" for p in ep.params)
        return any(p.location in ("body", "query") for p in ep.params)
    return _named(ep, text) and _does(ep, text)


def apply_common_errors(endpoints: list[Endpoint], markdown_text: str) -> None:
    """Copy each document-wide 4xx onto the endpoints that can meet its condition."""
    codes = {c: t for c, t in common_error_codes(markdown_text).items()
             if 400 <= c < 500 and c not in (401, 403, 405)}
    for ep in endpoints:
        added = {c: t for c, t in codes.items()
                 if c not in ep.status_codes and _applies(ep, c, t, codes)}
        if added:
            ep.status_codes = dict(sorted({**ep.status_codes, **added}.items()))
