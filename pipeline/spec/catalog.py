"""Hypermedia APIs: a document that names no paths, only a root URL and the links it hands out.

"To obtain the URLs of these resources clients must send a request to the root URL of the API"
beside an example answer whose values are placeholders (`"students_url":
"[student-collection-url]"`): the collections are the link keys, each record's structure is a
block with a `self_url`, and what a URL accepts is said in prose ("Resource collection URLs
accept `GET` and `POST` requests", "The student resource supports `GET`, `POST`, `PUT` and
`DELETE`", "A `POST` request to this URL including `class_url` in the body"). The endpoints
read here are named by the link that addresses them: `GET {students_url}`, `PUT
{student.self_url}`, `POST {student.registrations_url}`; tests find the URLs at run time.

Read only when the document names no path at all, so a document with paths reads as before.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pipeline.records import Endpoint, LinkCatalog, Param
from pipeline.spec.markdown import Block
from pipeline.spec.paths import singular

_LINK_KEY = re.compile(r"^(\w+)_url$")
_PLACEHOLDER = re.compile(r'(:\s*)\[([^\[\]\n"]*)\](\s*[,}\n])')
_KEY = re.compile(r'"(\w+)"\s*:')
_ROOT = re.compile(r"\broot\b[^.]*\b(?:URL|endpoint|resource)\b", re.I)
_METHOD = re.compile(r"`(GET|POST|PUT|PATCH|DELETE)`")
_QUERY_STRING = re.compile(r"\bquery\s+string\b", re.I)
_QUERY_EXAMPLE = re.compile(r"`(\w+)=([^`]+)`")
_BODY_KEYS = re.compile(r"(?:including|with|require[sd]?)\s+(?:the\s+)?`(\w+)`", re.I)
_REQUIRE = re.compile(r"\bonly require[sd]?\b|\brequire[sd]?\b", re.I)
_TOKEN_LOCATION = re.compile(r"`?Location`?\s+header[^.]*\btoken\b", re.I)
_SELF = "self_url"
_ETAGS = re.compile(r"`?ETag`?\s+header[^.]*`?If-None-Match`?", re.I)
_IGNORED = re.compile(r"\bInvalid\s+(\w+?)(?:s|\s+specifications?)?\s+are\s+(?:silently\s+)?"
                      r"ignored", re.I)


def _loose_json(text: str) -> Any:
    """A JSON example whose values may be bare placeholders (`"name": [student name]`)."""
    quoted = _PLACEHOLDER.sub(lambda m: f'{m.group(1)}"[{m.group(2)}]"{m.group(3)}', text)
    try:
        return json.loads(quoted)
    except ValueError:
        return None


def _links_at(answer: Any, path: list[str]) -> tuple[list[str], dict[str, str]] | None:
    """The object of `*_url` links inside a root answer, and the keys down to it."""
    if not isinstance(answer, dict):
        return None
    links = {k: v for k, v in answer.items() if _LINK_KEY.match(k) and isinstance(v, str)}
    if links and len(links) == len(answer):
        return path, links
    for key, value in answer.items():
        found = _links_at(value, [*path, key])
        if found is not None:
            return found
    return None


def _root_catalog(blocks: list[Block]) -> tuple[int, Any, list[str], dict[str, str]] | None:
    for i, block in enumerate(blocks):
        if block.kind != "code":
            continue
        said = " ".join(b.text for b in blocks[max(0, i - 2):i] if b.kind == "text")
        answer = _loose_json(block.text)
        found = _links_at(answer, []) if _ROOT.search(said) else None
        if found is not None:
            return i, answer, *found
    return None


def _sentences(blocks: list[Block], start: int, end: int) -> list[str]:
    text = " ".join(b.text for b in blocks[start:end] if b.kind == "text")
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s]


def _section_end(blocks: list[Block], start: int) -> int:
    level = blocks[start].level
    for j in range(start + 1, len(blocks)):
        if blocks[j].kind == "heading" and blocks[j].level <= level:
            return j
    return len(blocks)


def _record_sections(blocks: list[Block], nouns: set[str]) -> dict[str, tuple[int, int]]:
    """Each record's section: a heading naming the noun whose first code block has a
    `self_url`."""
    out: dict[str, tuple[int, int]] = {}
    for i, block in enumerate(blocks):
        words = re.findall(r"[a-z]+", block.text.lower()) if block.kind == "heading" else []
        noun = next((n for n in nouns if n in words), None)
        if noun is None or noun in out:
            continue
        end = _section_end(blocks, i)
        code = next((b for b in blocks[i + 1:end] if b.kind == "code"), None)
        if code is not None and f'"{_SELF}"' in code.text:
            out[noun] = (i, end)
    return out


def _query_params(blocks: list[Block], start: int, end: int) -> list[Param]:
    """The query arguments the collections' section names, with its examples of each."""
    names: list[str] = []
    for sentence in _sentences(blocks, start, end):
        if _QUERY_STRING.search(sentence):
            names += re.findall(r"`(\w+)(?:=[^`]*)?`", sentence)
    names = list(dict.fromkeys(names))
    examples: dict[str, list[str]] = {}
    for block in blocks[start:end]:
        for m in _QUERY_EXAMPLE.finditer(block.text):
            examples.setdefault(m.group(1), []).append(m.group(2))
    return [Param(name=n, location="query",
                  constraints={"examples": examples[n]} if n in examples else {})
            for n in names]


def _page_meta(blocks: list[Block]) -> tuple[str, list[str]] | None:
    """The key a collection answer keeps its paging facts under, and those facts' keys
    (`"meta": {"page": 1, "pages": 4, "next_url": ...}`)."""
    for block in blocks:
        m = re.match(r'\s*\{\s*"(\w+)"\s*:\s*\{([^{}]*)\}', block.text) \
            if block.kind == "code" else None
        keys = _KEY.findall(m.group(2)) if m else []
        if m and "page" in keys:
            return m.group(1), keys
    return None


def _methods(sentence: str) -> list[str]:
    return list(dict.fromkeys(_METHOD.findall(sentence)))


def _body_schema(keys: list[str], required: list[str]) -> dict[str, Any] | None:
    if not keys:
        return None
    schema: dict[str, Any] = {"type": "object",
                              "properties": {k: {"type": "string"} for k in keys}}
    if required:
        schema["required"] = required
    return schema


class _Reader:
    """The endpoints of one catalog, in document order."""

    def __init__(self, blocks: list[Block], links: dict[str, str]):
        self.blocks = blocks
        self.nouns = {singular(_LINK_KEY.match(k).group(1)): k  # type: ignore[union-attr]
                      for k in links}
        self.endpoints: list[Endpoint] = []

    def add(self, method: str, path: str, summary: str, line: int, **more: Any) -> None:
        """A new endpoint, or what a later section adds to one already read (a create's body
        is said where its record is)."""
        known = next((e for e in self.endpoints if e.key == (method, path)), None)
        if known is None:
            self.endpoints.append(Endpoint(method=method, path=path, summary=summary,
                                           line=line, **more))
            return
        for name, value in more.items():
            if value and not getattr(known, name):
                setattr(known, name, value)

    def collections(self, start: int, end: int) -> None:
        said = _sentences(self.blocks, start, end)
        methods = next((_methods(s) for s in said if "collection" in s.lower()
                        and _methods(s)), ["GET"])
        params = _query_params(self.blocks, start, end)
        line, meta = self.blocks[start].line, _page_meta(self.blocks[start:end])
        for noun, key in self.nouns.items():
            items = _LINK_KEY.match(key).group(1)  # type: ignore[union-attr]
            shape: dict[str, Any] = {items: {"type": "array"}}
            if meta is not None:
                shape[meta[0]] = {"type": "object",
                                  "properties": {k: {} for k in meta[1]}}
            for method in methods:
                self.add(method, f"{{{key}}}", f"{method} the {noun} collection", line,
                         params=params if method == "GET" else [],
                         response_schema={"type": "object", "properties": shape}
                         if method == "GET" else None)

    def record(self, noun: str, start: int, end: int) -> None:
        code = next(b for b in self.blocks[start + 1:end] if b.kind == "code")
        keys = _KEY.findall(code.text)
        said = _sentences(self.blocks, start, end)
        methods = next((_methods(s) for s in said if "support" in s.lower() and _methods(s)),
                       ["GET"])
        required = [k for s in said if _REQUIRE.search(s) for k in _BODY_KEYS.findall(s)
                    if k in keys]
        refs = [k for k in keys if (m := _LINK_KEY.match(k)) and m.group(1) in self.nouns]
        subs = [k for k in keys if k != _SELF and k not in refs and _LINK_KEY.match(k)]
        # what a create sends: the fields it requires, else the links to other records and
        # the plain fields (not the stamps the service sets)
        body = required or [k for k in keys if k in refs or not _LINK_KEY.match(k)
                            and not re.search(r"time|date|created|updated", k)]
        schema = {"type": "object", "properties": {k: {"type": "string"} for k in keys}}
        collection, line = self.nouns[noun], self.blocks[start].line
        item = f"{{{noun}.{_SELF}}}"
        for method in methods:
            if method == "POST":
                self.add("POST", f"{{{collection}}}", f"create a {noun}", line,
                         request_schema=_body_schema(body, required))
            else:
                self.add(method, item, f"{method} one {noun}", line, response_schema=schema
                         if method == "GET" else None,
                         request_schema=_body_schema(body, required)
                         if method in ("PUT", "PATCH") else None)
        for sub in subs:
            self._sub_collection(noun, sub, said, line)

    def _sub_collection(self, noun: str, sub: str, said: list[str], line: int) -> None:
        """`A GET request to the URL given in the registrations_url field ...`; a POST to
        "this URL including `class_url` in the body"."""
        at = next((i for i, s in enumerate(said) if f"`{sub}`" in s), None)
        if at is None:  # a link to a collection nothing describes: it can be read
            self.add("GET", f"{{{noun}.{sub}}}", f"the {noun}'s {sub}", line)
            return
        for sentence in said[at:at + 2]:
            for method in _methods(sentence):
                keys = [k for k in _BODY_KEYS.findall(sentence) if k != sub]
                self.add(method, f"{{{noun}.{sub}}}", sentence, line,
                         request_schema=_body_schema(keys, keys) if method == "POST" else None)


def catalog_endpoints(blocks: list[Block]) -> tuple[LinkCatalog, list[Endpoint]] | None:
    """The catalog and its link-named endpoints, or None when the document shows no root
    answer of links."""
    found = _root_catalog(blocks)
    if found is None:
        return None
    at_block, answer, at, links = found
    reader = _Reader(blocks, links)
    reader.add("GET", "/", "the root URL's catalog of links", blocks[at_block].line,
               response_example=answer)
    heading = next((i for i, b in enumerate(blocks) if b.kind == "heading"
                    and "collection" in b.text.lower() and i > at_block), None)
    if heading is not None:
        reader.collections(heading, _section_end(blocks, heading))
    for noun, (start, end) in sorted(_record_sections(blocks, set(reader.nouns)).items(),
                                     key=lambda kv: kv[1]):
        reader.record(noun, start, end)
    text = " ".join(b.text for b in blocks if b.kind == "text")
    catalog = LinkCatalog(at=at, collections={k: n for n, k in reader.nouns.items()},
                          token_location=bool(_TOKEN_LOCATION.search(text)),
                          etags=bool(_ETAGS.search(text)),
                          ignores_invalid=[n for n in _IGNORED.findall(text)
                                           if any(p.name == n for e in reader.endpoints
                                                  for p in e.params)])
    return catalog, reader.endpoints
