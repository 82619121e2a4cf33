"""`extract_spec`: a requirement document → `Spec` (pure), and the thin `load_spec`."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.records import Endpoint, Param, Spec
from pipeline.spec import docinfo, enrich
from pipeline.spec.access_rules import apply_owner_rules
from pipeline.spec.cascade_rules import apply_cascade_rules
from pipeline.spec.catalog import catalog_endpoints
from pipeline.spec.common_errors import apply_common_errors
from pipeline.spec.curl import needs_file, parse_httpie
from pipeline.spec.details import Details, read_details
from pipeline.spec.doc_formats import apply_time_format
from pipeline.spec.endpoints import Mention, find_mentions
from pipeline.spec.inline import joined
from pipeline.spec.linked_auth import linked_auth
from pipeline.spec.markdown import Block, parse_blocks, plain, plain_lines
from pipeline.spec.named_sections import (
    apply_named_sections,
    example_instances,
    interface_names,
)
from pipeline.spec.openapi import merge_documents
from pipeline.spec.paths import (
    ENDPOINT_RE,
    METHODS,
    TARGET_ONLY_RE,
    apply_base,
    normalise_target,
    split_methods,
)
from pipeline.spec.schema import auth_marker
from pipeline.spec.search_rules import apply_search_rule
from pipeline.spec.stray_calls import stray_call_examples
from pipeline.spec.texts import copy_response_texts, response_texts
from pipeline.spec.typedesc import apply_described
from pipeline.spec.unique_rules import apply_unique_rules
from pipeline.tasks import RawTask

Key = tuple[str, str]

_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)、]?|[A-Za-z][.)])\s+")


def _key(m: Mention, base: str) -> Key:
    path = m.target.path if m.target.absolute else apply_base(m.target.path, base)
    return (m.method, path)


def _structure(blocks: list[Block]) -> list[int]:
    heading_of: list[int] = []
    current = -1
    for i, b in enumerate(blocks):
        if b.kind == "heading":
            current = i
        heading_of.append(current)
    return heading_of


def _owned(blocks: list[Block], heading_of: list[int], m: Mention, key: Key,
           keys_at: dict[int, set[Key]]) -> list[Block]:
    b = m.block
    anchor = b if blocks[b].kind == "heading" else heading_of[b]
    level = blocks[anchor].level if anchor >= 0 else 0
    start = b + 1 if blocks[b].kind == "heading" else b
    item = blocks[b].item if m.source == "text" else -1
    if item >= 0 and anchor >= 0 and _alone_in_section(blocks, anchor, key, keys_at):
        item = -1  # "- **API Name**: `POST /x`" then bullets and top-level fences: all its own
    stop = start
    while stop < len(blocks):
        blk = blocks[stop]
        if stop > b and blk.kind == "heading" and blk.level <= level:
            break
        if item >= 0 and blk.item != item:
            if not _field_item(blk, item):
                break  # a mention in a list item owns that item only ...
            item = blk.item  # ... and the "Label: value" items right after it
        if stop > b and keys_at.get(stop, set()) - {key}:
            break
        stop += 1
    return blocks[start:stop]


_FIELD_ITEM = re.compile(r"^\W*[A-Za-z\u4e00-\u9fff][\w \u4e00-\u9fff/-]{0,30}[:：]")


def _field_item(blk: Block, item: int) -> bool:
    """The next list item is one more field of the same endpoint ("- Auth: required")."""
    first = next((ln for ln in plain_lines(blk.text) if ln.strip()), "")
    return (blk.kind == "text" and blk.item == item + 1 and bool(_FIELD_ITEM.match(first))
            and not ENDPOINT_RE.search(first))


def _alone_in_section(blocks: list[Block], anchor: int, key: Key,
                      keys_at: dict[int, set[Key]]) -> bool:
    """True when no other endpoint is defined in the heading section starting at `anchor`."""
    level = blocks[anchor].level
    for i in range(anchor + 1, len(blocks)):
        if blocks[i].kind == "heading" and blocks[i].level <= level:
            break
        if keys_at.get(i, set()) - {key}:
            return False
    return True


def _clean_summary(text: str) -> str:
    text = _NUMBERING.sub("", text.strip(" \t-–—:|#"))
    return text.strip(" \t-–—:：|")[:200]


_LETTERS = re.compile(r"[A-Za-z\u4e00-\u9fff]{3}")
_LABEL = re.compile(r"^[\s>*+\-#|]*(?:\d+(?:\.\d+)*[.)、]?\s*)?"
                    r"(?:[A-Za-z\u4e00-\u9fff][\w \u4e00-\u9fff]{0,24}[:：]\s*)?$")
_STATUS_FIRST = re.compile(r"^\W*(?:[1-5]\d{2}\b|with\b)", re.I)


def defining(m: Mention, blocks: list[Block]) -> bool:
    """A mention that names its endpoint as the subject (heading, field, table row, a line
    that starts with it or with a short label such as "Request:"), not a passing one."""
    if m.source in ("heading", "field", "table"):
        return True
    if m.source != "text" or not _LABEL.match(m.prefix):
        return False
    lines = plain_lines(blocks[m.block].text)
    idx = m.line - blocks[m.block].line
    if 0 < idx < len(lines) and not m.prefix.strip():
        prev = lines[idx - 1]
        # "... as for\n`POST /orders`": the sentence started on the line above
        starts = ENDPOINT_RE.search(prev)
        ended = (re.search(r"[.:：。!?;；]$", prev)
                 or (starts and _LABEL.match(prev[:starts.start()])))
        return not prev or bool(ended)
    return True


def _sentence(text: str) -> str:
    return re.split(r"(?<=[.;。；])\s|[；。]", text.strip(), maxsplit=1)[0]


def _summary(blocks: list[Block], heading_of: list[int], m: Mention, owned: list[Block],
             keys_at: dict[int, set[Key]]) -> str:
    """The endpoint's one-line summary, from the words closest to the mention outwards; a
    source that applies decides, even when what it gives is empty."""
    own = _own_words(blocks, m)
    if own is not None:
        return own
    named = _item_name(blocks, m)
    if named:
        return named
    caption = _command_caption(blocks, m)
    if caption is not None:
        return caption
    section = _section_title(blocks, heading_of, m, keys_at)
    if section is not None:
        return section
    return _first_sentence(owned)


def _own_words(blocks: list[Block], m: Mention) -> str | None:
    """The text on the mention's own line ("## Create a user: POST /users")."""
    if m.source == "heading":
        for part in (m.prefix, m.summary):
            if _LETTERS.search(part) and not _STATUS_FIRST.match(part):
                return _clean_summary(_sentence(part))
    elif m.source != "table" and defining(m, blocks):
        rest = _clean_summary(m.summary)
        if _LETTERS.search(rest) and not _STATUS_FIRST.match(rest):
            return _clean_summary(_sentence(rest))
    return None


def _command_caption(blocks: list[Block], m: Mention) -> str | None:
    """A command block shown under its own sentence ("To get a token we request")."""
    if m.source == "code" and m.block > 0 and blocks[m.block - 1].kind == "text":
        said = [x for x in plain_lines(blocks[m.block - 1].text) if x.strip()]
        if said and _LETTERS.search(said[-1]) and not ENDPOINT_RE.search(said[-1]):
            return _clean_summary(_sentence(said[-1]))
    return None


def _section_title(blocks: list[Block], heading_of: list[int], m: Mention,
                   keys_at: dict[int, set[Key]]) -> str | None:
    """The heading above, when it is no endpoint's own; '' when the section holds several
    endpoints (its title then describes none of them)."""
    anchor = heading_of[m.block] if blocks[m.block].kind != "heading" else -1
    section_keys = set().union(*(k for b, k in keys_at.items() if heading_of[b] == anchor))
    if len(section_keys) > 1:
        return ""
    if anchor >= 0 and anchor not in keys_at:
        text = plain(blocks[anchor].text).strip()
        if not re.fullmatch(rf"\[?{METHODS}\]?", text) and not TARGET_ONLY_RE.match(text):
            return _clean_summary(text)
    return None


def _first_sentence(owned: list[Block]) -> str:
    """The first sentence of the endpoint's own prose, unless it is a label or a status."""
    first = next((b for b in owned if b.kind != "heading"), None)
    if first is None or first.kind != "text":
        return ""
    ln = _sentence(next((x for x in plain_lines(first.text) if x), ""))
    if (_LETTERS.search(ln) and not ENDPOINT_RE.search(ln) and not _STATUS_FIRST.match(ln)
            and not re.match(r"^[^:：]{1,20}[:：]", ln) and not ln.endswith((":", "："))):
        return _clean_summary(_sentence(ln))
    return ""


_NAME_FIELD = re.compile(r"^\W*(?:api|interface|endpoint|operation)?\s*name\s*[:：]\s*(?P<v>.+)$"
                         r"|^\W*(?:API|接口)\s*名称\s*[:：]\s*(?P<zh>.+)$", re.I)


def _item_name(blocks: list[Block], m: Mention) -> str:
    """"- API Name: Homepage" earlier in the list item whose "Method:"/"Path:" lines name the
    endpoint."""
    item = blocks[m.block].item
    if item < 0 or m.source == "heading":
        return ""
    i = m.block - 1
    while i >= 0 and blocks[i].kind == "text" and blocks[i].item == item:
        for ln in plain_lines(blocks[i].text):
            hit = _NAME_FIELD.match(ln.strip())
            if hit and not ENDPOINT_RE.search(ln):
                return _clean_summary(hit.group("v") or hit.group("zh"))
        i -= 1
    # "2. List All Events (Upcoming)" with "- GET /events/" under it: the item's title line
    first = blocks[i + 1]
    lines = [ln for ln in plain_lines(first.text) if ln.strip()]
    if i + 1 < m.block and len(lines) == 1 and len(lines[0]) <= 80 and _LETTERS.search(
            lines[0]) and not ENDPOINT_RE.search(lines[0]) and not lines[0].rstrip().endswith(
            (":", "：")) and not _STATUS_FIRST.match(lines[0]):
        return _clean_summary(lines[0])
    return ""


def _table_details(m: Mention, d: Details) -> None:
    if not d.summary and m.summary:
        d.summary = _clean_summary(m.summary)
    for cmd in (c for cell in m.row for c in parse_httpie([cell]) if c.method == m.method):
        # the row's own command: its fields are the body, an Authorization header marks auth
        if cmd.data is not None and d.request_example is None:
            d.request_example = json.loads(cmd.data)
        if any(re.match(r"\s*authorization\s*:", h, re.I) for h in cmd.headers) and \
                d.auth_required is None:
            d.auth_required = True
    for h, cell in zip(m.header, m.row, strict=False):
        if re.search(r"auth|protected|login|token|认证|鉴权|登录|权限", h, re.I):
            if re.fullmatch(r"\s*(?:no|none|false|public|-|—|✗|✘|×|否|无|不需要)\s*", cell, re.I):
                d.auth_required = False
            elif cell.strip():
                flag = auth_marker(f"auth: {cell}")
                d.auth_required = True if flag is None else flag
            else:
                d.auth_required = False


def _params(key: Key, mentions: list[Mention], documented: list[Param]) -> list[Param]:
    params = list(documented)
    names = {(p.name, p.location) for p in params}
    patterns = {n: rule for m in mentions for n, rule in m.target.patterns}
    for name in re.findall(r"\{([^{}]+)\}", key[1]):
        if (name, "path") not in names:
            rule = {"pattern": patterns[name]} if name in patterns else {}
            params.append(Param(name=name, location="path", required=True, constraints=rule))
            names.add((name, "path"))
    for m in mentions:
        for q in m.target.query:
            if (q, "query") not in names:
                params.append(Param(name=q, location="query"))
                names.add((q, "query"))
    return params


@dataclass(frozen=True)
class _Layout:
    """The document as the endpoints are read from it: its blocks, each block's heading and
    the blocks where each endpoint is defined."""

    blocks: list[Block]
    heading_of: list[int]
    keys_at: dict[int, set[Key]]


def _endpoint(key: Key, mentions: list[Mention], layout: _Layout,
              refs: dict[Key, dict[str, str]], text_refs: dict[Key, Key]) -> Endpoint:
    """One endpoint from its mentions; what it takes from other endpoints ("same as ...")
    goes to `refs`/`text_refs`, resolved once all are read."""
    blocks, heading_of, keys_at = layout.blocks, layout.heading_of, layout.keys_at
    d = Details()
    # an endpoint's own section (heading, split fields) speaks before passing mentions
    rank = {"heading": 0, "field": 1, "code": 2, "table": 3, "text": 4, "curl": 5}
    # passing mentions are a last resort
    own = [m for m in mentions if defining(m, blocks)] or mentions
    all_owned: list[Block] = []
    for m in sorted(own, key=lambda m: rank[m.source]):
        if m.source == "table":
            _table_details(m, d)
            continue
        owned = _owned(blocks, heading_of, m, key, keys_at)
        all_owned += owned
        if m.source == "heading" and d.auth_required is None:
            d.auth_required = auth_marker(plain(blocks[m.block].text))
        if not d.summary:
            d.summary = _summary(blocks, heading_of, m, owned, keys_at)
        read_details(key[0], owned, d)
    if d.same_as:
        refs[key] = d.same_as
    texts, text_ref = response_texts(all_owned)
    if text_ref is not None:
        text_refs[key] = text_ref
    params = _params(key, mentions, d.params)
    usable = not needs_file(params, d.request_files)  # a required file came after the example
    return Endpoint(
        method=key[0], path=key[1], summary=d.summary, params=params,
        request_schema=d.request_schema, request_example=d.request_example if usable else None,
        request_form=d.request_form and usable, location_header=d.location_header,
        request_files=d.request_files if usable else {},
        response_schema=d.response_schema,
        response_example=d.response_example,
        response_examples=d.response_examples,
        status_codes=dict(sorted(d.status_codes.items())),
        auth_required=d.auth_required, rate_limit=d.rate_limit, line=mentions[0].line,
        response_text=texts if d.response_schema is None and d.response_example is None else [],
    )


def _sentence_keys(sentence: str, base: str) -> set[Key]:
    keys: set[Key] = set()
    for m in ENDPOINT_RE.finditer(sentence):
        target = normalise_target(m.group("target"))
        if target is not None:
            path = target.path if target.absolute else apply_base(target.path, base)
            keys.update((method, path) for method in split_methods(m.group("methods")))
    return keys


def _enrich(endpoints: list[Endpoint], blocks: list[Block], by_key: dict[Key, list[Mention]],
            heading_of: list[int], has_auth: bool, base: str) -> None:
    sections: set[int] = set()
    for ms in by_key.values():
        for m in ms:
            if defining(m, blocks) and m.source != "table":
                head = m.block if blocks[m.block].kind == "heading" else heading_of[m.block]
                sections.add(head)
    sentences = [s for b in blocks if b.kind == "text"
                 for s in re.split(r"(?<=[.!?。])\s+|(?<=。)", plain(joined(b.text)))]
    statements = [(s, _sentence_keys(s, base)) for s in sentences if s.strip()]
    enrich.doc_auth(endpoints, statements, has_auth)
    objects = enrich.named_objects(blocks, sections)
    for ep in endpoints:
        for m in by_key.get((ep.method, ep.path), []):
            if m.source == "table":
                enrich.table_bodies(ep, m.header, m.row, objects)
    for ep in endpoints:
        apply_described(ep)
        enrich.file_examples(ep)
    stray_call_examples(endpoints, blocks, base)
    enrich.create_from_replace(endpoints)
    for ep in endpoints:
        enrich.example_params(ep)
        enrich.link_params(ep)
    enrich.resolve_references(endpoints, objects)


def extract_spec(markdown_text: str) -> Spec:
    """The endpoint spec a human expert reads from a requirement document."""
    blocks = parse_blocks(markdown_text)
    base = docinfo.base_path(blocks)
    heading_of = _structure(blocks)
    by_key: dict[Key, list[Mention]] = {}
    for m in find_mentions(blocks):
        by_key.setdefault(_key(m, base), []).append(m)
    code_only = {k for k, ms in by_key.items() if all(m.source in ("code", "curl") for m in ms)}
    for k in example_instances(list(by_key), code_only):
        del by_key[k]
    # where each endpoint is defined; a passing mention ("the body follows POST /x") does not
    # end the part of the document the endpoint around it owns
    keys_at: dict[int, set[Key]] = {}
    for key, ms in by_key.items():
        for m in [m for m in ms if defining(m, blocks)] or ms:
            keys_at.setdefault(m.block, set()).add(key)
    refs: dict[Key, dict[str, str]] = {}
    text_refs: dict[Key, Key] = {}
    layout = _Layout(blocks, heading_of, keys_at)
    endpoints = [_endpoint(k, ms, layout, refs, text_refs) for k, ms in by_key.items()]
    copy_response_texts(endpoints, text_refs, base)
    apply_named_sections(endpoints, blocks, interface_names(blocks, keys_at))
    enrich.same_as(endpoints, refs)
    merge_documents(endpoints, blocks)
    auth = docinfo.auth(blocks, list(by_key))
    if (linked := linked_auth(markdown_text, auth, {e.path for e in endpoints})) is not None:
        auth, accounts = linked
        endpoints += accounts
    _enrich(endpoints, blocks, by_key, heading_of, has_auth=auth is not None, base=base)
    apply_common_errors(endpoints, markdown_text)
    apply_owner_rules(endpoints, markdown_text)
    apply_cascade_rules(endpoints, markdown_text)
    apply_time_format(endpoints, markdown_text)
    apply_search_rule(endpoints, markdown_text)
    apply_unique_rules(endpoints, markdown_text)
    catalog = catalog_endpoints(blocks) if not endpoints else None
    if catalog is not None:
        endpoints = catalog[1]
    return Spec(
        title=docinfo.title(blocks), port=docinfo.port(blocks), base_path=base,
        language=docinfo.language(blocks), auth=auth,
        error_format=docinfo.error_format(blocks), accept=docinfo.accept(blocks),
        validates_required=docinfo.validates_required(blocks), endpoints=endpoints,
        links=catalog[0] if catalog is not None else None,
    )


def load_spec(path: str | Path) -> Spec:
    """Read a README from disk and extract its spec (the only I/O in this package)."""
    return extract_spec(Path(path).read_text(encoding="utf-8", errors="replace"))


def task_spec(task: RawTask) -> Spec:
    """The task's README read as a spec, with the account the task says its service has from
    the start (`[account]` in task.toml: a README whose users are made outside the API names
    none, and the tests sign in with it)."""
    spec = load_spec(task.readme)
    account = task.config.account
    if account is not None and spec.auth is not None and spec.auth.account is None:
        spec.auth.account = (account.username, account.password)
    return spec


def spec_json(spec: Spec) -> list[dict[str, Any]]:
    """The `repogenesis spec --json` payload: one object per endpoint, method and path first."""
    return [ep.model_dump(mode="json", exclude={"line"}) for ep in spec.endpoints]
