"""Bodies documented away from their endpoint, under the endpoint's interface name.

A common style lists the endpoints first (``- Interface Name: ListMessages`` next to
``- Method and Path: GET /rooms/{room_id}/messages``) and gives the bodies later, in a section
of their own, labelled by that name: ``5) ListMessages Output Schema`` above a JSON (Schema)
fence, or ``ListMessages`` above an ``http`` request block and the JSON reply. The endpoint's
own section holds no body, so without this module those endpoints come out empty.

Request lines of such examples carry concrete ids (``GET /rooms/!room123:example.org/messages``);
`example_instances` names those keys so they are not taken for endpoints of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pipeline.records import Endpoint
from pipeline.spec.markdown import Block, plain_lines
from pipeline.spec.schema import parse_json

Key = tuple[str, str]

_NAME_LINE = re.compile(
    r"^\W*(?:interface|api|operation|endpoint|action)\s*(?:name|id)\s*[:：]\s*`?"
    r"(?P<name>[A-Za-z_][\w.-]{2,})`?\s*$"
    r"|^\W*(?:接口名称|接口名|操作名称)\s*[:：]\s*`?(?P<zh>[A-Za-z_][\w.-]{2,})`?\s*$",
    re.I,
)
_LABEL = re.compile(
    r"^\W*(?:\d+[.)、]\s*)?(?P<name>[A-Za-z_][\w.-]{2,})\s*"
    r"(?P<role>input|output|request|response|输入|输出|请求|响应|返回)"
    r"\s*(?:schema|body|example|格式|结构|示例|体)?\s*[:：]?\s*$",
    re.I,
)
_REQUEST_ROLE = re.compile(r"input|request|输入|请求", re.I)
_REQUEST_LINE = re.compile(r"^(?P<method>GET|POST|PUT|PATCH|DELETE)\s+(?P<path>/\S*)\s+HTTP/", re.M)
# a path segment that is a value, not a word: "!room123:example.org", "42", "$abc"
_VALUE_SEG = re.compile(r"^[^/]*(?:\d|[!@$:~.])[^/]*$")


def interface_names(blocks: list[Block], keys_at: dict[int, set[Key]]) -> dict[str, Key]:
    """name → endpoint key, pairing each "Interface Name: X" with the endpoint defined next
    to it (the first one after it, else the last one before it)."""
    events: list[tuple[int, str, Any]] = []
    for i, b in enumerate(blocks):
        if b.kind == "text":
            for ln in plain_lines(b.text):
                m = _NAME_LINE.match(ln.strip())
                if m:
                    events.append((i, "name", m.group("name") or m.group("zh")))
        if len(keys_at.get(i, ())) == 1:
            events.append((i, "key", next(iter(keys_at[i]))))
    out: dict[str, Key] = {}
    for n, (_, kind, name) in enumerate(events):
        if kind != "name":
            continue
        after = next((e for e in events[n + 1:] if e[1] in ("key", "name")), None)
        if after is not None and after[1] == "key":
            out.setdefault(name, after[2])
            continue
        before = next((e for e in reversed(events[:n]) if e[1] in ("key", "name")), None)
        if before is not None and before[1] == "key":
            out.setdefault(name, before[2])
    return out


def _is_schema(value: Any) -> bool:
    return isinstance(value, dict) and "type" in value and "properties" in value


def _store(ep: Endpoint, request: bool, value: Any) -> None:
    if value is None or isinstance(value, str):
        return
    if request:
        if _is_schema(value):
            ep.request_schema = ep.request_schema or value
        elif ep.request_example is None:
            ep.request_example = value
        return
    if _is_schema(value):
        ep.response_schema = ep.response_schema or value
    elif ep.response_example is None:
        ep.response_example = value


def _label_of(block: Block) -> str:
    lines = [ln.strip() for ln in plain_lines(block.text) if ln.strip()]
    return lines[-1] if lines else ""


def apply_named_sections(endpoints: list[Endpoint], blocks: list[Block],
                         names: dict[str, Key]) -> None:
    """Attach bodies labelled with an interface name to that interface's endpoint."""
    if not names:
        return
    by_key = {ep.key: ep for ep in endpoints}
    lower = {n.lower(): k for n, k in names.items()}
    for i, b in enumerate(blocks[:-1]):
        if b.kind != "text":
            continue
        label = _label_of(b)
        nxt = blocks[i + 1]
        m = _LABEL.match(label)
        if m and nxt.kind == "code" and m.group("name").lower() in lower:
            ep = by_key.get(lower[m.group("name").lower()])
            if ep is not None:
                _store(ep, bool(_REQUEST_ROLE.search(m.group("role"))), parse_json(nxt.text))
            continue
        ep = by_key.get(lower.get(label.lower(), ("", "")))
        if ep is not None:
            _example(ep, blocks[i + 1:])


def _example(ep: Endpoint, after: Iterable[Block]) -> None:
    """``Name`` then an ``http`` request block (its body is the request) and a JSON reply."""
    seen_request = False
    for b in after:
        if b.kind != "code":
            return
        head, _, body = b.text.strip().partition("\n\n")
        if _REQUEST_LINE.match(head):
            seen_request = True
            if body.strip():
                _store(ep, True, parse_json(body))
            continue
        if seen_request:
            _store(ep, False, parse_json(b.text))
        return


def example_instances(keys: Iterable[Key], code_only: set[Key]) -> set[Key]:
    """Keys seen only in code request lines whose path is a concrete call of a template key
    of the same method (a value segment where the template has ``{param}``)."""
    templates = [k for k in keys if "{" in k[1]]
    out: set[Key] = set()
    for method, path in code_only:
        if "{" in path:
            continue  # a template itself, not a call
        segs = path.strip("/").split("/")
        for t_method, t_path in templates:
            t_segs = t_path.strip("/").split("/")
            if t_method != method or len(t_segs) != len(segs):
                continue
            if all(t == s or (t.startswith("{") and _VALUE_SEG.match(s))
                   for t, s in zip(t_segs, segs, strict=True)):
                out.add((method, path))
                break
    return out
