"""Details that need the whole document: named objects, doc-level auth rules, derived params.

- A JSON example under a short name ("### Book", "**Event**", "Product:", "4.1 笔记（Note）")
  is a named object; a success status described as "the created Book", "with the todo",
  "a JSON array of orders" or "返回笔记" gets that object as its response example.
- "All endpoints except `POST /login` require a token" / "除 `GET /health` 外，其余接口均需认证"
  set `auth_required` on every endpoint the document does not mark itself.
- Body fields of a JSON request example become body parameters when no table lists them.
"""

from __future__ import annotations

import copy
import re
from typing import Any
from urllib.parse import parse_qsl

from pipeline.records import Endpoint, Param
from pipeline.spec.leaks import leak_reason
from pipeline.spec.markdown import Block, plain, plain_lines
from pipeline.spec.schema import json_type, parse_json

_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)、]?\s*)")
_NOT_OBJECT = re.compile(r"respon|request|body|error|exception|fail|example\s+(?:request|call)"
                         r"|format|returns?|请求|响应|返回|错误|异常|示例请求", re.I)
_ALL_REQUIRE = re.compile(
    r"\b(?:all|every|each|other|remaining)\b[^.。]*\b(?:endpoints?|routes?|requests?|apis?"
    r"|operations?|calls?|interfaces?)\b[^.。]*\brequire"
    r"|\bin\s+(?:the\s+|every\s+|each\s+)?requests?\s+headers?,?\s+we\s+(?:need|require)\b"
    r"|(?:所有|全部|其余|其他)(?:的)?(?:接口|请求|API)[^。]*需",
    re.I,
)
_EXCEPT = re.compile(r"除(?:了)?|\bexcept\b|\bother\s+than\b|\bapart\s+from\b|\bbesides\b"
                     r"|\bwith\s+the\s+exception\s+of\b", re.I)
_MADE_BY_SIGN_UP = re.compile(r"\bcreat\w*\s+(?:a\s+)?(?:new\s+)?(user|account|member)", re.I)
_OPEN_PATH = re.compile(r"log-?in|sign-?(?:in|up)|register|/token\b|/health|/auth\b|登录|注册",
                        re.I)


def _aliases(name: str) -> list[str]:
    name = _NUMBERING.sub("", plain(name)).strip(" :：*#")
    name = re.sub(r"^(?:resource|object|model|entity|schema|资源|对象)\s*[:：]\s*", "", name,
                  flags=re.I)
    name = re.sub(r"\s+(?:object|resource|model|entity|schema)$", "", name, flags=re.I)
    parts = [p.strip() for p in re.split(r"[（()）]", name) if p.strip()]
    out = set()
    for p in parts:
        out.add(p.lower())
        words = p.split()
        if 1 < len(words) <= 3:
            out.add(words[-1].lower())
    return [a for a in out if len(a) >= 2]


def named_objects(blocks: list[Block], skip: set[int]) -> dict[str, Any]:
    """alias → JSON example, for objects the document defines outside endpoint sections."""
    found: dict[str, Any] = {}
    heading, heading_at, text, text_at = "", -1, "", -1
    for i, b in enumerate(blocks):
        if b.kind == "heading":
            heading, heading_at = b.text, i
            continue
        if b.kind == "text":
            text, text_at = " ".join(x for x in plain_lines(b.text) if x), i
            continue
        if b.kind != "code" or heading_at in skip or leak_reason(b) is not None:
            continue
        value = parse_json(b.text)
        if not isinstance(value, dict):
            continue
        name = ""
        if text_at == i - 1 and len(text.split()) <= 3 and not re.search(r"example|示例", text,
                                                                         re.I):
            name = text
        elif i - heading_at <= 3 and (text_at < heading_at or text_at == i - 1):
            name = heading
        if not name or _NOT_OBJECT.search(name):
            continue
        for alias in _aliases(name):
            found.setdefault(alias, value)
    return found


def _reference(meaning: str, objects: dict[str, Any]) -> Any:
    """The object a status meaning names first: "the created Book", "a JSON array of orders"."""
    low = meaning.lower()
    m = re.search(r"(?:array|list)\s+of\s+(?:all\s+)?(?:the\s+)?(\w+)", low)
    if m:
        word = m.group(1)
        for alias in (word, word[:-1] if word.endswith("s") else word):
            if alias in objects:
                return [copy.deepcopy(objects[alias])]
    if re.search(r"[\u4e00-\u9fff]", meaning):
        hits = [a for a in objects if a in meaning[:12]]
        return copy.deepcopy(objects[max(hits, key=len)]) if hits else None
    m = re.search(r"\b(?:the|a|an)\s+([\w\s-]+)", low)
    words = re.findall(r"[\w-]+", m.group(1) if m else low)[:3]
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            phrase = " ".join(words[i:i + size])
            if phrase in objects:
                return copy.deepcopy(objects[phrase])
    return None


_BODY_COLUMN = re.compile(r"^\W*(?P<role>request|response|req|resp|请求|响应)\b.*(?:body|体)?",
                          re.I)
_OBJECT_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\(#(?P<anchor>[\w-]+)\)|\bref\s+(?P<ref>\w[\w ]*)",
                          re.I)
_MANY = re.compile(r"^(?:array|list)\s+(?:of\s+)?", re.I)


def table_bodies(ep: Endpoint, header: tuple[str, ...], row: tuple[str, ...],
                 objects: dict[str, Any]) -> None:
    """A table row whose request/response body column names a document object (`Ref
    [Client](#client)`, `[Array Client](#array-client)`): that object is the body's example
    (a list of it for "Array"/"List"). What the endpoint's own section shows wins."""
    for head, cell in zip(header, row, strict=False):
        column = _BODY_COLUMN.match(plain(head))
        link = _OBJECT_LINK.search(cell)
        if column is None or link is None:
            continue
        name = (link.group("text") or link.group("ref") or "").strip()
        many = bool(_MANY.match(name))
        value = next((objects[a] for a in [name.lower(), _MANY.sub("", name).lower(),
                                           (link.group("anchor") or "").replace("-", " ")]
                      if a in objects), None)
        if not isinstance(value, dict):
            continue
        value = [copy.deepcopy(value)] if many else copy.deepcopy(value)
        if column.group("role").lower().startswith(("req", "请")):
            if ep.request_example is None and ep.method in ("POST", "PUT", "PATCH"):
                ep.request_example = value
        elif ep.response_example is None:
            ep.response_example = value


def create_from_replace(endpoints: list[Endpoint]) -> None:
    """A create the document gives no body for takes the body of its records' full update
    (`POST /clients` and `PUT /clients/{id}` with a Client): both send the record."""
    for create in endpoints:
        if (create.method != "POST" or "{" in create.path.rsplit("/", 1)[-1]
                or create.request_example is not None or create.request_schema is not None
                or any(p.location == "body" for p in create.params)):
            continue
        base = create.path.rstrip("/")
        put = next((e for e in endpoints if e.method == "PUT" and isinstance(
            e.request_example, dict) and re.fullmatch(re.escape(base) + r"/\{[^{}/]+\}/?",
                                                      e.path)), None)
        if put is not None:
            create.request_example = copy.deepcopy(put.request_example)
            create.request_schema = copy.deepcopy(put.request_schema)


def resolve_references(endpoints: list[Endpoint], objects: dict[str, Any]) -> None:
    """Success statuses that name a document object get it as their example."""
    for ep in endpoints:
        for code, meaning in ep.status_codes.items():
            if 200 <= code < 300 and code not in ep.response_examples and code != 204:
                value = _reference(meaning, objects) if objects else None
                if value is not None:
                    ep.response_examples[code] = value
        if ep.response_example is None and ep.response_examples:
            ok = [c for c in sorted(ep.response_examples) if c < 300]
            if ok:
                ep.response_example = ep.response_examples[ok[0]]


def file_examples(ep: Endpoint) -> None:
    """An unlabelled response example belongs to the documented success status."""
    if ep.response_example is None or any(c < 300 for c in ep.response_examples):
        return
    ok = [c for c in sorted(ep.status_codes) if 200 <= c < 300]
    if not ok and ep.method == "POST":
        return  # 200 or 201: the document does not say, and guessing makes wrong tests
    code = ok[0] if ok else 200
    ep.response_examples[code] = ep.response_example
    ep.status_codes.setdefault(code, "OK" if code == 200 else "")


def example_params(ep: Endpoint) -> None:
    """Body fields of the request example as parameters (type from the value)."""
    if ep.method not in ("POST", "PUT", "PATCH") or not isinstance(ep.request_example, dict):
        return
    known = {(p.name, p.location) for p in ep.params}
    for name, value in ep.request_example.items():
        if (name, "body") not in known and re.fullmatch(r"[A-Za-z_][\w.-]*", str(name)):
            typ = "null" if value is None else json_type(type(value).__name__)
            ep.params.append(Param(name=name, location="body", type=typ))


def link_params(ep: Endpoint) -> None:
    """Query parameters a list's documented answer uses in its own links (`"first":
    "/api/categories/2/recipes?page=1&limit=3"`): the list takes them."""
    if ep.method != "GET":
        return
    pattern = re.sub(r"\\\{[^}]*\\\}", r"[^/?]+", re.escape(ep.path.rstrip("/")))
    known = {(p.name, p.location) for p in ep.params}
    for link in _strings(ep.response_example):
        m = re.fullmatch(rf"(?:https?://[^/]+)?{pattern}/?\?([^#]+)", link)
        for name, value in parse_qsl(m.group(1)) if m else ():
            if (name, "query") not in known and re.fullmatch(r"[A-Za-z_][\w-]*", name):
                known.add((name, "query"))
                ep.params.append(Param(name=name, location="query", required=False,
                                       type="integer" if value.isdigit() else "string",
                                       constraints={"examples": [value]}))


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def doc_auth(endpoints: list[Endpoint], statements: list[tuple[str, set[tuple[str, str]]]],
             has_auth: bool) -> None:
    """Apply "all endpoints require auth (except ...)" to endpoints that say nothing."""
    for line, listed in statements:
        if not _ALL_REQUIRE.search(line):
            continue
        excepted = listed if _EXCEPT.search(line) else set()
        if not (has_auth or excepted):
            continue
        # "..., which is generated while creating new user": making the account is open
        made = _MADE_BY_SIGN_UP.search(line)
        for ep in endpoints:
            if made and ep.method == "POST" and re.search(
                    rf"/{made.group(1)}s/?$", ep.path, re.I) and ep.auth_required is None:
                ep.auth_required = False
            elif ep.key in excepted:
                ep.auth_required = False if ep.auth_required is None else ep.auth_required
            elif ep.auth_required is None:
                ep.auth_required = not (not excepted and _OPEN_PATH.search(ep.path))
        return


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in re.findall(r"[a-z\u4e00-\u9fff]+", text.lower())
            if w not in ("the", "a", "an", "endpoint", "api", "interface")}


def same_as(endpoints: list[Endpoint], refs: dict[tuple[str, str], dict[str, str]]) -> None:
    """"Input Schema: Same as create article": the named endpoint's body, copied."""
    for ep in endpoints:
        for role, ref in refs.get(ep.key, {}).items():
            want = _words(ref)
            source = next((e for e in endpoints if e is not ep and want
                           and want <= _words(e.summary)), None)
            if source is None:
                continue
            if role == "request" and ep.request_schema is None and ep.request_example is None:
                ep.request_schema = copy.deepcopy(source.request_schema)
                ep.request_example = copy.deepcopy(source.request_example)
                known = {(p.name, p.location) for p in ep.params}
                ep.params += [p.model_copy() for p in source.params
                              if p.location == "body" and (p.name, p.location) not in known]
            elif role == "response" and ep.response_schema is None \
                    and ep.response_example is None:
                ep.response_schema = copy.deepcopy(source.response_schema)
                ep.response_example = copy.deepcopy(source.response_example)
