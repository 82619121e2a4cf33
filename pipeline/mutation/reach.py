"""Which tests can reach a mutant (pure): the tests to run against it when only "killed by
whom" matters and a test that never executes the mutated code cannot tell it from the oracle.

Where the unmutated run measured the oracle's lines per test (`cover`), a mutant is reached
by the tests whose bodies ran its statement (`line_hits`); a statement start-up code or a
fixture ran is reached by every test, and one no test ran by none. Where nothing was
measured, routes stand in (`route_hits`): a mutant in the body of a route handler (a Python
function a route is declared on, decorated or defined at the route's line) runs only when a
request that route serves arrives, so it is reached by the tests whose own requests (sent
while the test body ran, as the execution hooks log them) one of its routes serves; every
test reaches a mutant outside every handler body, one in a handler whose name the sources use
elsewhere (called or registered from other code), and one whose route a request sent outside
a test body serves; a test with no logged request may reach anything. Matching is generous:
a request matches a route after dropping any number of leading path segments and with or
without a trailing slash.

Tests share a service, so a test that does not reach the mutant still runs where another
depends on it (`reaching`): the state-changing tests before the last test that reaches it
(they stored what it reads), and, where a test that reaches it changes state, every later
test (it may read what the mutant stored). Generous choices cost runs, never kills: the kill
matrix is the one running every test gives, as long as requests of a safe method change
nothing and a test's values do not depend on the tests before it (the generated conftest
seeds them per test); human files run whole or not at all (`suite_runs`).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.routes import Route, method_rank
from pipeline.routes.match import shape
from pipeline.suite_runs import HUMAN_DIR, Group

from .model import Mutant

Span = tuple[str, int, int]  # file, first body line, last line (inclusive)


@dataclass(frozen=True)
class Sent:
    """One logged request: the test it belongs to (None: before any test), the phase it was
    sent in ("setup", "call", "teardown"), its method and path."""

    nodeid: str | None
    phase: str
    method: str
    path: str


def read_request_log(text: str) -> list[Sent]:
    """The execution hooks' JSONL log (`nodeid`, `phase`, `method`, `path` per line); an entry
    without a phase (an older hook) counts as sent outside a test body."""
    out = []
    for line in text.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(rec, dict):
            out.append(Sent(rec.get("nodeid"), str(rec.get("phase") or "setup"),
                            str(rec.get("method") or "GET"), str(rec.get("path") or "/")))
    return out


def _handler_at(tree: ast.Module, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if start <= line <= node.lineno:
                return node
    return None


def _used_names(trees: Iterable[ast.Module]) -> set[str]:
    """Every name the sources read or any attribute they take: a handler named here is
    called or registered from other code."""
    used: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                used.add(node.id)
            elif isinstance(node, ast.Attribute):
                used.add(node.attr)
    return used


def handler_bodies(sources: Mapping[str, str], routes: Sequence[Route]
                   ) -> list[tuple[Span, list[Route]]]:
    """The body span of each Python handler no other code names, with the routes it serves."""
    trees: dict[str, ast.Module] = {}
    for file, text in sources.items():
        if file.endswith(".py"):
            try:
                trees[file] = ast.parse(text)
            except SyntaxError:
                continue
    used = _used_names(trees.values())
    found: dict[Span, list[Route]] = {}
    for route in routes:
        tree = trees.get(route.file)
        fn = _handler_at(tree, route.line) if tree is not None and route.line else None
        if fn is None or fn.name in used or not fn.body:
            continue
        span = (route.file, fn.body[0].lineno, fn.end_lineno or fn.body[-1].lineno)
        found.setdefault(span, []).append(route)
    return sorted(found.items(), key=lambda item: item[0])


def mutant_routes(bodies: Sequence[tuple[Span, list[Route]]],
                  mutants: Iterable[Mapping[str, Any]]) -> dict[str, list[Route] | None]:
    """Mutant id -> the routes whose handler body holds its line; None: any request may run it."""
    out: dict[str, list[Route] | None] = {}
    for mutant in mutants:
        file, line = str(mutant.get("file", "")), int(mutant.get("line") or 0)
        hits = [r for (f, a, b), rs in bodies if f == file and a <= line <= b for r in rs]
        out[str(mutant["id"])] = hits or None
    return out


_QUERY = re.compile(r"[?#].*$")


def serves(route: Route, method: str, path: str) -> bool:
    """Whether `route` may serve the request, after dropping any leading path segments."""
    if method_rank(method, route.method) is None:
        return False
    want = [s for s in shape(route.path) if s != ""]
    got = [s for s in _QUERY.sub("", path).split("/") if s != ""]
    for start in range(len(got) + 1):
        rest = got[start:]
        if route.prefix and len(rest) >= len(want) and _fits(want, rest[:len(want)]):
            return True
        if len(rest) == len(want) and _fits(want, rest):
            return True
    return False


def _fits(pattern: Sequence[str], segments: Sequence[str]) -> bool:
    return all(p == s or "{" in p for p, s in zip(pattern, segments, strict=True))


SAFE = frozenset({"GET", "HEAD", "OPTIONS"})  # methods that leave the service's state as is


def _header(node: ast.stmt) -> range:
    """The lines a statement spans before its first inner statement (all of a simple one)."""
    body = getattr(node, "body", None)
    end = node.end_lineno or node.lineno
    if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
        end = max(node.lineno, body[0].lineno - 1)
    return range(node.lineno, end + 1)


def statement_lines(source: str, line: int) -> set[int] | None:
    """The lines of the innermost statement holding `line` (a compound statement's header
    only): where a tracer reports it ran. None when the file does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    spans = [_header(n) for n in ast.walk(tree) if isinstance(n, ast.stmt)]
    holding = [r for r in spans if line in r]
    return set(max(holding, key=lambda r: r.start)) if holding else {line}


def line_hits(cov: Mapping[str, Mapping[str, set[int]]], file: str,
              lines: set[int] | None) -> set[str] | None:
    """The tests whose bodies ran one of `lines` of `file`; None where code outside a test
    body ran them (start-up, a fixture: every test depends on it) or they are unknown."""
    if lines is None:
        return None
    hits: set[str] = set()
    for context, files in cov.items():
        if lines & set(files.get(file, ())):
            if not context.startswith("call:"):
                return None
            hits.add(context.removeprefix("call:"))
    return hits


def route_hits(routes: list[Route] | None, sent: Sequence[Sent],
               nodeids: Sequence[str]) -> set[str] | None:
    """The tests whose own requests a route of the mutant's handler serves, and those that
    logged none (they may reach it some other way); None: every test."""
    if routes is None:
        return None

    def hit(s: Sent) -> bool:
        return any(serves(r, s.method, s.path) for r in routes)

    if any(hit(s) for s in sent if s.phase != "call" or s.nodeid is None):
        return None
    logged = {s.nodeid for s in sent if s.phase == "call"}
    return {s.nodeid for s in sent if s.phase == "call" and s.nodeid and hit(s)} | \
        {n for n in nodeids if n not in logged}


def reaching(hits: set[str] | None, sent: Sequence[Sent], nodeids: Sequence[str]) -> list[str]:
    """The tests of `nodeids` (in their order) to run against a mutant that `hits` reach:
    those, every test before the last of them that changes the service's state (what they
    stored is what the later ones read), and, where a test that reaches the mutant changes
    state itself, every test from the first that reaches it on (a later test may read what
    the mutant stored). A test that logged no request may change anything. Empty: nothing
    reaches the mutant; `hits` None: every test."""
    if hits is None:
        return list(nodeids)
    found = [i for i, n in enumerate(nodeids) if n in hits]
    if not found:
        return []
    seen = {s.nodeid for s in sent}
    writers = {s.nodeid for s in sent if s.method.upper() not in SAFE} | \
        {n for n in nodeids if n not in seen}
    keep = set(found) | {i for i, n in enumerate(nodeids) if i < found[-1] and n in writers}
    if any(nodeids[i] in writers for i in found):
        keep |= set(range(found[0], len(nodeids)))
    return [nodeids[i] for i in sorted(keep)]


@dataclass(frozen=True)
class Baseline:
    """What the unmutated run showed of the tests: the oracle lines each ran, by coverage
    context (`cover`; empty where nothing was measured), and the requests each sent."""

    lines: Mapping[str, Mapping[str, set[int]]]
    sent: Sequence[Sent]


def plan_groups(mutants: Sequence[Mutant], sources: Mapping[str, str], routes: Sequence[Route],
                baseline: Baseline, groups: Sequence[Group], members: Sequence[Sequence[str]]
                ) -> dict[str, list[Group]]:
    """Per mutant, the groups of the suite to run it with (`members`: each group's node ids
    in run order): each group that has a test to run (`reaching`), a human file whole, the
    generated tests narrowed by `--deselect` (order and node ids stay). Which tests reach a
    mutant comes from the measured lines where the service measured its tests, else from
    the routes of the handler holding it."""
    lines, sent = baseline.lines, baseline.sent
    by_lines = any(c.startswith("call:") for c in lines)
    bodies = [] if by_lines else handler_bodies(sources, routes)
    by_route = mutant_routes(bodies, [m.summary() for m in mutants])
    every = [n for ids in members for n in ids]
    plans: dict[str, list[Group]] = {}
    for mutant in mutants:
        if by_lines:
            hits = line_hits(lines, mutant.file,
                             statement_lines(sources.get(mutant.file, ""), mutant.line))
        else:
            hits = route_hits(by_route.get(mutant.id), sent, every)
        chosen: list[Group] = []
        for group, ids in zip(groups, members, strict=True):
            keep = set(reaching(hits, sent, ids))
            if not keep:
                continue
            human = any(n.startswith(f"{HUMAN_DIR}/") for n in ids)
            chosen.append(tuple(group) if human else
                          (*group, *(f"--deselect={n}" for n in ids if n not in keep)))
        plans[mutant.id] = chosen
    return plans
