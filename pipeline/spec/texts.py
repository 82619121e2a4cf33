"""Text a non-JSON response must contain, as the document quotes it.

Services that answer with HTML pages document them in prose: ``Output: HTML document
containing title "Rock-Paper-Scissors App"``, or a list of the text segments it shows
(`` `You chose: <user_choice>` ``). The quoted pieces are what a black-box test can check;
a piece ends at its first ``<placeholder>`` (kept: it names the value shown there, often an
input), and HTML tags are left out (attribute order and quoting are the implementation's
choice).
"""

from __future__ import annotations

import re

from pipeline.records import Endpoint
from pipeline.spec.markdown import Block, plain
from pipeline.spec.paths import apply_base

_OUTPUT = re.compile(r"^\W*(?:output|response|returns?|输出|响应|返回)\b[^:：]{0,30}[:：]", re.I)
_NON_JSON = re.compile(r"\b(?:html|text/plain|plain\s+text|page|document)\b|页面|网页|文本", re.I)
_PIECE = re.compile(r'"([^"\n]{2,80})"|`([^`\n]{2,80})`|“([^”\n]{2,80})”')
_PLACEHOLDER = re.compile(r"<[a-z_][\w-]*>|\{[a-z_][\w-]*\}", re.I)
_SAME_AS = re.compile(r"same\s+as\s+(?P<method>GET|POST|PUT|PATCH|DELETE)\s+`?(?P<path>/\S*?)`?"
                      r"[\s.,;]*$|同\s*(?P<zmethod>GET|POST|PUT|PATCH|DELETE)\s+`?(?P<zpath>/\S*?)`?",
                      re.I)


_QUOTED_LINE = re.compile("^\\s*(?:[-*+]\\s+)?[`\"\u201c]")
_FIELD = re.compile(r"^\W*[A-Za-z\u4e00-\u9fff][\w \u4e00-\u9fff]{0,30}[:：]\s*\S")


def _fixed(piece: str) -> str | None:
    piece = piece.strip()
    if piece.startswith(("<", "/")) or "=" in piece or re.fullmatch(r"[a-z_]\w*", piece):
        return None  # a tag, a path, an attribute or a field name: not text a reader sees
    m = _PLACEHOLDER.search(piece)
    fixed = (piece[:m.start()] if m else piece).rstrip()
    if len(fixed) < 3 or not re.search(r"[A-Za-z\u4e00-\u9fff]{2}", fixed):
        return None
    return piece[:m.end()] if m else fixed  # "You chose: <user_choice>" keeps its placeholder


def fixed_part(text: str) -> str:
    """The literal text before a piece's placeholder ("You chose: <user_choice>" → "You
    chose:"): what a page must contain whatever the value."""
    m = _PLACEHOLDER.search(text)
    return (text[:m.start()] if m else text).rstrip()


def placeholder(text: str) -> str | None:
    """The placeholder's name ("user_choice"), None when the piece has none."""
    m = _PLACEHOLDER.search(text)
    return m.group(0).strip("<>{}") if m else None


def response_texts(blocks: list[Block]) -> tuple[list[str], tuple[str, str] | None]:
    """Quoted text of the "Output: HTML ..." lines in `blocks` (with the nested lines right
    after them), and the endpoint a "Same as GET /x" output refers to."""
    out: list[str] = []
    ref: tuple[str, str] | None = None
    active = False
    for b in blocks:
        if b.kind != "text":
            active = False
            continue
        for raw in b.text.split("\n"):
            text = plain(raw).strip()
            if _OUTPUT.match(text):
                ref = _same_as(text) or ref
                active = bool(_NON_JSON.search(text))
            elif active and _FIELD.match(text) and not _QUOTED_LINE.match(raw):
                active = False  # the next field ("Input:", "Errors:") ends the output
            if active:
                _add_pieces(raw, out)
    return out, ref


def _same_as(text: str) -> tuple[str, str] | None:
    """The (method, path) an "Output: Same as GET /x" line refers to."""
    same = _SAME_AS.search(text)
    if not same:
        return None
    return ((same.group("method") or same.group("zmethod")).upper(),
            same.group("path") or same.group("zpath"))


def _add_pieces(raw: str, out: list[str]) -> None:
    """Each quoted piece of the line a page must show, once."""
    for m in _PIECE.finditer(raw):
        fixed = _fixed(next(g for g in m.groups() if g))
        if fixed and fixed not in out:
            out.append(fixed)


def copy_response_texts(endpoints: list[Endpoint], refs: dict[tuple[str, str], tuple[str, str]],
                        base: str) -> None:
    """"Output: Same as GET `/results`": that endpoint's texts (when it has no body)."""
    by_key = {ep.key: ep for ep in endpoints}
    for key, (method, path) in refs.items():
        ep = by_key.get(key)
        source = by_key.get((method, path)) or by_key.get((method, apply_base(path, base)))
        if ep is not None and source is not None and source.response_text and \
                ep.response_schema is None and ep.response_example is None:
            ep.response_text = list(source.response_text)  # the explicit reference wins
