"""Matching request targets ("METHOD /path") against the documented endpoints (pure).

Path parameters are normalised: `/items/{id}` matches `/items/123`, `/items/{item_id}` and the
`{}` a formatted value leaves in an f-string template. A literal segment beats a parameter, so
`GET /todos/stats` matches `/todos/stats`, not `/todos/{todo_id}`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.records import Endpoint, Spec

HOLE = "{}"  # an unknown segment (a formatted value in an f-string)
_PARAM = re.compile(r"^(?:\{[^{}]*\}|<[^<>]*>|:[A-Za-z_]\w*)$")
_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://[^/]*", re.I)


@dataclass(frozen=True)
class Target:
    """A request a test makes or claims: method and path template (query dropped)."""

    method: str
    path: str
    query: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"


def split_path(path: str) -> tuple[str, tuple[str, ...]]:
    """'{}/todos?limit=0&x=1' -> ('/todos', ('limit', 'x')); host and base-URL holes stripped."""
    path = _HOST.sub("", path.strip())
    while path.startswith(HOLE):
        path = path[len(HOLE):]
    path, _, query = path.partition("?")
    names = tuple(p.split("=", 1)[0] for p in query.split("&") if p)
    path = "/" + path.strip("/") if path.strip("/") else "/"
    return path, names


def parse_target(text: str) -> Target | None:
    """'GET /items/1?x=2' -> Target('GET', '/items/1', ('x',)); None when not of that shape."""
    parts = text.strip().split(None, 1)
    if len(parts) != 2 or not parts[1].strip():
        return None
    path, query = split_path(parts[1])
    return Target(parts[0].upper(), path, query)


def segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s]


def _segment_score(doc: str, seen: str) -> float | None:
    doc_param = bool(_PARAM.match(doc))
    seen_hole = seen == HOLE or bool(_PARAM.match(seen)) or "{}" in seen
    if not doc_param:
        if doc == seen:
            return 2.0
        return 0.25 if seen_hole else None
    return 1.0


def match_score(doc_path: str, seen_path: str) -> float | None:
    """How well a seen path fits a documented one (None: it does not)."""
    doc, seen = segments(doc_path), segments(seen_path)
    if len(doc) != len(seen):
        return None
    total = 0.0
    for d, s in zip(doc, seen, strict=True):
        score = _segment_score(d, s)
        if score is None:
            return None
        total += score
    return total


def _link_name(spec: Spec, path: str) -> str | None:
    """`{students_url}` for a link-named target of a hypermedia spec (written with or without
    a leading `/`: a declaration is parsed as a path), else None."""
    name = path.lstrip("/")
    return name if spec.links is not None and name.startswith("{") and "/" not in name \
        else None


def link_target(spec: Spec, target: Target) -> Target:
    """A link-named target (`POST {students_url}`) as the path the oracle's answers gave the
    link (`POST /v1/students/`); any other target as it is."""
    name = _link_name(spec, target.path)
    resolved = spec.links.resolved if spec.links is not None else {}
    return Target(target.method, resolved[name], target.query) \
        if name is not None and name in resolved else target


def _pattern(spec: Spec, ep: Endpoint) -> str | None:
    """The path a request must match to hit `ep` (a link's as resolved, else none)."""
    if not ep.by_link:
        return ep.path
    return spec.links.resolved.get(ep.path) if spec.links is not None else None


def find_endpoint(spec: Spec, target: Target) -> Endpoint | None:
    """The documented endpoint a target hits (best literal match), also trying the base path."""
    name = _link_name(spec, target.path)
    if name is not None:  # a link-named target (a declaration): by that name
        return next((ep for ep in spec.endpoints if ep.key == (target.method, name)), None)
    candidates = [target.path]
    base = "/" + spec.base_path.strip("/") if spec.base_path.strip("/") else ""
    if base and not target.path.startswith(base + "/"):
        candidates.append(base + target.path)
    for path in candidates:
        best: tuple[float, Endpoint] | None = None
        for ep in spec.endpoints:
            if ep.method != target.method:
                continue
            pattern = _pattern(spec, ep)
            score = match_score(pattern, path) if pattern is not None else None
            if score is not None and (best is None or score > best[0]):
                best = (score, ep)
        if best:
            return best[1]
    return None


def resolve(spec: Spec, targets: list[Target]) -> tuple[list[Endpoint], list[Target]]:
    """Documented endpoints hit (unique, in order) and the targets that hit none."""
    found: list[Endpoint] = []
    missing: list[Target] = []
    for t in targets:
        ep = find_endpoint(spec, t)
        if ep is None:
            if t not in missing:
                missing.append(t)
        elif ep not in found:
            found.append(ep)
    return found, missing


def same_endpoint(a: Target, b: Target) -> bool:
    """Whether two targets name the same operation (parameters and holes match anything)."""
    if a.method != b.method:
        return False
    sa, sb = segments(a.path), segments(b.path)
    if len(sa) != len(sb):
        return False
    for x, y in zip(sa, sb, strict=True):
        if x == y or _PARAM.match(x) or _PARAM.match(y) or HOLE in x or HOLE in y:
            continue
        if x.isdigit() or y.isdigit():  # a concrete id against a documented parameter
            continue
        return False
    return True


def resource_of(path: str) -> str:
    """The first literal segment past 'api'/version prefixes: '/api/v1/files/{}' -> 'files'."""
    for seg in segments(path):
        if _PARAM.match(seg) or seg == HOLE or seg.lower() == "api" or re.fullmatch(r"v\d+", seg):
            continue
        return seg
    return ""


def literal_segments(path: str) -> list[str]:
    """Every literal segment past 'api'/version prefixes: '/api/v1/a/{x}/b' -> ['a', 'b']."""
    return [seg for seg in segments(path)
            if not (_PARAM.match(seg) or HOLE in seg or seg.lower() == "api"
                    or re.fullmatch(r"v\d+", seg))]
