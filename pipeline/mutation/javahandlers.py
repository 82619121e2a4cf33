"""Which endpoint's handler each line of a Java oracle belongs to (pure, on `javalex` tokens).

The Java half of `pipeline.mutation.handlers`: a mutant planted in the code that serves
`GET /items` is evidence about the tests of `GET /items`. Three ways a Java service ties code
to an endpoint are read:
- annotated methods (Spring `@GetMapping`, `@RequestMapping` with a class-level prefix,
  JAX-RS, Micronaut): the route reader gives the annotation's line, the handler is the method
  declared there (annotation to closing brace);
- DSL registrations (Javalin, Spark, Vert.x): the registering statement, with the methods its
  lambda calls or its method reference (`ItemController::list`) names;
- hand dispatch (JDK `createContext("/")` and a method that tests the path itself): blocks
  guarded by `path.equals("/items")`, `"/items".equals(path)`, a `Pattern` matcher
  (`ITEM.matcher(path)` ... `if (m.matches())`) or `case "/items":`; inside one, blocks guarded
  by `method.equals("GET")` or `case "GET":` serve that verb, and the rest of the path block
  serves the verbs it names that no inner block claims (`requireMethod(method, "GET",
  "POST")` after an `if (GET)` block is the POST handler), or any verb when it names none;
  a variable the dispatcher assigns before the branches (`query = parseQuery(raw)`) feeds
  the branches that read it.
Methods called from a handler (transitively) belong to it too, unless more than
`MAX_HELPER_CALLERS` handlers reach them (`find`, `view`, error replies: plumbing). A call is
resolved by its receiver's declared type (`Resolver`), so `query.get(k)` on a `Map` is not
the service's own `get(id)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pipeline.mutation.handlers import MAX_HELPER_CALLERS, Span
from pipeline.routes.javalex import Token, matching, tokenize
from pipeline.routes.match import EndpointLike, match_endpoints
from pipeline.routes.model import ANY_METHOD, HTTP_VERBS, Route, normalize_path, regex_to_path

ANNOTATED = frozenset({"spring", "jaxrs", "micronaut"})
Call = tuple[str, str]  # (receiver: a name, "this" when unqualified, "" for an expression; name)

_NOT_NAMES = frozenset({
    "if", "for", "while", "switch", "catch", "synchronized", "return", "new", "throw", "else",
    "try", "do", "case", "assert", "super", "this", "default", "yield", "instanceof"})
_EQUALS = frozenset({"equals", "equalsIgnoreCase", "contentEquals"})
_MATCHES = frozenset({"matches", "find", "lookingAt"})


@dataclass(frozen=True)
class Method:
    """A method declaration: its name, file, line extent and body token range."""

    name: str
    file: str
    first: int
    last: int
    body: tuple[int, int]  # token indices of `{` and `}`
    owner: str = ""  # the innermost class (interface, enum, record) declaring it


@dataclass(frozen=True)
class Handler:
    """The code one route runs: its own line spans and the method names called from them."""

    route: Route
    spans: tuple[Span, ...]
    calls: frozenset[Call]  # made in `route.file`


@dataclass(frozen=True)
class _Region:
    kind: str  # "path" | "method"
    values: tuple[str, ...]  # normalised paths or upper-case verbs
    start: int  # token indices, inclusive
    end: int


def classes(toks: list[Token]) -> list[tuple[str, int, int]]:
    """(name, `{` index, `}` index) of every class, interface, enum and record body."""
    out = []
    for i in range(len(toks) - 2):
        if toks[i].text in ("class", "interface", "enum", "record") and toks[i + 1].kind == "id" \
                and (i == 0 or toks[i - 1].text != "."):
            k = i + 2
            while k < len(toks) and toks[k].text not in ("{", ";"):
                k = matching(toks, k) + 1 if toks[k].text == "(" else k + 1
            if k < len(toks) and toks[k].text == "{":
                out.append((toks[i + 1].text, k, matching(toks, k)))
    return out


def methods(file: str, toks: list[Token]) -> list[Method]:
    """Method (not constructor) declarations with a body, in token order."""
    bodies = classes(toks)
    out = []
    for i in range(1, len(toks) - 1):
        tok, prev = toks[i], toks[i - 1]
        if tok.kind != "id" or tok.text in _NOT_NAMES or toks[i + 1].text != "(":
            continue
        if not ((prev.kind == "id" and prev.text not in _NOT_NAMES) or prev.text in (">", "]")):
            continue
        k = matching(toks, i + 1) + 1
        if k < len(toks) and toks[k].text == "throws":
            while k < len(toks) and toks[k].text not in ("{", ";", "}"):
                k += 1
        if k < len(toks) and toks[k].text == "{":
            end = matching(toks, k)
            owner = max(((a, n) for n, a, b in bodies if a < i < b), default=(0, ""))[1]
            out.append(Method(tok.text, file, tok.line, toks[end].line, (k, end), owner))
    return out


def _receiver(toks: list[Token], dot: int) -> str:
    """The name before `.` / `::` at `dot` ("" when it is a call result or an expression)."""
    prev = toks[dot - 1] if dot > 0 else None
    if prev is None or prev.kind != "id" or (dot > 1 and toks[dot - 2].text == "."):
        return "" if prev is None or prev.text != "this" else "this"
    return prev.text


def calls(toks: list[Token], start: int, end: int) -> set[Call]:
    """The methods called (or referenced with `::`) in tokens [start, end], with receivers."""
    out = set()
    for j in range(start, min(end + 1, len(toks) - 1)):
        tok = toks[j]
        if (tok.kind == "id" and toks[j + 1].text == "(" and tok.text not in _NOT_NAMES
                and (j == 0 or toks[j - 1].text != "new")):
            qualified = j > 0 and toks[j - 1].text == "."
            out.add((_receiver(toks, j - 1) if qualified else "this", tok.text))
        elif tok.text == "::" and toks[j + 1].kind == "id":
            out.add((_receiver(toks, j), toks[j + 1].text))
    return out


def declared_types(toks: list[Token]) -> dict[str, str]:
    """Variable, field and parameter name -> its declared type's simple name (`Inventory
    inventory = ...`, `Map<String, Object> body,`); the last declaration of a name wins."""
    out = {}
    for j in range(1, len(toks) - 1):
        name = toks[j]
        if name.kind != "id" or toks[j + 1].text not in ("=", ";", ",", ")", ":"):
            continue
        k = j - 1
        while k > 0 and toks[k].text == "]" and toks[k - 1].text == "[":
            k -= 2
        if toks[k].text == ">":
            depth = 0
            while k > 0:
                depth += {">": 1, "<": -1}.get(toks[k].text, 0)
                if depth == 0:
                    break
                k -= 1
            k -= 1
        if k >= 0 and toks[k].kind == "id" and toks[k].text[:1].isupper() \
                and toks[k].text not in _NOT_NAMES:
            out[name.text] = toks[k].text
    return out


class Resolver:
    """Which declared methods a call names: by the receiver's declared type when it is known
    (`inventory.get(id)` is `Inventory.get`, `query.get(k)` on a `Map` is none of ours), by
    class for `Json.parse(...)` and `this`, by name alone when the receiver is an expression
    or an interface of ours (its implementations)."""

    def __init__(self, tokens: Mapping[str, list[Token]], decls: Sequence[Method]) -> None:
        self.types = {f: declared_types(toks) for f, toks in tokens.items()}
        self.owners: dict[str, set[str]] = {}
        for m in decls:
            self.owners.setdefault(m.file, set()).add(m.owner)
        self.known = {n for f, toks in tokens.items() for n, _, _ in classes(toks)}
        self.by_name: dict[str, list[Method]] = {}
        for m in decls:
            self.by_name.setdefault(m.name, []).append(m)

    def targets(self, file: str, call: Call) -> list[Method]:
        receiver, name = call
        found = self.by_name.get(name, [])
        if receiver == "this":
            return [m for m in found if m.file == file] or found
        owner = receiver if receiver in self.known else self.types.get(file, {}).get(receiver)
        if owner is None:
            return [] if receiver[:1].islower() and receiver else found
        if owner not in self.known:
            return []  # a JDK or library type (`Map`, `List`): not our code
        # an interface declares no bodies: its implementations' methods of that name serve it
        return [m for m in found if m.owner == owner] or found


def _block_end(toks: list[Token], k: int) -> int:
    """Last token of the statement or `{...}` block starting at `k`."""
    if k < len(toks) and toks[k].text == "{":
        return matching(toks, k)
    depth = 0
    for j in range(k, len(toks)):
        text = toks[j].text if toks[j].kind == "op" else ""
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(text, 0)
        if (text == ";" and depth <= 0) or depth < 0:
            return j
    return len(toks) - 1


def _patterns(toks: list[Token]) -> dict[str, str]:
    """`NAME = Pattern.compile("^/items/(\\d+)$")` -> {NAME: the regex}."""
    out = {}
    for j in range(2, len(toks) - 4):
        if ([t.text for t in toks[j:j + 4]] == ["Pattern", ".", "compile", "("]
                and toks[j + 4].kind == "str" and toks[j - 1].text == "="):
            out[toks[j - 2].text] = toks[j + 4].value
    return out


def _path_of_regex(regex: str) -> str | None:
    path, _ = regex_to_path(regex)
    return normalize_path(path) if path.startswith("/") else None


def _classify(toks: list[Token], a: int, b: int, patterns: Mapping[str, str],
              matchers: Mapping[str, str]) -> list[_Region]:
    """The path and/or verb test of the condition tokens [a, b] (`path.equals("/x") &&
    method.equals("GET")` is both; [] when it is not a dispatch test)."""
    texts = [t.text for t in toks[a:b + 1]]
    if "!" in texts:
        return []
    if _EQUALS & set(texts):
        strings = [t.value for t in toks[a:b + 1] if t.kind == "str"]
        paths = [normalize_path(s) for s in strings if s.startswith("/")]
        verbs = [s.upper() for s in strings if s.upper() in HTTP_VERBS]
        if (paths or verbs) and len(paths) + len(verbs) == len(strings):
            return [*([_Region("path", tuple(paths), 0, 0)] if paths else []),
                    *([_Region("method", tuple(verbs), 0, 0)] if verbs else [])]
    for j in range(a, b):
        if toks[j].text == "." and toks[j + 1].text in _MATCHES:
            receiver = toks[j - 1].text
            regex = matchers.get(receiver)
            if regex is None and toks[j - 1].text == ")":  # P.matcher(path).matches()
                opener = next((k for k in range(j - 1, a - 1, -1)
                               if toks[k].text == "(" and matching(toks, k) == j - 1), None)
                if opener is not None and opener >= 3 and toks[opener - 1].text == "matcher":
                    regex = patterns.get(toks[opener - 3].text)
            path = _path_of_regex(regex) if regex else None
            if path:
                return [_Region("path", (path,), 0, 0)]
    return []


def _case_values(toks: list[Token], k: int) -> list[str]:
    """The string labels of the `case` whose first label token is at `k`."""
    labels = []
    while k < len(toks) and toks[k].text not in (":", "->"):
        if toks[k].kind == "str":
            labels.append(toks[k].value)
        k += 1
    return labels


def regions(toks: list[Token]) -> list[_Region]:
    """Every block of one file guarded by a path or verb test (`if` or `switch` cases)."""
    patterns = _patterns(toks)
    matchers: dict[str, str] = {}
    out: list[_Region] = []
    for j, tok in enumerate(toks[:-1]):
        if (tok.kind == "id" and toks[j + 1].text == "=" and j + 5 < len(toks)
                and toks[j + 2].text in patterns and toks[j + 3].text == "."
                and toks[j + 4].text == "matcher"):
            matchers[tok.text] = patterns[toks[j + 2].text]  # the latest assignment wins
        elif tok.text == "if" and toks[j + 1].text == "(":
            close = matching(toks, j + 1)
            end = _block_end(toks, close + 1)
            for found in _classify(toks, j + 2, close - 1, patterns, matchers):
                out.append(_Region(found.kind, found.values, j, end))
        elif tok.text == "switch" and toks[j + 1].text == "(":
            close = matching(toks, j + 1)
            if close + 1 < len(toks) and toks[close + 1].text == "{":
                out += _cases(toks, close + 1, matching(toks, close + 1))
    return out


def _cases(toks: list[Token], open_: int, close: int) -> list[_Region]:
    """`case "GET":` / `case "/items" ->` regions of one switch body."""
    labels, k = [], open_ + 1
    while k < close:
        if toks[k].text in ("{", "(", "["):
            k = matching(toks, k) + 1
            continue
        if toks[k].text in ("case", "default"):
            labels.append(k)
        k += 1
    out = []
    for n, at in enumerate(labels):
        end = (labels[n + 1] if n + 1 < len(labels) else close) - 1
        values = _case_values(toks, at + 1)
        if toks[at].text == "default" or not values:
            continue
        if all(v.startswith("/") for v in values):
            out.append(_Region("path", tuple(normalize_path(v) for v in values), at, end))
        elif all(v.upper() in HTTP_VERBS for v in values):
            out.append(_Region("method", tuple(v.upper() for v in values), at, end))
    return out


def _ranges(lines: Iterable[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for n in sorted(set(lines)):
        if out and n == out[-1][1] + 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def _feeding_calls(toks: list[Token], bodies: Sequence[tuple[int, int]], a: int,
                   b: int) -> set[Call]:
    """Calls in the last assignment, before token `a` in the same method, of each variable
    the tokens [a, b] read: `query = parseQuery(raw)` at the top of a dispatcher feeds only
    the branches that read `query`."""
    body = next(((s, e) for s, e in bodies if s < a and b <= e), None)
    if body is None:
        return set()
    used = {toks[j].text for j in range(a, b + 1) if toks[j].kind == "id"}
    last: dict[str, int] = {}
    for j in range(body[0] + 1, a):
        if (toks[j].kind == "id" and toks[j].text in used and toks[j + 1].text == "="
                and toks[j + 2].text != "=" and toks[j - 1].text != "."):
            last[toks[j].text] = j + 2
    out: set[Call] = set()
    for start in last.values():
        out |= calls(toks, start, _block_end(toks, start))
    return out


def dispatch_handlers(file: str, toks: list[Token]) -> list[Handler]:
    """Handlers of one file's hand dispatch (see the module docstring)."""
    found = regions(toks)
    paths = [r for r in found if r.kind == "path"]
    verbs = [r for r in found if r.kind == "method"]
    reader = _Dispatch(file, toks, [m.body for m in methods(file, toks)])
    out: list[Handler] = []
    for p in paths:
        inner = [q for q in paths if _inside(q, p)]
        mine = [v for v in verbs if _inside(v, p) and not any(_inside(v, q) for q in inner)]
        taken = {j for r in (*inner, *mine) for j in range(r.start, r.end + 1)}
        branches, claimed = reader.verb_handlers(p, mine)
        out += branches
        out += reader.rest_handlers(p, taken, claimed)
    return out


def _inside(r: _Region, outer: _Region) -> bool:
    return outer.start <= r.start and r.end <= outer.end and r is not outer


@dataclass(frozen=True)
class _Dispatch:
    """One file's hand dispatch, read path block by path block."""

    file: str
    toks: list[Token]
    bodies: list[tuple[int, int]]  # the methods' bodies, where feeding assignments are sought

    def calls_in(self, ranges: Iterable[tuple[int, int]]) -> frozenset[Call]:
        found: set[Call] = set()
        for a, b in ranges:
            found |= calls(self.toks, a, b) | _feeding_calls(self.toks, self.bodies, a, b)
        return frozenset(found)

    def verb_handlers(self, p: _Region, mine: list[_Region]) -> tuple[list[Handler], list[str]]:
        """The handlers of the verb blocks directly inside path block `p`, and their verbs."""
        out: list[Handler] = []
        claimed: list[str] = []
        for v in mine:
            claimed += v.values
            span = (self.file, self.toks[v.start].line, self.toks[v.end].line)
            for verb in v.values:
                for path in p.values:
                    out.append(Handler(Route(verb, path, False, self.file, span[1], "httpserver"),
                                       (span,), self.calls_in([(v.start, v.end)])))
        return out, claimed

    def rest_handlers(self, p: _Region, taken: set[int], claimed: list[str]) -> list[Handler]:
        """The rest of path block `p` serves the verbs it names that no verb block claims,
        or any verb when it names none (nothing when verb blocks claim every verb)."""
        toks = self.toks
        rest = [j for j in range(p.start, p.end + 1) if j not in taken]
        named = {t.value.upper() for j in rest if (t := toks[j]).kind == "str"
                 and t.value.upper() in HTTP_VERBS} - set(claimed)
        if claimed and not named:
            return []
        own_lines = {toks[j].line for j in taken}
        spans = tuple((self.file, a, b) for a, b in _ranges(
            toks[j].line for j in rest if toks[j].line not in own_lines))
        names = self.calls_in(_ranges(rest))
        return [Handler(Route(verb, path, False, self.file, toks[p.start].line, "httpserver"),
                        spans, names)
                for verb in sorted(named) or [ANY_METHOD] for path in p.values]


def route_handler(route: Route, toks: list[Token], decls: Sequence[Method]) -> Handler | None:
    """The code an annotated or DSL-registered route runs (None: not found)."""
    if route.framework in ANNOTATED:
        method = min((m for m in decls if m.file == route.file and m.first >= route.line),
                     key=lambda m: m.first, default=None)
        if method is None:
            return None
        return Handler(route, ((route.file, route.line, method.last),),
                       frozenset(calls(toks, *method.body)))
    start = next((j for j, t in enumerate(toks) if t.line == route.line), None)
    if start is None:
        return None
    end = _block_end(toks, start)
    return Handler(route, ((route.file, route.line, toks[end].line),),
                   frozenset(calls(toks, start, end)))


def java_handlers(tokens: Mapping[str, list[Token]], decls: Sequence[Method],
                  routes: Sequence[Route]) -> list[Handler]:
    """Every handler found in the Java files' `tokens` for `routes` (the extracted ones;
    prefix routes are served by hand dispatch, read from the code)."""
    out = [h for r in routes if r.file in tokens and not r.prefix
           and (h := route_handler(r, tokens[r.file], decls)) is not None]
    for f, toks in tokens.items():
        out += dispatch_handlers(f, toks)
    return out


def java_handler_spans(sources: Mapping[str, str], routes: Sequence[Route],
                       endpoints: Sequence[EndpointLike]) -> dict[str, list[Span]]:
    """Endpoint key -> the line spans of its handler and of the methods only it (and at most
    `MAX_HELPER_CALLERS` handlers in all) reaches."""
    tokens = {f: tokenize(text) for f, text in sorted(sources.items())}
    decls = [m for f, toks in tokens.items() for m in methods(f, toks)]
    resolve = Resolver(tokens, decls)
    handlers = java_handlers(tokens, decls, routes)
    index = {id(h.route): h for h in handlers}
    chosen: dict[str, Handler] = {}
    for match in match_endpoints(endpoints, [h.route for h in handlers]).matched:
        if match.how != "prefix":
            chosen[f"{match.endpoint.method.upper()} {match.endpoint.path}"] = index[
                id(match.route)]
    reached: dict[str, set[Method]] = {}
    for key, handler in chosen.items():
        seen: set[Method] = set()
        todo = [m for c in handler.calls for m in resolve.targets(handler.route.file, c)]
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo += [d for c in calls(tokens[m.file], *m.body)
                         for d in resolve.targets(m.file, c)]
        reached[key] = seen
    reach_count: dict[Method, int] = {}
    for seen in reached.values():
        for m in seen:
            reach_count[m] = reach_count.get(m, 0) + 1
    out: dict[str, list[Span]] = {}
    for key, handler in chosen.items():
        helpers = sorted((m for m in reached[key] if reach_count[m] <= MAX_HELPER_CALLERS),
                         key=lambda m: (m.file, m.first))
        out[key] = [*handler.spans, *((m.file, m.first, m.last) for m in helpers)]
    return out
