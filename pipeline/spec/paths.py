"""HTTP methods, URL paths and their normalisation (pure functions)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.urlpath import normalise_params, param_patterns

METHOD_NAMES = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
M = r"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)"
_SEP = r"\s*(?:,|/|\||&|\+|\bor\b|\band\b|、|，)\s*"
METHODS = rf"{M}(?:{_SEP}{M})*"

# Host part of a target: full URL, bare localhost, a template variable for the base URL.
HOST = (
    r"(?:https?://[^\s/`'\"<>|)]+"
    r"|(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d+)?"
    r"|\{\{\s*[\w.-]+\s*\}\}|\$\{?[A-Za-z_]\w*\}?)"
)
# A path runs until whitespace, a quote, a backtick, a pipe or any non-ASCII character
# (Chinese prose often follows a path without a space).
PATH = r"/[^\s`'\"|\u0080-\uffff]*"
# "POST api/v1/users": a path written without its leading slash (a word, then a slash)
RELATIVE = r"[A-Za-z][\w.-]*/[^\s`'\"|\u0080-\uffff]*"
_RELATIVE = re.compile(RELATIVE)
TARGET = rf"(?:{HOST}(?:{PATH})?|{PATH})"

_LEAD = r"(?<![A-Za-z0-9_/.\-])(?<!-X )(?<!-X)(?<!--request )(?<!--request=)"
_VIA = (
    r"(?:(?:(?:request|call|query|querie)s?[ \t]+)?(?:to|on|at|against)[ \t]+(?:the[ \t]+)?"
    r"(?:(?:endpoint|url|path|route)[ \t]+)?)?"
)
# "GET /users", "GET|POST /items", "[GET] /x", "POST: /x", "a POST request to /login".
ENDPOINT_RE = re.compile(
    rf"{_LEAD}\[?(?P<methods>{METHODS})\]?(?:[ \t]*[:\-–—→][ \t]*|[ \t]+){_VIA}"
    rf"(?!/\s+{M}\b)(?P<target>{TARGET}|{RELATIVE})"
)
METHODS_ONLY_RE = re.compile(rf"^\s*\[?(?P<methods>{METHODS})\]?\s*$", re.I)
TARGET_ONLY_RE = re.compile(rf"^\s*(?P<target>{TARGET})\s*$")
_METHOD_WORD = re.compile(M, re.I)


def split_methods(text: str) -> list[str]:
    """'GET, PUT' / 'get|post' → ['GET', 'PUT'] in order, without repeats."""
    out: list[str] = []
    for m in _METHOD_WORD.findall(text):
        if m.upper() not in out:
            out.append(m.upper())
    return out


def trim_target(raw: str) -> str:
    """Drop sentence punctuation glued to the end of a path ('GET /users.' → '/users')."""
    p = raw
    pairs = {")": "(", "]": "[", "}": "{", ">": "<"}
    while p and p[-1] in ".,;:!?)]}>*":
        c = p[-1]
        if c in pairs and p.count(pairs[c]) >= p.count(c):
            break
        if c == "*" and p.endswith("/*"):
            break
        p = p[:-1]
    return p


@dataclass(frozen=True)
class Target:
    """A normalised request target."""

    path: str
    absolute: bool = False  # written as a full URL: the base path is already in it
    query: tuple[str, ...] = field(default=())
    patterns: tuple[tuple[str, str], ...] = field(default=())  # a parameter's written regex


_HOST_PREFIX = re.compile(
    r"^(?:https?://[^/?#\s]+|(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d+)?)"
)
_VAR_PREFIX = re.compile(r"^(?:\{\{\s*[\w.-]+\s*\}\}|\$\{?[A-Za-z_]\w*\}?)")


def _query_names(query: str) -> tuple[str, ...]:
    names: list[str] = []
    for part in re.split(r"[&;]", query):
        name = part.split("=", 1)[0].strip()
        name = re.sub(r"^\{|\}$", "", name)
        if re.fullmatch(r"[A-Za-z_][\w.\-\[\]]*", name) and name not in names:
            names.append(name)
    return tuple(names)


def normalise_target(raw: str) -> Target | None:
    """A written target (URL or path) → path with `{name}` params, query names split off.

    Scheme, host and port are removed; hyphens, dots and trailing slashes are kept.
    """
    s = trim_target(raw.strip())
    absolute = False
    m = _HOST_PREFIX.match(s)
    if m:
        s, absolute = s[m.end():], True
    else:
        m = _VAR_PREFIX.match(s)
        if m:
            s = s[m.end():]
    s = s.split("#", 1)[0]
    query: tuple[str, ...] = ()
    templates = re.findall(r"\{[?&]([^}]*)\}", s)
    if templates:
        s = re.sub(r"\{[?&][^}]*\}", "", s)
        query = _query_names("&".join(t.replace(",", "&") for t in templates))
    if "?" in s:
        s, q = s.split("?", 1)
        query = query + _query_names(q)
    if not s:
        s = "/"
    if not absolute and _RELATIVE.fullmatch(s) and not _VAR_PREFIX.match(raw.strip()):
        s = "/" + s
    if not s.startswith("/"):
        return None
    patterns = tuple(param_patterns(s).items())
    s = normalise_params(s)
    if re.search(r"[<>]", s):
        return None
    return Target(s, absolute, query, patterns)


def normalise_base(raw: str) -> str:
    """'http://localhost:8080/api/v1/' → '/api/v1'; a bare host → ''."""
    t = normalise_target(raw)
    if t is None:
        return ""
    return t.path.rstrip("/")


def apply_base(path: str, base: str) -> str:
    """Prefix a relative path with the base path, unless it already starts with it."""
    base = base.rstrip("/")
    if not base or path == base or path.startswith(base + "/"):
        return path
    return base + path


# A segment that is a value, not a name: a number, a UUID, a long hex id.
CONCRETE_SEGMENT = re.compile(r"\d+|[0-9a-fA-F-]{16,}")


def singular(word: str) -> str:
    """'projects' -> 'project', 'categories' -> 'category' (the offline model's nouns too)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        return word[:-1]
    return word


def template_of_instance(path: str) -> str:
    """'/api/projects/11/issues/25/' → '/api/projects/{project_id}/issues/{issue_id}/'.

    A document that only shows example calls (curl walkthroughs) still documents the
    endpoint; read literally, '/todos/1/complete' is a route nobody has, and a test that
    fills it with 1 asks for a record it never made.
    """
    out: list[str] = []
    used = set(re.findall(r"\{([^{}]+)\}", path))
    for seg in path.split("/"):
        if not CONCRETE_SEGMENT.fullmatch(seg):
            out.append(seg)
            continue
        prev = out[-1] if out else ""
        base = "id"
        if re.fullmatch(r"[A-Za-z][\w-]*", prev):
            base = singular(prev.replace("-", "_").lower()) + "_id"
        name, n = base, 2
        while name in used:
            name, n = f"{base}{n}", n + 1
        used.add(name)
        out.append("{" + name + "}")
    return "/".join(out)
