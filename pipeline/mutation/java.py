"""Mutants of an oracle's Java source: a small source-level set (pure).

Java has no parser in the standard library, so the operators are regular expressions run on a
*masked* copy of the file, where comments and the contents of string, char and text-block
literals are blanked out (same length, newlines kept): nothing inside a string or a comment is
ever mutated, and offsets and line numbers match the original. Operators:
- `status_code`: an int literal 100-599 passed as an argument (`new Reply(404, ...)`,
  `sendResponseHeaders(201, ...)`) changed like the Python one (404 -> 400, 201 -> 200, ...);
- `comparison`: `==` <-> `!=`; ` < ` -> ` >= `, ` > ` -> ` <= ` and back (only with spaces
  around, so generics such as `Map<String, Object>` are never touched);
- `boolean`: `true` <-> `false`, `&&` <-> `||`, `!` removed before an operand;
- `statement`: a one-line method-call statement replaced with `;` -- as `field_dropped` when it
  sets a response field (`out.put("name", ...)`), as `write_not_persisted` when it writes
  state (`items.put(id, item)`, `.add(`, `.remove(`);
- `validation_removed` / `filter_ignored`: `if (cond) { throw ...` / `if (cond) { continue;`
  with the condition replaced by `false`;
- `sort_ignored`: a `.sort(...)` statement removed (as above), a stream's `.sorted(...)` or a
  comparator's `.reversed()` dropped, `Comparator.reverseOrder()` <-> `naturalOrder()`;
- `pagination_off_by_one`: `.skip(n)` / `.limit(n)` -> `n + 1`, `subList(a, b)` -> `b - 1`,
  `(page - 1)` -> `page`;
- `default_changed`: `f("name", 20)` (`getOrDefault`, an `optional(body, "k", 0)` helper) and
  `@RequestParam(defaultValue = "20")` moved by one.
Nothing inside `static void main(...)` is mutated (start-up code, like Python's main guard),
nor in a method only start-up code calls (a shutdown hook's cleanup): no request reaches it.

The heuristics can produce code that does not compile; the runner reports such mutants as
`invalid` (javac fails when the mutant service starts) and they are not counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.mutation.javahandlers import Method, methods
from pipeline.routes.javalex import tokenize

from .model import Edit, Mutant, mutate_status, name_mutants

_STATUS = re.compile(r"(?<![\w.])([1-5]\d\d)(?![\w.])")
_EQUALITY = re.compile(r"(?<![=!<>])(==|!=)(?!=)")
_RELATIONAL = re.compile(r"(?<=\s)(<=|>=|<|>)(?=\s)")
_BOOL = re.compile(r"\b(true|false)\b")
_LOGICAL = re.compile(r"&&|\|\|")
_NOT = re.compile(r"!(?=[\w(])")
_CALL_STATEMENT = re.compile(
    r"^[ \t]*((?!(?:return|throw|new|super|this|yield|assert)\b)"
    r"[A-Za-z_][\w.]*(?:\([^;{}]*\))?(?:\.[A-Za-z_]\w*\([^;{}]*\))*\.[A-Za-z_]\w*\([^;{}]*\);)"
    r"[ \t]*$",
    re.MULTILINE,
)
_MAIN = re.compile(r"\bstatic\s+void\s+main\s*\([^)]*\)[^{;]*\{")
_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
         "true": "false", "false": "true", "&&": "||", "||": "&&"}
_IF = re.compile(r"\bif\s*\(")
_FIELD_PUT = re.compile(r"\.put\(\s*\"")
_WRITE = re.compile(r"\.(?:put|add|remove|addAll|removeIf|clear|offer)\(")
_SORT_CALL = re.compile(r"\.sort\(")
_SORTED = re.compile(r"\.sorted\(")
_REVERSED = re.compile(r"\.reversed\(\s*\)")
_ORDER_SWAP = re.compile(r"\bComparator\s*\.\s*(reverseOrder|naturalOrder)\(\s*\)")
_PAGE_CALL = re.compile(r"\.(skip|limit|subList)\(")
_PAGE_MINUS = re.compile(r"\(\s*(\w*[pP]age\w*)\s*-\s*1\s*\)")
_DEFAULT_ARG = re.compile(r'"[^"\n]*"\s*,\s*(\d+(?:\.\d+)?)(?=[lLdD]?\s*[,)])')
_DEFAULT_VALUE = re.compile(r'\bdefaultValue\s*=\s*"')
_ORDER = ("validation_removed", "write_not_persisted", "field_dropped", "filter_ignored",
          "sort_ignored", "pagination_off_by_one", "default_changed", "status_code",
          "comparison", "boolean", "statement")


def mask_java(source: str) -> str:
    """`source` with comments and literal contents replaced by spaces (newlines kept)."""
    out = list(source)
    n = len(source)

    def blank(start: int, end: int) -> None:
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    i = 0
    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        elif source.startswith('"""', i):
            end = source.find('"""', i + 3)
            end = n if end < 0 else end
            blank(i + 3, end)
            i = end + 3
        elif source[i] in "\"'":
            quote, j = source[i], i + 1
            while j < n and source[j] != quote and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def _prev_char(masked: str, pos: int) -> str:
    k = pos - 1
    while k >= 0 and masked[k] in " \t\r\n":
        k -= 1
    return masked[k] if k >= 0 else ""


def java_edits(source: str) -> list[Edit]:
    """Every candidate edit of a Java file, in source order."""
    masked = mask_java(source)

    def line(pos: int) -> int:
        return masked.count("\n", 0, pos) + 1

    edits: list[Edit] = []
    for m in _STATUS.finditer(masked):
        if _prev_char(masked, m.start()) in "(,":
            old = int(m.group(1))
            new = mutate_status(old)
            edits.append(Edit(m.start(), m.end(), line(m.start()), "status_code",
                              f"status {old} -> {new}", str(new)))
    for pattern in (_EQUALITY, _RELATIONAL):
        for m in pattern.finditer(masked):
            old = m.group(0)
            edits.append(Edit(m.start(), m.end(), line(m.start()), "comparison",
                              f"`{old}` -> `{_FLIP[old]}`", _FLIP[old]))
    for pattern in (_BOOL, _LOGICAL):
        for m in pattern.finditer(masked):
            old = m.group(0)
            edits.append(Edit(m.start(), m.end(), line(m.start()), "boolean",
                              f"`{old}` -> `{_FLIP[old]}`", _FLIP[old]))
    for m in _NOT.finditer(masked):
        edits.append(Edit(m.start(), m.end(), line(m.start()), "boolean", "`!` removed", ""))
    for m in _CALL_STATEMENT.finditer(masked):
        text = source[m.start(1):m.end(1)]
        kind, what = _statement_kind(m.group(1))
        edits.append(Edit(m.start(1), m.end(1), line(m.start(1)), kind,
                          f"{what} `{_short(text)}` removed", ";"))
    edits += _if_edits(masked, line)
    edits += _realistic_edits(source, masked, line)
    skip = _main_body(masked)
    startup = _startup_only(source)
    edits = [e for e in edits if not (skip[0] <= e.start < skip[1])
             and not any(a <= e.line <= b for a, b in startup)]
    return sorted(edits, key=lambda e: (e.start, _ORDER.index(e.operator), e.end, e.text))


def _statement_kind(masked_stmt: str) -> tuple[str, str]:
    """`out.put("name", ...)` sets a response field; `items.put(id, ...)`, `.add(`, `.remove(`
    write the service's state; any other call statement is a plain `statement` mutant."""
    if _SORT_CALL.search(masked_stmt):
        return "sort_ignored", "sort"
    if _FIELD_PUT.search(masked_stmt):
        return "field_dropped", "field"
    if _WRITE.search(masked_stmt):
        return "write_not_persisted", "write"
    return "statement", "statement"


def _if_edits(masked: str, line: Callable[[int], int]) -> list[Edit]:
    """`if (cond) { throw ...` -> `if (false)` (validation removed); `if (cond) { continue;`
    -> `if (false)` (filter ignored)."""
    out = []
    for m in _IF.finditer(masked):
        depth, k = 0, m.end() - 1
        while k < len(masked):
            depth += {"(": 1, ")": -1}.get(masked[k], 0)
            if depth == 0:
                break
            k += 1
        after = masked[k + 1:k + 200].lstrip()
        if not after.startswith("{"):
            continue
        first = after[1:].lstrip()
        kind = ("validation_removed" if first.startswith("throw ") else
                "filter_ignored" if first.startswith("continue;") else None)
        if kind is not None:
            cond = " ".join(masked[m.end():k].split())
            what = "check" if kind == "validation_removed" else "filter"
            out.append(Edit(m.end(), k, line(m.end()), kind,
                            f"{what} `if ({_short(cond)})` never taken", "false"))
    return out


def _close(masked: str, open_: int) -> int:
    """Offset of the `)` closing the `(` at `open_` (len(masked) when unbalanced)."""
    depth = 0
    for k in range(open_, len(masked)):
        depth += {"(": 1, ")": -1}.get(masked[k], 0)
        if depth == 0:
            return k
    return len(masked)


def _top_comma(masked: str, open_: int, close: int) -> int | None:
    depth = 0
    for k in range(open_ + 1, close):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(masked[k], 0)
        if masked[k] == "," and depth == 0:
            return k
    return None


def _realistic_edits(source: str, masked: str, line: Callable[[int], int]) -> list[Edit]:
    """Sorts ignored, pages off by one and defaults moved (see the module docstring)."""
    return (_sort_edits(source, masked, line) + _page_edits(masked, line)
            + _default_edits(source, masked, line))


def _sort_edits(source: str, masked: str, line: Callable[[int], int]) -> list[Edit]:
    """A sort dropped or its direction turned: the order a listing promises is lost."""
    out = []
    for m in _SORTED.finditer(masked):
        close = _close(masked, m.end() - 1)
        out.append(Edit(m.start(), close + 1, line(m.start()), "sort_ignored",
                        f"`{_short(source[m.start():close + 1])}` dropped", ""))
    for m in _REVERSED.finditer(masked):
        out.append(Edit(m.start(), m.end(), line(m.start()), "sort_ignored",
                        "`.reversed()` dropped", ""))
    for m in _ORDER_SWAP.finditer(masked):
        new = "naturalOrder" if m.group(1) == "reverseOrder" else "reverseOrder"
        out.append(Edit(m.start(1), m.end(1), line(m.start()), "sort_ignored",
                        f"sort direction `{m.group(1)}` -> `{new}`", new))
    return out


def _page_edits(masked: str, line: Callable[[int], int]) -> list[Edit]:
    """A page's bounds moved by one: one item too many, too few or shifted."""
    out = []
    for m in _PAGE_CALL.finditer(masked):
        close = _close(masked, m.end() - 1)
        if close >= len(masked) or not masked[m.end():close].strip():
            continue
        if m.group(1) == "subList":
            if _top_comma(masked, m.end() - 1, close) is None:
                continue
            out.append(Edit(close, close, line(m.start()), "pagination_off_by_one",
                            "`subList` end - 1", " - 1"))
        else:
            out.append(Edit(close, close, line(m.start()), "pagination_off_by_one",
                            f"`.{m.group(1)}(...)` + 1", " + 1"))
    for m in _PAGE_MINUS.finditer(masked):
        out.append(Edit(m.start(), m.end(), line(m.start()), "pagination_off_by_one",
                        f"`{m.group(1)} - 1` -> `{m.group(1)}`", f"({m.group(1)})"))
    return out


def _default_edits(source: str, masked: str, line: Callable[[int], int]) -> list[Edit]:
    """A default value one more than documented: only a request that omits it notices."""
    out = []
    for m in _DEFAULT_ARG.finditer(masked):
        old = m.group(1)
        new = str(float(old) + 1) if "." in old else str(int(old) + 1)
        name = source[m.start():m.start(1)].split(",")[0].strip()
        out.append(Edit(m.start(1), m.end(1), line(m.start(1)), "default_changed",
                        f"value given with {_short(name)} {old} -> {new}", new))
    for m in _DEFAULT_VALUE.finditer(masked):
        end = masked.find('"', m.end())
        old = source[m.end():end]
        if end > 0 and old.isdigit():
            out.append(Edit(m.end(), end, line(m.end()), "default_changed",
                            f"defaultValue {old} -> {int(old) + 1}", str(int(old) + 1)))
    return out


def _startup_only(source: str) -> list[tuple[int, int]]:
    """Line ranges of the methods called only from `main` or from other such methods (never
    referenced with `::`, which hands them to the server as a handler)."""
    toks = tokenize(source)
    decls = methods("", toks)
    referenced = {toks[j + 1].text for j in range(len(toks) - 1) if toks[j].text == "::"}

    def direct(m: Method) -> set[str]:
        a, b = m.body
        return {toks[j].text for j in range(a, b) if toks[j].kind == "id"
                and toks[j + 1].text == "(" and toks[j - 1].text != "::"}

    called = {m: direct(m) for m in decls}
    startup = {m for m in decls if m.name == "main"}
    grew = bool(startup)
    while grew:
        grew = False
        for m in decls:
            callers = [d for d in decls if d != m and m.name in called[d]]
            if (m not in startup and m.name not in referenced and callers
                    and all(d in startup for d in callers)):
                startup.add(m)
                grew = True
    return [(m.first, m.last) for m in startup if m.name != "main"]


def _main_body(masked: str) -> tuple[int, int]:
    """Offsets of `static void main(...)`'s body (start-up code: mutants there only fail to
    start), or an empty range."""
    m = _MAIN.search(masked)
    if m is None:
        return (0, 0)
    depth = 0
    for k in range(m.end() - 1, len(masked)):
        if masked[k] == "{":
            depth += 1
        elif masked[k] == "}":
            depth -= 1
            if depth == 0:
                return (m.end(), k)
    return (m.end(), len(masked))


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def java_mutants(path: str, source: str) -> list[Mutant]:
    """The mutants of one Java file (not compile-checked: see the module docstring)."""
    kept: list[tuple[Edit, str]] = []
    seen = {source}
    for edit in java_edits(source):
        mutated = source[: edit.start] + edit.text + source[edit.end:]
        if mutated not in seen:
            seen.add(mutated)
            kept.append((edit, mutated))
    return name_mutants(path, kept)
