"""Markdown → a flat list of blocks, using markdown-it-py for the block structure.

markdown-it does the block splitting (headings, paragraphs, lists, fenced and indented
code, tables, HTML). What is hand-written here is only the *inline* clean-up in `plain()`:
the endpoint patterns need the raw inline text (so `<int:id>` survives, which an HTML
renderer would eat) with emphasis, backticks, links and `<br>` removed.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pipeline.spec.rst import rst_to_markdown

BlockKind = Literal["heading", "text", "code", "table"]

_MD = MarkdownIt("commonmark").enable("table").enable("strikethrough")


@dataclass(frozen=True)
class Block:
    """One block of the document; `line` is 1-based."""

    kind: BlockKind
    line: int
    text: str = ""
    level: int = 0  # heading level
    info: str = ""  # fence info string (language)
    rows: tuple[tuple[str, ...], ...] = ()  # table rows, header first (raw inline text)
    row_lines: tuple[int, ...] = ()
    fenced: bool = True
    item: int = -1  # which top-level list item the block sits in (-1: outside lists)

    @property
    def lang(self) -> str:
        return self.info.split()[0].lower() if self.info.strip() else ""


_COMMENT = re.compile(r"<!--.*?-->", re.S)
_BR = re.compile(r"<br\s*/?>", re.I)
_STRIKE = re.compile(r"~~.+?~~", re.S)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")
_AUTOLINK = re.compile(r"<((?:https?|ftp)://[^>\s]+)>")
_TAGS = re.compile(
    r"</?(?:b|strong|i|em|code|span|div|p|a|sup|sub|kbd|details|summary|font|u|mark|small|"
    r"pre|tt|center|table|tr|td|th|thead|tbody|ul|ol|li|h[1-6]|img|hr|blockquote)\b[^>]*>",
    re.I,
)
_STAR_EMPH = re.compile(r"(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def plain(raw: str) -> str:
    """Inline markdown to plain text, keeping `<name>`-style path parameters."""
    s = _COMMENT.sub("", raw)
    s = _BR.sub("\n", s)
    s = _STRIKE.sub("", s)
    s = _IMAGE.sub("", s)
    s = _LINK.sub(r"\1", s)
    s = _AUTOLINK.sub(r"\1", s)
    s = _TAGS.sub(" ", s)
    s = s.replace("**", "").replace("__", "").replace("`", "")
    s = _STAR_EMPH.sub(r"\1", s)
    s = _ESCAPE.sub(r"\1", s)
    return html.unescape(s)


def plain_lines(raw: str) -> list[str]:
    return [ln.strip() for ln in plain(raw).split("\n")]


def _line(tok: Token) -> int:
    return tok.map[0] + 1 if tok.map else 0


def _table(tokens: list[Token], i: int) -> tuple[Block, int]:
    start = _line(tokens[i])
    rows: list[tuple[str, ...]] = []
    row_lines: list[int] = []
    cells: list[str] = []
    while i < len(tokens) and tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "tr_open":
            cells = []
            row_lines.append(_line(tok) or start)
        elif tok.type == "inline":
            cells.append(tok.content)
        elif tok.type == "tr_close":
            rows.append(tuple(cells))
        i += 1
    return Block("table", start, rows=tuple(rows), row_lines=tuple(row_lines)), i


def parse_blocks(markdown_text: str) -> list[Block]:
    """Split a document into headings, text paragraphs, code blocks and tables (RST section
    titles and grid tables read as theirs)."""
    tokens = _MD.parse(rst_to_markdown(markdown_text))
    blocks: list[Block] = []
    lists = _ListItems()
    i = 0
    while i < len(tokens):
        lists.step(tokens[i])
        block, i = _block_at(tokens, i, lists.item)
        if block is not None:
            blocks.append(block)
        i += 1
    return blocks


@dataclass
class _ListItems:
    """Which top-level list item the tokens read so far sit in (nested lists belong to the
    item around them: an endpoint's fields are often sub-bullets)."""

    depth: int = 0
    item: int = -1
    items: int = 0

    def step(self, tok: Token) -> None:
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            self.depth += 1
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            self.depth -= 1
            self.item = -1 if self.depth == 0 else self.item
        elif tok.type == "list_item_open" and self.depth == 1:
            self.item = self.items
            self.items += 1


def _block_at(tokens: list[Token], i: int, item: int) -> tuple[Block | None, int]:
    """The block token `i` opens (None when it opens none) and the index of the last token
    the block takes up."""
    tok = tokens[i]
    if tok.type == "heading_open":
        return Block("heading", _line(tok), tokens[i + 1].content, level=int(tok.tag[1:])), i + 2
    if tok.type == "paragraph_open":
        return Block("text", _line(tok), tokens[i + 1].content, item=item), i + 2
    if tok.type in ("fence", "code_block"):
        fenced = tok.type == "fence"
        return Block("code", _line(tok), tok.content,
                     info=tok.info if fenced else "", fenced=fenced, item=item), i
    if tok.type == "html_block":
        text = _COMMENT.sub("", tok.content).strip()
        return (Block("text", _line(tok), text, item=item) if text else None), i
    if tok.type == "table_open":
        block, i = _table(tokens, i)
        return (block if item < 0 else replace(block, item=item)), i
    return None, i


def code_line_number(block: Block, index: int) -> int:
    """1-based document line of the index-th content line of a code block."""
    return block.line + index + (1 if block.fenced else 0)
