"""Annotation-declared Java routes: Spring MVC/WebFlux, JAX-RS (Quarkus, Jersey), Micronaut.

The token stream is walked once, attaching annotations to the class or method they precede;
a route is then class path × method path for every method carrying a mapping annotation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.routes.javalex import Constants, Sym, Token, read_annotation_args
from pipeline.routes.model import (
    ANY_METHOD,
    HTTP_VERBS,
    Route,
    join_paths,
    normalize_path,
    split_wildcard,
)

SPRING = {
    "GetMapping": "GET",
    "PostMapping": "POST",
    "PutMapping": "PUT",
    "DeleteMapping": "DELETE",
    "PatchMapping": "PATCH",
    "RequestMapping": ANY_METHOD,
}
JAXRS = {v: v for v in ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")}
MICRONAUT = {v.title(): v for v in ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")}
DECL_KEYWORDS = {"class", "interface", "enum", "record"}

Annotations = dict[str, dict[str, list]]


@dataclass
class _Class:
    name: str
    annotations: Annotations
    body_depth: int


@dataclass
class _Method:
    cls: _Class | None
    annotations: Annotations
    line: int


@dataclass
class _Scan:
    classes: list[_Class] = field(default_factory=list)
    methods: list[_Method] = field(default_factory=list)


@dataclass
class _Walk:
    """The walk's state between tokens: the annotations read but not yet attached, the
    classes whose bodies enclose the current token, and the brace depth."""

    scan: _Scan = field(default_factory=_Scan)
    stack: list[_Class] = field(default_factory=list)
    pending: Annotations = field(default_factory=dict)
    pending_line: int = 0
    depth: int = 0
    opening: _Class | None = None  # declared, its body's brace not yet read

    def clear(self) -> None:
        self.pending, self.pending_line = {}, 0

    def declare_class(self, name: str) -> None:
        self.opening = _Class(name, self.pending, -1)
        self.scan.classes.append(self.opening)
        self.clear()

    def declare_method(self, line: int) -> None:
        """Only a method directly in a class body is one (not a call inside a method)."""
        if self.stack and self.depth == self.stack[-1].body_depth:
            self.scan.methods.append(_Method(self.stack[-1], self.pending,
                                             self.pending_line or line))
        self.clear()

    def open_brace(self) -> None:
        self.depth += 1
        if self.opening is not None:
            self.opening.body_depth = self.depth
            self.stack.append(self.opening)
            self.opening = None
        self.clear()

    def close_brace(self) -> None:
        self.depth -= 1
        while self.stack and self.depth < self.stack[-1].body_depth:
            self.stack.pop()


def _scan(tokens: list[Token], consts: Constants, file: str) -> _Scan:
    """Attach each run of annotations to the class or method declaration that follows it."""
    walk = _Walk()
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.kind == "op" and tok.text == "@" and i + 1 < len(tokens) \
                and tokens[i + 1].kind == "id":
            i = _annotation(walk, tokens, i, consts, file)
            continue
        _step(walk, tokens, i)
        i += 1
    return walk.scan


def _annotation(walk: _Walk, tokens: list[Token], i: int, consts: Constants, file: str) -> int:
    """Read the annotation at `tokens[i]` (the `@`) into the pending ones; the index after it."""
    if tokens[i + 1].text == "interface":  # @interface: an annotation type
        return i + 1
    j = i + 1
    while j + 2 < len(tokens) and tokens[j + 1].text == "." and tokens[j + 2].kind == "id":
        j += 2
    name = tokens[j].text
    args: dict[str, list] = {}
    j += 1
    if j < len(tokens) and tokens[j].text == "(":
        args, j = read_annotation_args(tokens, j, consts, file)
    walk.pending.setdefault(name, args)
    walk.pending_line = walk.pending_line or tokens[i].line
    return j


def _step(walk: _Walk, tokens: list[Token], i: int) -> None:
    """A token other than an annotation: declarations take the pending annotations, braces
    track the class bodies, and a statement's end drops annotations no declaration took."""
    tok = tokens[i]
    text = tok.text if tok.kind == "op" else ""
    if tok.kind == "id" and tok.text in DECL_KEYWORDS and (i == 0 or tokens[i - 1].text != "."):
        walk.declare_class(tokens[i + 1].text if i + 1 < len(tokens) else "")
    elif text == "(" and walk.pending and i and tokens[i - 1].kind == "id":
        walk.declare_method(tok.line)
    elif text == "{":
        walk.open_brace()
    elif text == "}":
        walk.close_brace()
    elif text in (";", "="):
        walk.clear()


def _paths(args: dict[str, list] | None, *names: str) -> list[str]:
    """String values of the first present element among `names` (default: [""])."""
    if not args:
        return [""]
    for name in names:
        if name in args:
            found = [v for v in args[name] if isinstance(v, str) and not isinstance(v, Sym)]
            return found or ([""] if not args[name] else [])
    return [""]


def _request_methods(args: dict[str, list]) -> list[str]:
    methods = [str(v).upper() for v in args.get("method", []) if isinstance(v, str)]
    methods = [m for m in methods if m in HTTP_VERBS]
    return methods or [ANY_METHOD]


def _emit(out: list[Route], method: str, path: str, file: str, line: int, fw: str) -> None:
    path, prefix = split_wildcard(normalize_path(path))
    out.append(Route(method, path, prefix, file, line, fw))


def _spring(m: _Method, file: str, out: list[Route]) -> bool:
    mapping = [a for a in m.annotations if a in SPRING]
    if not mapping:
        return False
    cls_args = m.cls.annotations.get("RequestMapping") if m.cls else None
    bases = _paths(cls_args, "value", "path")
    for name in mapping:
        args = m.annotations[name]
        methods = _request_methods(args) if name == "RequestMapping" else [SPRING[name]]
        for base in bases:
            for sub in _paths(args, "value", "path"):
                for method in methods:
                    _emit(out, method, join_paths(base, sub), file, m.line, "spring")
    return True


def _jaxrs(m: _Method, file: str, out: list[Route], app_path: str) -> bool:
    verbs = [JAXRS[a] for a in m.annotations if a in JAXRS]
    if not verbs and "Path" not in m.annotations:
        return False
    cls_args = m.cls.annotations.get("Path") if m.cls else None
    base = join_paths(app_path, _paths(cls_args, "value")[0])
    for sub in _paths(m.annotations.get("Path"), "value"):
        path = join_paths(base, sub)
        if not verbs:  # a sub-resource locator: everything beneath it
            out.append(Route(ANY_METHOD, normalize_path(path), True, file, m.line, "jaxrs"))
        for verb in verbs:
            _emit(out, verb, path, file, m.line, "jaxrs")
    return True


def _micronaut(m: _Method, file: str, out: list[Route]) -> bool:
    verbs = [a for a in m.annotations if a in MICRONAUT]
    if not verbs or m.cls is None or "Controller" not in m.cls.annotations:
        return False
    bases = _paths(m.cls.annotations["Controller"], "value") or ["/"]
    for name in verbs:
        for base in bases:
            for sub in _paths(m.annotations[name], "value", "uri", "uris"):
                _emit(out, MICRONAUT[name], join_paths(base or "/", sub), file, m.line, "micronaut")
    return True


def application_path(tokens: list[Token], consts: Constants, file: str) -> str | None:
    """The JAX-RS `@ApplicationPath("/api")` value, which prefixes every resource."""
    for i, tok in enumerate(tokens[:-2]):
        if (
            tok.text == "@"
            and tokens[i + 1].text == "ApplicationPath"
            and tokens[i + 2].text == "("
        ):
            args, _ = read_annotation_args(tokens, i + 2, consts, file)
            found = _paths(args, "value")
            return found[0] if found else None
    return None


def annotated_routes(
    tokens: list[Token], consts: Constants, file: str, app_path: str
) -> list[Route]:
    """Routes declared by annotations in one Java file."""
    out: list[Route] = []
    if not any(t.text == "@" for t in tokens):
        return out
    for m in _scan(tokens, consts, file).methods:
        _spring(m, file, out) or _micronaut(m, file, out) or _jaxrs(m, file, out, app_path)
    return out
