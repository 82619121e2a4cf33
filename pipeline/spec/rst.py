"""reStructuredText structure a Markdown reader misreads, rewritten as Markdown.

Python services often keep their API reference in Sphinx `.rst` files, and a README may
append them. Two RST forms break a Markdown parse: a section title underlined with `~`
(a Markdown code fence that swallows every section after it) or `^`/`*`/`+`, and grid tables
(`+----+----+` borders), which Markdown reads as text. Both are rewritten here so the rest
of the spec reader sees headings and pipe tables. Line numbers are kept: a title stays on its
line, and a table's rows are followed by blank lines for the border lines they replace.
"""

from __future__ import annotations

import re

# `=` and `-` underlines are already Markdown (setext) headings
_UNDERLINE = re.compile(r"([~^\"'*+#])\1{2,}\s*")
_BORDER = re.compile(r"\+(?:[-=]+\+)+\s*")
_FENCE = re.compile(r"\s*(`{3,})")


def _title(line: str) -> bool:
    text = line.strip()
    return bool(text) and not _UNDERLINE.fullmatch(text) and not _BORDER.fullmatch(text) \
        and len(text) <= 100 and not text.startswith(("|", "+", "#", ">", "-", "*"))


def _cells(line: str, cuts: list[int]) -> list[str]:
    return [line[a + 1:b].strip() for a, b in zip(cuts, cuts[1:], strict=False)]


def _grid(lines: list[str], start: int) -> tuple[list[str], int]:
    """The grid table starting at `start`: Markdown lines (as many as it had) and its end."""
    cuts = [i for i, c in enumerate(lines[start].rstrip()) if c == "+"]
    rows: list[list[str]] = []
    header = 0
    current: list[str] | None = None
    end = start + 1
    while end < len(lines):
        line = lines[end].rstrip()
        if _BORDER.fullmatch(line.strip()) and line.startswith("+"):
            if current is not None:
                rows.append(current)
                current = None
            if "=" in line:
                header = len(rows)
            end += 1
            continue
        if not line.startswith("|"):
            break
        parts = _cells(line, cuts)
        if current is None:
            current = parts
        else:
            current = [f"{a} {b}".strip() for a, b in zip(current, parts, strict=False)]
        end += 1
    if current is not None:
        rows.append(current)
    if not rows:
        return [lines[start]], start + 1
    header = header or 1
    body = ["| " + " | ".join(row) + " |" for row in rows[header:]]
    head = [" ".join(c for c in col if c) for col in zip(*rows[:header], strict=False)]
    md = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *body]
    return md + [""] * max(0, end - start - len(md)), end


def rst_to_markdown(text: str) -> str:
    """`text` with RST section titles and grid tables in Markdown form (same line count,
    or more only where a table needs an extra line); Markdown passes through unchanged."""
    lines = text.split("\n")
    out: list[str] = []
    levels: list[str] = []
    fence: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1).startswith(fence):
                fence = None
            out.append(line)
            i += 1
            continue
        if opener:
            fence = opener.group(1)
        elif _BORDER.fullmatch(line.strip()) and line.startswith("+") and i + 1 < len(lines) \
                and lines[i + 1].startswith("|"):
            md, i = _grid(lines, i)
            out.extend(md)
            continue
        elif (m := _UNDERLINE.fullmatch(line)) and out and _title(out[-1]) \
                and len(line.rstrip()) >= len(out[-1].strip()) \
                and (i + 1 == len(lines) or not lines[i + 1].strip()):
            char = m.group(1)
            if char not in levels:
                levels.append(char)
            out[-1] = "#" * min(3 + levels.index(char), 6) + " " + out[-1].strip()
            out.append("")
            i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out)
