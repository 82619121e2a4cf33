"""Find the documented endpoints (method + path) in a parsed document.

Evidence, strongest first:
- a method followed by a path anywhere in prose, headings, table cells ("GET /users",
  "`DELETE /x/{id}`", "a POST request to /login"), or at the start of a code-block line
  ("POST /login HTTP/1.1"); the method must be upper case there, so "Get started" and
  "put the schema in /docs" are prose;
- a table row with a method cell and a path cell (any column order);
- split fields paired within a section: "**Method:** GET" + "**URL:** /x", a method-only
  heading ("## GET", "### List [GET]") + a path line or a path heading above it;
- curl commands, used only when the document has no other endpoint evidence.
Code blocks that are implementation source are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from pipeline.spec.curl import parse_curls, parse_httpie
from pipeline.spec.leaks import leak_reason
from pipeline.spec.markdown import Block, code_line_number, plain, plain_lines
from pipeline.spec.paths import (
    ENDPOINT_RE,
    METHODS,
    METHODS_ONLY_RE,
    TARGET,
    TARGET_ONLY_RE,
    Target,
    normalise_target,
    split_methods,
    template_of_instance,
)

Source = Literal["text", "heading", "table", "field", "code", "curl"]

# Where an install step downloads from: a command to these hosts is not a call of the service.
_DOWNLOAD_HOSTS = re.compile(
    r"^https?://(?:[\w-]+\.)*(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org"
    r"|pypi\.org|pythonhosted\.org|npmjs\.org|docker\.com|rustup\.rs|nodesource\.com"
    r"|googleapis\.com|sourceforge\.net)(?:[:/]|$)", re.I)


def call_target(url: str) -> Target | None:
    """The target of a command-line call (curl, HTTPie), or None for a download."""
    if _DOWNLOAD_HOSTS.match(url.strip()):
        return None
    return normalise_target(url)

PATH_KEYS = (
    r"(?:request\s+|api\s+)?(?:url|uri|endpoint|end-point|path|route|resource)"
    r"|接口地址|请求地址|请求路径|接口路径|请求\s*URL|接口\s*URL|URL\s*地址|路径|地址|接口"
)
METHOD_KEYS = (
    r"(?:http\s+|request\s+)?(?:method|verb)|(?:http|request)\s+type"
    r"|请求方式|请求方法|请求类型|HTTP\s*方法|方法"
)
_KEY_RE = re.compile(
    rf"(?:^|(?<=[,;|(]\s)|(?<=[,;|(]))\s*(?:(?P<pkey>{PATH_KEYS})|(?P<mkey>{METHOD_KEYS}))"
    r"\s*(?:=>|->|[:：=])\s*",
    re.I,
)
_BARE_KEY_RE = re.compile(
    rf"^\s*(?:(?P<pkey>{PATH_KEYS})|(?P<mkey>{METHOD_KEYS}))\s*[:：]?\s*$", re.I
)
_BULLET = re.compile(r"^\s*(?:[-*+>]\s+|\d+[.)]\s+)")
_CODE_LEAD = re.compile(r"^\s*(?:[$>#]\s*|\d+[.)]\s+|[-*+]\s+)?")
_HEAD_METHODS = re.compile(rf"^\s*\[?(?P<methods>{METHODS})\]?(?:\s*$|\s*[:\-–—(]|\s+(?![/{{]))")
_HEAD_BRACKET_METHOD = re.compile(rf"\[(?P<methods>{METHODS})\]\s*$")
_HEAD_PATH = re.compile(rf"^\s*(?P<target>{TARGET})(?:\s*$|\s*[:：\-–—(]|\s+(?![A-Z]+\s))")
_HEAD_BRACKET_PATH = re.compile(r"\[(?P<target>/[^\]\s]*)\]\s*$")
_PATH_HEADER = re.compile(r"path|url|uri|endpoint|route|resource|路径|地址|接口", re.I)
_METHOD_HEADER = re.compile(r"method|verb|http|方法|方式", re.I)


@dataclass
class Mention:
    """One place the document names an endpoint."""

    method: str
    target: Target
    line: int
    col: int
    block: int
    source: Source
    summary: str = ""
    prefix: str = ""  # the text before the mention on its line
    header: tuple[str, ...] = ()
    row: tuple[str, ...] = ()


@dataclass
class _Half:
    kind: Literal["m", "p"]
    line: int
    col: int
    block: int
    group: int
    methods: list[str] = field(default_factory=list)
    target: Target | None = None
    strong: bool = True


@dataclass
class _Scan:
    blocks: list[Block]
    heading_of: list[int]
    parent: dict[int, int]
    mentions: list[Mention] = field(default_factory=list)
    halves: list[_Half] = field(default_factory=list)
    curls: list[Mention] = field(default_factory=list)
    users: set[str] = field(default_factory=set)  # `-u name:password` names of the calls
    pending: tuple[str, int, int] | None = None  # (kind, group, block) of a bare key
    label: str = ""  # the last prose line seen: "Output:" above a block marks program output


def _structure(blocks: list[Block]) -> tuple[list[int], dict[int, int]]:
    heading_of: list[int] = []
    parent: dict[int, int] = {}
    stack: list[int] = []
    current = -1
    for i, b in enumerate(blocks):
        if b.kind == "heading":
            while stack and blocks[stack[-1]].level >= b.level:
                stack.pop()
            parent[i] = stack[-1] if stack else -1
            stack.append(i)
            current = i
        heading_of.append(current)
    return heading_of, parent


def _generic(scan: _Scan, text: str, line: int, bi: int, source: Source,
             col0: int = 0) -> bool:
    """Method + path mentions in `text`; a code line names one only at its start (after a
    prompt or bullet): further along it is an argument or output, not the call."""
    found = False
    if source == "code":
        lead = _CODE_LEAD.match(text)
        m = ENDPOINT_RE.match(text, lead.end() if lead else 0)
        matches = [m] if m else []
    else:
        matches = list(ENDPOINT_RE.finditer(text))
    for m in matches:
        target = normalise_target(m.group("target"))
        if target is None:
            continue
        rest = text[m.end():].strip(" \t-–—:|")
        for method in split_methods(m.group("methods")):
            scan.mentions.append(Mention(method, target, line, col0 + m.start(), bi, source,
                                         summary=rest, prefix=text[:m.start()]))
        found = True
    return found


def _value_half(scan: _Scan, value: str, at: _Half) -> None:
    """The value of a path or method key; `at`: the half it makes, still without its value."""
    value = value.strip().rstrip(",;")
    if at.kind == "p":
        if _generic(scan, value, at.line, at.block, "field", at.col):
            return
        first = value.split()[0] if value.split() else ""
        target = normalise_target(first) if TARGET_ONLY_RE.match(first) else None
        if target is not None:
            scan.halves.append(replace(at, target=target))
    else:
        m = re.match(rf"\[?({METHODS})\]?(?![A-Za-z])", value, re.I)
        if m:
            scan.halves.append(replace(at, methods=split_methods(m.group(1))))


def _fields(scan: _Scan, line_text: str, line: int, bi: int, group: int) -> bool:
    """Key/value fields on one line; True when the line was a bare key or had fields."""
    text = _BULLET.sub("", line_text, count=1)
    bare = _BARE_KEY_RE.match(text)
    if bare:
        scan.pending = ("p" if bare.group("pkey") else "m", group, bi)
        return True
    keys = list(_KEY_RE.finditer(text))
    for k, m in enumerate(keys):
        end = keys[k + 1].start() if k + 1 < len(keys) else len(text)
        _value_half(scan, text[m.end():end],
                    _Half("p" if m.group("pkey") else "m", line, m.start(), bi, group))
    return bool(keys)


def _take_pending(scan: _Scan, line_text: str, line: int, bi: int) -> bool:
    if scan.pending is None or not line_text.strip():
        return False
    kind, group, _ = scan.pending
    scan.pending = None
    _value_half(scan, line_text, _Half(kind, line, 0, bi, group))
    return True


def _lines_block(scan: _Scan, lines: list[tuple[int, str]], bi: int, source: Source,
                 group: int) -> None:
    for line, text in lines:
        if _take_pending(scan, text, line, bi):
            continue
        found = _generic(scan, text, line, bi, source)
        if _fields(scan, text, line, bi, group) or found:
            continue
        m = TARGET_ONLY_RE.match(_BULLET.sub("", text, count=1))
        if m:
            target = normalise_target(m.group("target"))
            if target is not None:
                scan.halves.append(_Half("p", line, 0, bi, group, target=target, strong=False))


def _heading(scan: _Scan, bi: int, block: Block) -> None:
    text = plain(block.text).strip()
    group = bi
    bare = _BARE_KEY_RE.match(text)
    if bare:
        scan.pending = ("p" if bare.group("pkey") else "m", scan.parent.get(bi, -1), bi)
        return
    scan.pending = None
    if _generic(scan, text, block.line, bi, "heading"):
        return
    m = _HEAD_METHODS.match(text) or _HEAD_BRACKET_METHOD.search(text)
    if m:
        scan.halves.append(_Half("m", block.line, 0, bi, group,
                                 methods=split_methods(m.group("methods"))))
        return
    m = _HEAD_PATH.match(text) or _HEAD_BRACKET_PATH.search(text)
    if m:
        target = normalise_target(m.group("target"))
        if target is not None:
            scan.halves.append(_Half("p", block.line, 0, bi, group, target=target))


def _table(scan: _Scan, bi: int, block: Block, group: int) -> None:
    header = tuple(plain(c).strip() for c in block.rows[0]) if block.rows else ()
    path_col = next((i for i, h in enumerate(header) if _PATH_HEADER.search(h)), None)
    method_col = next((i for i, h in enumerate(header) if _METHOD_HEADER.search(h)), None)
    for r, raw_row in enumerate(block.rows):
        cells = tuple(plain(c).strip() for c in raw_row)
        line = block.row_lines[r] if r < len(block.row_lines) else block.line
        if len(cells) == 2 and _fields(scan, f"{cells[0]}: {cells[1]}", line, bi, group):
            continue
        if r == 0:
            continue
        before = len(scan.mentions)
        for c, cell in enumerate(cells):
            _generic(scan, cell, line, bi, "table", col0=c * 1000)
        if len(scan.mentions) == before:
            _table_row(scan, cells, line, bi, path_col, method_col)
        if len(scan.mentions) == before:
            _httpie(scan, list(cells), line, bi, "table")
        summary = next((c for c in cells if re.search(r"[A-Za-z\u4e00-\u9fff]{3}", c)
                        and not METHODS_ONLY_RE.match(c) and not TARGET_ONLY_RE.match(c)
                        and not ENDPOINT_RE.search(c)), "")
        for m in scan.mentions[before:]:
            m.source, m.header, m.row, m.summary = "table", header, cells, summary


def _table_row(scan: _Scan, cells: tuple[str, ...], line: int, bi: int,
               path_col: int | None, method_col: int | None) -> None:
    methods = [i for i, c in enumerate(cells) if METHODS_ONLY_RE.match(c)]
    paths = [i for i, c in enumerate(cells) if TARGET_ONLY_RE.match(c)]
    if not methods or not paths:
        return
    pc = path_col if path_col in paths else paths[0]
    mc = method_col if method_col in methods else methods[0]
    target = normalise_target(cells[pc])
    if target is None:
        return
    for method in split_methods(cells[mc]):
        scan.mentions.append(Mention(method, target, line, min(pc, mc) * 1000, bi, "table"))


_OUTPUT_LABEL = re.compile(r"\b(?:output|prints?|you\s+(?:will\s+)?see|logs?|result)\b"
                           r"|输出|日志|结果", re.I)


def _httpie(scan: _Scan, lines: list[str], line: int, bi: int, source: Source) -> bool:
    """HTTPie commands (`http [METHOD] URL ...`): an endpoint each, like a method + path in
    prose (the method is HTTPie's default when none is written). Line `line` + index."""
    found = False
    for c in parse_httpie(lines):
        target = call_target(c.url)
        if target is not None:
            scan.mentions.append(Mention(c.method, target, line + c.line_index, 0, bi, source))
            found = True
    return found


def _code(scan: _Scan, bi: int, block: Block, group: int) -> None:
    if leak_reason(block) is not None or _OUTPUT_LABEL.search(scan.label):
        return
    raw = block.text.split("\n")
    if _httpie(scan, raw, code_line_number(block, 0), bi, "code"):
        return
    curls = parse_curls(raw)
    if curls:
        for c in curls:
            scan.users |= {c.user.split(":", 1)[0]} if c.user else set()
            target = call_target(c.url)
            if target is not None:
                scan.curls.append(Mention(c.method, target, code_line_number(block, c.line_index),
                                          0, bi, "curl"))
        return
    lines = [(code_line_number(block, i), ln) for i, ln in enumerate(raw)]
    _lines_block(scan, lines, bi, "code", group)


def _text(scan: _Scan, bi: int, block: Block, group: int) -> None:
    lines = plain_lines(block.text)
    scan.label = next((ln for ln in reversed(lines) if ln), "")
    for c in parse_curls(lines):
        scan.users |= {c.user.split(":", 1)[0]} if c.user else set()
        target = call_target(c.url)
        if target is not None:
            scan.curls.append(Mention(c.method, target, block.line + c.line_index, 0, bi, "curl"))
    numbered = [(block.line + i, ln) for i, ln in enumerate(lines) if "curl " not in ln]
    _lines_block(scan, numbered, bi, "text", group)


def _pair_group(halves: list[_Half]) -> tuple[list[tuple[_Half, _Half]], list[_Half]]:
    pairs: list[tuple[_Half, _Half]] = []
    left: list[_Half] = []
    i = 0
    while i < len(halves):
        a = halves[i]
        b = halves[i + 1] if i + 1 < len(halves) else None
        if b is not None and a.kind != b.kind:
            pairs.append((a, b) if a.kind == "m" else (b, a))
            i += 2
        else:
            left.append(a)
            i += 1
    return pairs, left


def _pairs(scan: _Scan) -> list[Mention]:
    groups: dict[int, list[_Half]] = {}
    for h in sorted(scan.halves, key=lambda h: (h.line, h.col)):
        groups.setdefault(h.group, []).append(h)
    out: list[Mention] = []
    for group, halves in groups.items():
        pairs, left = _pair_group(halves)
        strong_paths = [h for h in halves if h.kind == "p" and h.strong]
        for h in left:
            if h.kind != "m":
                continue
            path = strong_paths[0] if len(strong_paths) == 1 else _ancestor_path(scan, group)
            if path is not None:
                pairs.append((h, path))
        for m, p in pairs:
            assert p.target is not None
            first = m if (m.line, m.col) <= (p.line, p.col) else p
            for method in m.methods:
                out.append(Mention(method, p.target, first.line, first.col, m.block, "field"))
    return out


def _ancestor_path(scan: _Scan, group: int) -> _Half | None:
    heads = {h.block: h for h in scan.halves if h.kind == "p" and h.strong and h.block == h.group}
    g = scan.parent.get(group, -1)
    while g != -1:
        if g in heads:
            return heads[g]
        g = scan.parent.get(g, -1)
    return None


def find_mentions(blocks: list[Block]) -> list[Mention]:
    """All endpoint mentions in document order (before base path and de-duplication)."""
    heading_of, parent = _structure(blocks)
    scan = _Scan(blocks, heading_of, parent)
    for bi, block in enumerate(blocks):
        group = heading_of[bi]
        if block.kind != "text":
            scan.label = plain(block.text).strip() if block.kind == "heading" else ""
        if block.kind == "heading":
            _heading(scan, bi, block)
        elif block.kind == "table":
            scan.pending = None
            _table(scan, bi, block, group)
        elif block.kind == "code":
            _code(scan, bi, block, group)
        else:
            _text(scan, bi, block, group)
    mentions = scan.mentions + _pairs(scan)
    calls = _word_ids(scan.curls, scan.users)
    if not mentions or _walkthrough(mentions, calls):
        mentions = mentions + calls
    kept = _drop_instances(sorted(mentions, key=lambda m: (m.line, m.col)))
    return _one_name_per_param([
        replace(m, target=replace(m.target, path=template_of_instance(m.target.path)))
        for m in kept])


def _one_name_per_param(mentions: list[Mention]) -> list[Mention]:
    """One name for the parameter at one place: `/projects/{id}/members` beside
    `/projects/{project_id}` and `/projects/{project_id}/bills` takes the name most paths
    give it (the first one written on a tie), so the routes group as one record's."""
    def shape(segs: list[str], i: int) -> tuple[str, ...]:
        return tuple("{}" if s.startswith("{") else s for s in segs[:i + 1])

    counts: dict[tuple[str, ...], dict[str, int]] = {}
    for m in mentions:
        segs = m.target.path.split("/")
        for i, seg in enumerate(segs):
            if seg.startswith("{") and seg.endswith("}"):
                names = counts.setdefault(shape(segs, i), {})
                names[seg] = names.get(seg, 0) + 1
    out = []
    for m in mentions:
        segs = m.target.path.split("/")
        new = [max(counts[shape(segs, i)].items(), key=lambda kv: kv[1])[0]
               if seg.startswith("{") and seg.endswith("}") else seg
               for i, seg in enumerate(segs)]
        out.append(m if new == segs else replace(m, target=replace(m.target,
                                                                  path="/".join(new))))
    return out


_ITEM_VERBS = {"GET", "PUT", "PATCH", "DELETE"}


def _word_ids(calls: list[Mention], users: set[str] = frozenset()) -> list[Mention]:  # type: ignore[assignment]
    """Example calls naming records by a word (`/api/projects/demo`, `/api/projects/yay`):
    a segment after a collection that takes two or more words across the examples, one of
    them read, changed or deleted there, or that is the name the calls sign in with
    (`-u chess:secret` on `/api/clubs/chess`), stands for an id (written `1`, as a number
    would be, so the calls map to templates as numeric instances do)."""
    seen: dict[tuple[str, ...], set[str]] = {}
    item: set[tuple[str, ...]] = set()
    for m in calls:
        segs = tuple(m.target.path.strip("/").split("/"))
        for i in range(1, len(segs)):
            if segs[i - 1].endswith("s") and segs[i - 1] not in users \
                    and re.fullmatch(r"[a-z][\w-]*", segs[i], re.I):
                seen.setdefault(segs[:i], set()).add(segs[i])
                if i == len(segs) - 1 and m.method in _ITEM_VERBS:
                    item.add(segs[:i + 1])
    words = {(prefix, w) for prefix, values in seen.items() if len(values) >= 2
             and any((*prefix, v) in item for v in values) for w in values}
    words |= {(prefix, w) for prefix, values in seen.items() for w in values if w in users}
    out = []
    for m in calls:
        segs = m.target.path.strip("/").split("/")
        new = ["1" if i and (tuple(segs[:i]), s) in words else s for i, s in enumerate(segs)]
        path = "/" + "/".join(new) + ("/" if m.target.path.endswith("/") and new else "")
        out.append(replace(m, target=replace(m.target, path=path)) if new != segs else m)
    return out


def _walkthrough(mentions: list[Mention], calls: list[Mention]) -> bool:
    """The example calls name at least three endpoints more than the rest of the document
    (a curl walkthrough with a passing mention or two): they are read as well."""
    def key(m: Mention) -> tuple[str, str]:
        return m.method, re.sub(r"\{[^{}]*\}", "{}", template_of_instance(m.target.path))

    named = {key(m) for m in mentions}
    return len({key(m) for m in calls} - named) >= 3


def template_re(path: str) -> re.Pattern[str]:
    """What a concrete call of this path looks like ('/notes/42' for '/notes/{id}')."""
    parts = re.split(r"(\{[^{}]+\})", path)
    # only concrete ids stand for a parameter: '/notes/42' is an instance, '/notes/search' is not
    body = "".join(r"(?:\d+|[0-9a-fA-F-]{16,})" if p.startswith("{") else re.escape(p)
                   for p in parts)
    return re.compile(rf"^{body}$")


def _drop_instances(mentions: list[Mention]) -> list[Mention]:
    """Drop passing mentions of calls ('GET /notes/42') of a documented template ('GET
    /notes/{id}'); a section that defines the call on an instance (API Blueprint's
    `## Note [/notes/1]` with `### Get a note [GET]`), or a curl example that shows its body
    and answer, is kept under the template (a section outranks an example)."""
    templates = [(m.method, template_re(m.target.path), m.target.path) for m in mentions
                 if "{" in m.target.path]
    out: list[Mention] = []
    for m in mentions:
        found = None if "{" in m.target.path else next(
            (path for meth, rx, path in templates if meth == m.method
             and rx.match(m.target.path)), None)
        if found is None:
            out.append(m)
        elif m.source in ("heading", "field", "curl"):  # a call's body and answer too
            out.append(replace(m, target=replace(m.target, path=found)))
    return out
