"""The requirement document's passages a test is about (pure): the text on each endpoint it
calls, and the lines that state each literal its assertions compare with.

A reviewer or an Area Chair judging "does the document say so?" needs both: the endpoint's
section alone can miss the limit a test checks (stated in a rules section), and a literal the
document never states (a 422, an error word, an id format) is the mark of an over-specified
test, so an absent literal is reported as such rather than left out.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache

from pipeline.records import Spec

MAX_EXCERPT_LINES = 60
MAX_LITERAL_HITS = 3  # lines shown per literal (the count of the rest is given)
_TRIVIAL_NUMBERS = {0, 1}  # stated nowhere and everywhere: `len(x) == 0`, `count == 1`


@dataclass(frozen=True)
class Passage:
    """`about` is an endpoint ("GET /events") or a literal as the test writes it (`422`,
    `'done'`); `lines` are (1-based number, text); none when the document does not state it.
    `within` names the endpoint passages already showing every line of a literal's hits."""

    kind: str  # endpoint | literal
    about: str
    lines: tuple[tuple[int, str], ...]
    more: int = 0  # further lines stating the literal, not shown
    within: tuple[str, ...] = ()

    @property
    def stated(self) -> bool:
        return bool(self.lines)

    @property
    def text(self) -> str:
        return "\n".join(t for _, t in self.lines)


def endpoint_excerpt(readme: str, line: int, endpoint_lines: frozenset[int]) -> str:
    """The document's text on the endpoint first named at `line`: the heading above it, then
    from that line to the next endpoint's or the next heading (bounded); empty when unknown."""
    return "\n".join(t for _, t in _endpoint_lines(readme, line, endpoint_lines)).strip()


@lru_cache(maxsize=1024)
def _endpoint_lines(readme: str, line: int,
                    endpoint_lines: frozenset[int]) -> tuple[tuple[int, str], ...]:
    """Cached: each review prompt of a round shows its endpoints' excerpts, and splitting the
    whole document into lines for each was a tenth of a round's prompt making."""
    lines = readme.splitlines()
    if not 0 < line <= len(lines):
        return ()
    first = line - 1
    head = first
    while head > 0 and not lines[head].startswith("#"):
        head -= 1
    starts = {n - 1 for n in endpoint_lines if n - 1 > first}
    end = first + 1
    while end < len(lines) and end - first < MAX_EXCERPT_LINES and end not in starts \
            and not lines[end].startswith("#"):
        end += 1
    numbers = list(range(first, end))
    if head != first and lines[head].startswith("#"):
        numbers = [head, *numbers] if head + 1 < first else list(range(head, end))
    picked = [(n + 1, lines[n]) for n in numbers]
    while picked and not picked[-1][1].strip():
        picked.pop()
    return tuple(picked)


def compared_literals(code: str) -> list[str | int | float]:
    """The constants the test's assertions compare with, in order, once each: both sides of
    each comparison, the members of an `in (...)` set, and the string keys of the values
    compared (`body["status"] == "done"` gives "status" and "done")."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    seen: dict[tuple[type, object], str | int | float] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        for compare in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
            for side in (compare.left, *compare.comparators):
                for value in _constants(side):
                    seen.setdefault((type(value), value), value)
    return [v for v in seen.values() if _worth_finding(v)]


def _constants(node: ast.AST) -> list[str | int | float]:
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str | int | float) \
            and not isinstance(node.value, bool) else []
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [v for e in node.elts for v in _constants(e)]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return [-v for v in _constants(node.operand) if not isinstance(v, str)]
    keys: list[str | int | float] = []
    for sub in ast.walk(node):  # `body["data"]["status"]`, `body.get("status")`
        if isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) \
                and isinstance(sub.slice.value, str):
            keys.append(sub.slice.value)
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                and sub.func.attr == "get" and sub.args and isinstance(sub.args[0], ast.Constant) \
                and isinstance(sub.args[0].value, str):
            keys.append(sub.args[0].value)
    return keys


def _worth_finding(value: str | int | float) -> bool:
    if isinstance(value, str):
        return len(value.strip()) >= 2
    return value not in _TRIVIAL_NUMBERS


def literal_pattern(value: str | int | float) -> re.Pattern[str]:
    """A number as a whole number (422 not in 4220 or 1.422); a string as written, on word
    boundaries where it starts or ends with a word character."""
    text = str(value) if not isinstance(value, float) or not value.is_integer() else \
        str(int(value))
    left = r"(?<![\w.])" if not isinstance(value, str) or text[:1].isalnum() else ""
    right = r"(?![\w])" if not isinstance(value, str) or text[-1:].isalnum() else ""
    if not isinstance(value, str):
        right = r"(?!\w|\.\d)"
    return re.compile(left + re.escape(text) + right)


def case_passages(readme: str, spec: Spec | None, endpoints: list[str],
                  code: str) -> list[Passage]:
    """Each endpoint's passage, then each compared literal's lines (case-sensitive first; a
    string found only in another case counts, as documents capitalise freely)."""
    lines = readme.splitlines()
    out: list[Passage] = []
    shown: dict[int, str] = {}
    if spec is not None:
        marks = frozenset(e.line for e in spec.endpoints)
        wanted = set(endpoints)
        for ep in spec.endpoints:
            key = f"{ep.method} {ep.path}"
            if key not in wanted or ep.line <= 0 or any(p.about == key for p in out):
                continue
            picked = _endpoint_lines(readme, ep.line, marks)
            if picked:
                out.append(Passage("endpoint", key, picked))
                shown.update((n, key) for n, _ in picked)
    for value in compared_literals(code):
        about = repr(value) if isinstance(value, str) else str(value)
        hits = _hits(lines, value)
        within = tuple(dict.fromkeys(shown[n] for n in hits if n in shown))
        if hits and all(n in shown for n in hits):
            out.append(Passage("literal", about, tuple((n, lines[n - 1]) for n in hits[:1]),
                               within=within))
            continue
        fresh = [n for n in hits if n not in shown] or hits
        out.append(Passage("literal", about,
                           tuple((n, lines[n - 1]) for n in fresh[:MAX_LITERAL_HITS]),
                           more=max(0, len(fresh) - MAX_LITERAL_HITS), within=within))
    return out


def _hits(lines: list[str], value: str | int | float) -> list[int]:
    pattern = literal_pattern(value)
    found = [i + 1 for i, t in enumerate(lines) if pattern.search(t)]
    if not found and isinstance(value, str):
        folded = re.compile(pattern.pattern, re.I)
        found = [i + 1 for i, t in enumerate(lines) if folded.search(t)]
    return found
