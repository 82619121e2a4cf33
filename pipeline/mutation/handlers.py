"""Which documented endpoint's handler a mutant changes.

Mutation evidence counts against a test only when it is about the test's own endpoints: a
success-path test of `GET /links` that kills none of the mutants planted in the `GET /links`
handler, while other tests kill them, misses a bug in exactly what it claims to test. Each
language says which lines serve which endpoint (`Language.handler_spans`, looked up by the
files' suffixes, never by a language's name); this module applies those spans to mutants.

For Python (`python_handler_spans`) route analysis (`pipeline.routes`) gives each route's
declaration line; the handler is the function decorated there (or defined there), and a
mutant belongs to an endpoint when its line falls inside that function, or inside a
module-level helper of the same file that few handlers call (a filter or validation helper;
`db()` or `error()` used everywhere is plumbing and maps to no endpoint). Java's rules are in
`pipeline.mutation.javahandlers`. `mutant_endpoints` is pure; `oracle_mutant_endpoints`
reads the oracle's routes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.languages import all_languages
from pipeline.routes import Route, extract_routes, match_endpoints

Span = tuple[str, int, int]  # file, first line, last line (inclusive)

# A helper called by more handlers than this is plumbing (connection, error body, auth).
MAX_HELPER_CALLERS = 3


@dataclass(frozen=True)
class Endpoint:
    """A documented endpoint as a test names it ("METHOD /path")."""

    method: str
    path: str

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def parse_keys(keys: Iterable[str]) -> list[Endpoint]:
    """`"GET /links"` strings (a case's `endpoints`) as endpoints, duplicates dropped."""
    out: list[Endpoint] = []
    for key in keys:
        method, _, path = key.strip().partition(" ")
        ep = Endpoint(method.upper(), path.strip())
        if path.strip() and ep not in out:
            out.append(ep)
    return out


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _span(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int]:
    start = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
    return start, fn.end_lineno or fn.lineno


def _handler_at(tree: ast.Module, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function a route declared on `line` dispatches to (decorated or defined there)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start, _ = _span(node)
            if start <= line <= node.lineno:
                return node
    return None


def _called_names(fn: ast.AST) -> set[str]:
    return {n.func.id for n in ast.walk(fn)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def python_spans(text: str, routes: Mapping[str, int]) -> dict[str, list[tuple[int, int]]]:
    """Line spans (inclusive) per endpoint key in one Python file: the handler declared at
    each route's line, plus same-file helpers called by at most `MAX_HELPER_CALLERS`
    handlers. `routes` maps an endpoint key to its route's declaration line."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    helpers = _functions(tree)
    handlers = {key: fn for key, line in routes.items() if (fn := _handler_at(tree, line))}
    handler_names = {fn.name for fn in handlers.values()}
    callers: dict[str, set[str]] = {}
    for fn in handlers.values():
        for name in _called_names(fn) & (set(helpers) - handler_names):
            callers.setdefault(name, set()).add(fn.name)
    out: dict[str, list[tuple[int, int]]] = {}
    for key, fn in handlers.items():
        spans = [_span(fn)]
        for name in sorted(_called_names(fn) & set(callers)):
            if len(callers[name]) <= MAX_HELPER_CALLERS:
                spans.append(_span(helpers[name]))
        out[key] = spans
    return out


def python_handler_spans(sources: Mapping[str, str], routes: Sequence[Route],
                         endpoints: Sequence[Endpoint]) -> dict[str, list[Span]]:
    """Endpoint key -> spans of its Python handler and own helpers (`python_spans`), for the
    endpoints a route declared in one of `sources` serves exactly (not through a prefix)."""
    by_file: dict[str, dict[str, int]] = {}
    for m in match_endpoints(endpoints, routes).matched:
        if m.route.file in sources and m.route.line and not m.route.prefix:
            key = f"{m.endpoint.method} {m.endpoint.path}"
            by_file.setdefault(m.route.file, {})[key] = m.route.line
    out: dict[str, list[Span]] = {}
    for file, lines in sorted(by_file.items()):
        for key, ranges in python_spans(sources[file], lines).items():
            out.setdefault(key, []).extend((file, a, b) for a, b in ranges)
    return out


def handler_spans(sources: Mapping[str, str], routes: Sequence[Route],
                  endpoints: Sequence[Endpoint]) -> dict[str, list[Span]]:
    """Endpoint key -> the spans serving it, from every language whose suffix some of
    `sources` has (each language sees only its own files)."""
    out: dict[str, list[Span]] = {}
    for lang in all_languages():
        mine = {f: t for f, t in sources.items() if f.endswith(lang.suffixes)}
        if mine and lang.handler_spans is not None:
            for key, spans in lang.handler_spans(mine, routes, endpoints).items():
                out.setdefault(key, []).extend(spans)
    return out


def mutant_endpoints(sources: Mapping[str, str], routes: Sequence[Route],
                     endpoints: Sequence[Endpoint],
                     mutants: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Mutant id -> the documented endpoint keys whose handler (or helper) holds its line.

    `sources` maps an oracle file (relative posix path, as in a mutant's `file`) to its text;
    `mutants` are the report's `mutants_detail` entries (`id`, `file`, `line`). Mutants that
    land in no handler are left out."""
    spans = handler_spans(sources, routes, endpoints)
    out: dict[str, list[str]] = {}
    for mutant in mutants:
        file, line = str(mutant.get("file", "")), int(mutant.get("line") or 0)
        keys = sorted(key for key, ranges in spans.items()
                      if any(f == file and a <= line <= b for f, a, b in ranges))
        if keys:
            out[str(mutant["id"])] = keys
    return out


def oracle_mutant_endpoints(oracle_dir: Path, sources: Mapping[str, str],
                            endpoint_keys: Iterable[str],
                            mutants: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """`mutant_endpoints` with the routes read from the oracle's source."""
    return mutant_endpoints(sources, extract_routes(oracle_dir), parse_keys(endpoint_keys),
                            mutants)


@dataclass(frozen=True)
class OwnMutants:
    """The valid mutants in a case's own endpoints' handlers, and those other cases kill."""

    mutants: list[str]
    killed_by_others: list[str]


def own_mutants(case_id: str, case_endpoints: Iterable[str], by_mutant: Mapping[str, list[str]],
                detail: Iterable[Mapping[str, Any]]) -> OwnMutants:
    """For one case: its endpoints' mutants that ran, and those some other case kills."""
    mine = set(case_endpoints)
    own, others = [], []
    for entry in detail:
        mid = str(entry["id"])
        if entry.get("status") not in ("killed", "survived") or not mine & set(
                by_mutant.get(mid, ())):
            continue
        own.append(mid)
        if any(k != case_id for k in entry.get("killed_by") or ()):
            others.append(mid)
    return OwnMutants(sorted(own), sorted(others))
