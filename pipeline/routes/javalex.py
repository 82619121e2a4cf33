"""A small Java lexer, string-constant table and annotation/expression reader.

Regexes over raw Java are fooled by comments (`// @GetMapping("/old")`), string contents
(`"@Path"`) and text blocks; lexing first and then matching token sequences is not. Paths are
often built from `static final String` constants, so those are collected across the project.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(
    r'(?P<tb>"""[ \t]*\r?\n(?:[^"\\]|\\.|"(?!""))*""")'
    r'|(?P<str>"(?:[^"\\\n]|\\.)*")'
    r"|(?P<chr>'(?:[^'\\\n]|\\.)*')"
    r"|(?P<lc>//[^\n]*)"
    r"|(?P<bc>/\*.*?\*/)"
    r"|(?P<id>[A-Za-z_$][\w$]*)"
    r"|(?P<num>\d[\w.]*)"
    r"|(?P<ws>\s+)"
    r"|(?P<op>->|::|.)",
    re.S,
)
_ESCAPE = re.compile(r"\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "s": " ", "\n": ""}


@dataclass(frozen=True)
class Token:
    kind: str  # id | str | chr | num | op
    text: str
    line: int
    value: str = ""  # unescaped contents of a string literal


class Sym(str):
    """A bare (unresolved) identifier in an annotation, such as `RequestMethod.GET` → "GET"."""


def _unescape(body: str) -> str:
    def repl(m: re.Match[str]) -> str:
        esc = m.group(1)
        if esc[0] == "u":
            return chr(int(esc.lstrip("u"), 16))
        if esc[0].isdigit():
            return chr(int(esc, 8))
        return _SIMPLE.get(esc, esc)

    return _ESCAPE.sub(repl, body)


def tokenize(text: str) -> list[Token]:
    """Tokens of a Java source without comments or whitespace, with line numbers."""
    out: list[Token] = []
    line = 1
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "op"
        raw = m.group()
        if kind == "str":
            out.append(Token("str", raw, line, _unescape(raw[1:-1])))
        elif kind == "tb":
            body = raw[3:-3].split("\n", 1)[-1]
            out.append(Token("str", raw, line, _unescape(body)))
        elif kind in ("id", "num", "op", "chr"):
            out.append(Token(kind, raw, line))
        line += raw.count("\n")
    return out


def matching(tokens: list[Token], start: int) -> int:
    """Index of the bracket closing the one at `start` (or the last token if unbalanced)."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    opener = tokens[start].text
    closer = pairs[opener]
    depth = 0
    for i in range(start, len(tokens)):
        text = tokens[i].text if tokens[i].kind == "op" else ""
        if text == opener:
            depth += 1
        elif text == closer:
            depth -= 1
            if depth == 0:
                return i
    return len(tokens) - 1


@dataclass
class Constants:
    """`static final String NAME = ...;` across the project, by `NAME` and `Class.NAME`."""

    raw: dict[str, list[tuple[list[Token], str]]] = field(default_factory=dict)
    _cache: dict[tuple[str, str], str | None] = field(default_factory=dict)

    def collect(self, tokens: list[Token], file: str) -> None:
        cls = ""
        for i, tok in enumerate(tokens):
            is_decl = tok.kind == "id" and tok.text in ("class", "interface", "enum", "record")
            if is_decl and i + 1 < len(tokens) and tokens[i + 1].kind == "id":
                cls = tokens[i + 1].text  # the latest declared class owns what follows
            if not (tok.text == "String" and i + 3 < len(tokens)):
                continue
            name, eq = tokens[i + 1], tokens[i + 2]
            if name.kind != "id" or eq.text != "=":
                continue
            end = i + 3
            while end < len(tokens) and tokens[end].text not in (";", ","):
                end += 1
            expr = tokens[i + 3 : end]
            self.raw.setdefault(name.text, []).append((expr, file))
            if cls:
                self.raw.setdefault(f"{cls}.{name.text}", []).append((expr, file))

    def lookup(self, name: str, file: str, depth: int = 0) -> str | None:
        key = (name, file)
        if key in self._cache:
            return self._cache[key]
        self._cache[key] = None  # cycle guard
        cands = self.raw.get(name) or self.raw.get(name.rsplit(".", 1)[-1]) or []
        cands = sorted(cands, key=lambda c: c[1] != file)  # same file first
        value = None
        for expr, home in cands:
            value, _ = evaluate(expr, 0, self, home, depth + 1)
            if isinstance(value, str) and not isinstance(value, Sym):
                break
            value = None
        self._cache[key] = value
        return value


STOP = {",", ")", "}", ";", "]"}


def evaluate(
    tokens: list[Token], i: int, consts: Constants, file: str, depth: int = 0
) -> tuple[str | None, int]:
    """Evaluate a string expression (`"a" + Paths.B + ("c")`) starting at token `i`.

    Returns (value, index after the expression). A lone unresolved identifier chain comes
    back as a `Sym` of its last component; anything else unknown as None.
    """
    parts: list[str | None] = []
    lone_sym: Sym | None = None
    terms = 0
    while i < len(tokens) and tokens[i].text not in STOP:
        tok = tokens[i]
        if tok.kind == "str":
            parts.append(tok.value)
            i += 1
        elif tok.kind == "id":
            chain, i = _chain(tokens, i)
            if i < len(tokens) and tokens[i].text == "(":
                i = matching(tokens, i) + 1  # a method call: not static
                parts.append(None)
                continue
            value = _constant(chain, consts, file, depth)
            parts.append(value)
            lone_sym = Sym(chain[-1]) if value is None else None
        elif tok.text == "(":
            end = matching(tokens, i)
            inner, _ = evaluate(tokens[i + 1 : end], 0, consts, file, depth + 1)
            parts.append(inner)
            i = end + 1
        elif tok.text == "+":
            i += 1
            continue
        else:
            parts.append(None)
            i += 1
        terms += 1
    if terms == 1 and lone_sym is not None:
        return lone_sym, i
    if not parts or None in parts:
        return None, i
    return "".join(p for p in parts if p is not None), i


def _chain(tokens: list[Token], i: int) -> tuple[list[str], int]:
    """The dotted identifiers starting at `i` (`Paths.API.BASE`) and the index after them."""
    j = i
    chain = [tokens[i].text]
    while j + 2 < len(tokens) and tokens[j + 1].text == "." and tokens[j + 2].kind == "id":
        chain.append(tokens[j + 2].text)
        j += 2
    return chain, j + 1


def _constant(chain: list[str], consts: Constants, file: str, depth: int) -> str | None:
    """The constant a chain names: `Class.NAME` first, then `NAME` alone when the chain
    starts with a class name (`com.x.Paths.NAME` is qualified by packages too)."""
    dotted = ".".join(chain[-2:])
    value = consts.lookup(dotted, file, depth) if depth < 12 else None
    if value is None and len(chain) > 1:
        value = consts.lookup(chain[-1], file, depth) if chain[0][:1].isupper() else None
    if value is None and len(chain) == 1:
        value = consts.lookup(chain[0], file, depth)
    return value


def read_values(tokens: list[Token], i: int, consts: Constants, file: str) -> tuple[list, int]:
    """One annotation element value: a single expression or a `{a, b}` array."""
    if i < len(tokens) and tokens[i].text == "{":
        end = matching(tokens, i)
        values: list = []
        j = i + 1
        while j < end:
            value, j = evaluate(tokens, j, consts, file)
            values.append(value)
            j += 1  # skip the comma
        return values, end + 1
    value, j = evaluate(tokens, i, consts, file)
    return [value], j


def read_annotation_args(
    tokens: list[Token], open_paren: int, consts: Constants, file: str
) -> tuple[dict[str, list], int]:
    """`(value)` or `(name = value, ...)` → {"value": [...], "method": [...]}; returns the
    index after the closing parenthesis."""
    end = matching(tokens, open_paren)
    args: dict[str, list] = {}
    i = open_paren + 1
    while i < end:
        name = "value"
        if tokens[i].kind == "id" and i + 1 < end and tokens[i + 1].text == "=":
            name = tokens[i].text
            i += 2
        values, i = read_values(tokens, i, consts, file)
        args[name] = values
        while i < end and tokens[i].text != ",":
            i += 1
        i += 1
    return args, end + 1
