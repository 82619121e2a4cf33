"""The `Route` record and path normalisation shared by every extractor and the matcher.

Every framework spells path parameters its own way (`:id`, `<int:id>`, `{id:\\d+}`,
`(?P<id>...)`); normalising them once to `{id}` here lets the matcher compare a route with a
documented endpoint by shape alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.urlpath import normalise_params

HTTP_VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE")
ANY_METHOD = "*"


@dataclass(frozen=True)
class Route:
    """One route a service serves, found by reading its source (never by running it).

    `method` is an upper-case HTTP verb or "*" when the source does not restrict it;
    `prefix` marks a route that serves everything beneath `path` (a mounted app, a JDK
    `createContext`, a `/**` wildcard).
    """

    method: str
    path: str
    prefix: bool = False
    file: str = ""
    line: int = 0
    framework: str = ""

    @property
    def key(self) -> tuple[str, str, bool]:
        return (self.method, self.path, self.prefix)


_MULTI_SLASH = re.compile(r"/{2,}")


def normalize_path(raw: str) -> str:
    """Return `raw` with params as `{name}`, a leading slash and no doubled slashes.

    Trailing slashes are kept as written: whether `/items/` and `/items` are the same
    resource is the matcher's decision, made explicitly.
    """
    path = raw.strip()
    if not path.startswith("/"):
        path = "/" + path
    return _MULTI_SLASH.sub("/", normalise_params(path))


def join_paths(prefix: str, path: str) -> str:
    """Join a mount prefix and a route path the way Flask, FastAPI and Spring do.

    An empty `path` means the prefix itself; otherwise exactly one slash separates them and
    the route's own trailing slash survives.
    """
    if not path:
        return prefix
    if not prefix:
        return path
    return prefix.rstrip("/") + "/" + path.lstrip("/")


def split_wildcard(path: str) -> tuple[str, bool]:
    """`/static/*`, `/api/**`, `/files/{p:.*}` style tails → (`/static`, prefix=True)."""
    for tail in ("/**", "/*"):
        if path.endswith(tail):
            return path[: -len(tail)] or "/", True
    if path in ("*", "**", "/*", "/**"):
        return "/", True
    return path, False


def _drop_group(regex: str, start: int) -> int:
    """Index just past the group opening at `start` (balanced parentheses, escapes honoured)."""
    depth, i = 0, start
    while i < len(regex):
        ch = regex[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(regex)


def regex_to_path(regex: str) -> tuple[str, bool]:
    """Turn a Django `re_path` pattern into a template; returns (path, is_prefix).

    Named groups become `{name}`, unnamed groups `{arg1}`..., optional pieces (`/?`, `(...)?`)
    are dropped, and an open tail (no `$`, or `.*`) makes the route a prefix route.
    """
    text = regex[1:] if regex.startswith("^") else regex
    anchored = text.endswith("$") or text.endswith(r"\Z")
    text = text[:-1] if text.endswith("$") else text[:-2] if text.endswith(r"\Z") else text
    out: list[str] = []
    i, unnamed = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append({"d": "{digit}", "w": "{word}"}.get(nxt, nxt))
            i += 2
            continue
        if ch == "(":
            end = _drop_group(text, i)
            optional = end < len(text) and text[end] in "?*"
            if optional:
                i = end + 1
                continue
            piece = _group_piece(text[i:end])
            if piece is None:
                unnamed += 1
                piece = f"{{arg{unnamed}}}"
            out.append(piece)
            i = end
            continue
        if ch == "[":
            end = text.find("]", i + 2)
            end = len(text) if end < 0 else end + 1
            out.append("{param}")
            i = end
            continue
        if ch in "?*+" and out:
            if ch == "?":
                out.pop()  # `x?`: optional character; Django serves both, keep the short form
            i += 1
            continue
        out.append(ch)
        i += 1
    path = "".join(out)
    is_prefix = not anchored or path.endswith(".")
    if path.endswith("."):
        path = path[:-1]
    return path, is_prefix


def _group_piece(group: str) -> str | None:
    """What a regex group stands for in the path; None for an unnamed group, which the
    caller numbers (`{arg1}`, `{arg2}`) in the order they appear."""
    named = re.match(r"\(\?P<([A-Za-z_]\w*)>", group)
    if named:
        return "{" + named.group(1) + "}"
    if group.startswith("(?"):
        return regex_to_path(group[3:-1])[0].lstrip("/")
    return None
