"""Pure matching of documented endpoints against statically extracted routes (no I/O).

Used both by `check` (is every README endpoint routed by the oracle, and which oracle routes
does the README not mention?) and by `evaluate` (API Coverage of a candidate repository).
Path parameter names never matter, only the shape: `/items/{id}` is `/items/{item_id}`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pipeline.routes.model import ANY_METHOD, Route

How = Literal["exact", "trailing_slash", "prefix"]
_PARAM = re.compile(r"\{[^{}/]*\}")


class EndpointLike(Protocol):
    """Anything with a method and a `{param}` path, such as `pipeline.records.Endpoint`."""

    method: str
    path: str


@dataclass(frozen=True)
class EndpointMatch:
    """A documented endpoint and the route serving it.

    `how` says why they match: the same path shape ("exact"), the same shape but for a
    trailing slash that frameworks redirect or ignore ("trailing_slash"), or a prefix route
    serving everything beneath it ("prefix").
    """

    endpoint: EndpointLike
    route: Route
    how: How


@dataclass
class RouteMatch:
    """Outcome of `match_endpoints`; `coverage` is None when nothing was documented."""

    matched: list[EndpointMatch] = field(default_factory=list)
    missing: list[EndpointLike] = field(default_factory=list)
    undocumented: list[Route] = field(default_factory=list)
    coverage: float | None = None

    @property
    def trailing_slash(self) -> list[EndpointMatch]:
        """Matches that hold only because a trailing slash was ignored."""
        return [m for m in self.matched if m.how == "trailing_slash"]

    def route_for(self, endpoint: EndpointLike) -> Route | None:
        for m in self.matched:
            if (m.endpoint.method, m.endpoint.path) == (endpoint.method, endpoint.path):
                return m.route
        return None


def shape(path: str) -> tuple[str, ...]:
    """Path segments with every parameter reduced to `{}` (names do not matter)."""
    return tuple(_PARAM.sub("{}", seg) for seg in path.split("/")[1:])


def _strip(segments: tuple[str, ...]) -> tuple[str, ...]:
    return segments[:-1] if segments and segments[-1] == "" else segments


def method_rank(endpoint_method: str, route_method: str) -> int | None:
    """0 same verb, 1 HEAD served by a GET route (every framework does so), 2 any-method
    route, None when the route does not answer that verb."""
    ep, rm = endpoint_method.upper(), route_method.upper()
    if rm == ep:
        return 0
    if ep == "HEAD" and rm == "GET":
        return 1
    if rm == ANY_METHOD:
        return 2
    return None


def path_match(endpoint_path: str, route: Route) -> How | None:
    """How a documented path is served by `route`'s path, if it is."""
    ep = shape(endpoint_path)
    rp = shape(route.path)
    if ep == rp:
        return "exact"
    if _strip(ep) == _strip(rp):
        return "trailing_slash"
    if route.prefix:
        base = _strip(rp)
        if _strip(ep)[: len(base)] == base:
            return "prefix"
    return None


_HOW_RANK = {"exact": 0, "trailing_slash": 1, "prefix": 2}


def _candidates(endpoint: EndpointLike, routes: Sequence[Route]) -> list[tuple[tuple, Route, How]]:
    found = []
    for route in routes:
        rank = method_rank(endpoint.method, route.method)
        how = path_match(endpoint.path, route) if rank is not None else None
        if how is not None:
            # exact path first, then the most specific prefix, then the closest verb
            found.append(((_HOW_RANK[how], -len(route.path), rank), route, how))
    return found


def match_endpoints(endpoints: Iterable[EndpointLike], routes: Sequence[Route]) -> RouteMatch:
    """Match documented endpoints to routes.

    `missing`: endpoints no route serves. `undocumented`: routes no endpoint reaches (a prefix
    route counts as documented when any endpoint falls beneath it). `coverage`: the fraction
    of distinct documented endpoints that are routed.
    """
    unique: dict[tuple[str, str], EndpointLike] = {}
    for ep in endpoints:
        unique.setdefault((ep.method.upper(), ep.path), ep)
    result = RouteMatch()
    used: set[int] = set()
    for ep in unique.values():
        found = _candidates(ep, routes)
        if not found:
            result.missing.append(ep)
            continue
        _, route, how = min(found, key=lambda c: c[0])
        result.matched.append(EndpointMatch(ep, route, how))
        used.update(id(r) for _, r, _ in found)
    result.undocumented = [r for r in routes if id(r) not in used]
    if unique:
        result.coverage = len(result.matched) / len(unique)
    return result
