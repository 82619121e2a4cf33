"""Path-parameter spelling, one way for the whole project.

Requirement documents and service source write a parameter many ways (`:id`, `<int:id>`,
`{id:int}`, `{{id}}`, `${id}`, `[id]`, `{id:[0-9]{3}}`, a regex group `(?P<id>[0-9]+)` or
`([0-9]*)`); spec extraction, route analysis and matching all compare paths as `{id}`, so
they all normalise here.
"""

from __future__ import annotations

import re

_DOUBLE_BRACE = re.compile(r"\{\{\s*([A-Za-z_][\w-]*)\s*\}\}")
_DOLLAR_PARAM = re.compile(r"\$\{([A-Za-z_][\w-]*)\}")
_BARE_DOLLAR = re.compile(r"(?<=/)\$([A-Za-z_]\w*)(?=/|$)")
_COLON_PARAM = re.compile(r"(?<=/):([A-Za-z_][\w-]*)(?:\([^)/]*\))?")
_ANGLE_PARAM = re.compile(r"<(?:[A-Za-z_][\w.]*:)?([A-Za-z_][\w-]*)>")
_SQUARE_PARAM = re.compile(r"(?<=/)\[(?:\.\.\.)?([A-Za-z_][\w-]*)\](?=/|$)")
# a regex group as a whole segment (Tornado, Django's re_path): `(?P<pk>\d+)`, `([0-9]*)`
_GROUP_PARAM = re.compile(r"(?<=/)\^?\((?:\?P<([A-Za-z_]\w*)>)?"
                          r"((?:\[[^\]]*\]|\\.|[^/()\[\]])*)\)\$?(?=/|$)")


def _groups(path: str) -> str:
    """Regex-group segments → `{name}` (an unnamed group is `{id}`, then `{id2}`...)."""
    n = 0

    def name(m: re.Match[str]) -> str:
        nonlocal n
        if not m.group(1) and not re.search(r"[\[\\*+.]", m.group(2)):
            return m.group(0)  # `(note)`: words in brackets, not a pattern
        if m.group(1):
            return "{" + m.group(1) + "}"
        n += 1
        return "{id}" if n == 1 else f"{{id{n}}}"

    return _GROUP_PARAM.sub(name, path)


def _braces(path: str) -> str:
    """`{name:regex}` / `{name: int}` / `{+name}` → `{name}`; `{?q,r}` query templates dropped.

    A small scanner rather than a regex because a constraint may itself contain braces
    (`{id:[0-9]{3}}`).
    """
    out: list[str] = []
    i = 0
    while i < len(path):
        if path[i] != "{":
            out.append(path[i])
            i += 1
            continue
        depth, j = 0, i
        while j < len(path):
            if path[j] == "{":
                depth += 1
            elif path[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        name = path[i + 1 : j].split(":", 1)[0].strip()
        i = j + 1
        if name[:1] in ("?", "&"):
            continue  # RFC 6570 query expansion (Micronaut): not part of the path
        name = name.lstrip("+#/.;")
        out.append("{" + name + "}" if name else "{param}")
    return "".join(out)


def _brace_patterns(path: str) -> dict[str, str]:
    """`{id:[0-9]{3}}` / `{id:int}` → {"id": "[0-9]{3}"} / {"id": "[0-9]+"}."""
    out: dict[str, str] = {}
    i = 0
    while (i := path.find("{", i)) >= 0:
        depth, j = 0, i
        while j < len(path):
            depth += {"{": 1, "}": -1}.get(path[j], 0)
            if depth == 0:
                break
            j += 1
        name, _, rule = path[i + 1 : j].partition(":")
        rule = rule.strip()
        if rule.lower() in ("int", "integer", "long", "number"):
            rule = "[0-9]+"
        if name.strip() and re.search(r"[\\[*+]", rule):
            out[name.strip()] = rule
        i = j + 1
    return out


def param_patterns(path: str) -> dict[str, str]:
    """The pattern a written path pins on each parameter (`([0-9]*)`, `(?P<pk>\\d+)`,
    `{id:[0-9]+}`, `<int:id>`, `:id(\\d+)`), under the name `normalise_params` gives it: a
    value sent in its place must match it or the route is not found."""
    out: dict[str, str] = {}
    path = _DOUBLE_BRACE.sub(r"{\1}", path)
    path = _DOLLAR_PARAM.sub(r"{\1}", path)
    path = _BARE_DOLLAR.sub(r"{\1}", path)
    for m in re.finditer(r"(?<=/):([A-Za-z_][\w-]*)\(([^)/]*)\)", path):
        out[m.group(1)] = m.group(2)
    path = _COLON_PARAM.sub(r"{\1}", path)
    n = 0
    for m in _GROUP_PARAM.finditer(path):
        if not m.group(1) and not re.search(r"[\[\\*+.]", m.group(2)):
            continue
        if not m.group(1):
            n += 1
        out[m.group(1) or ("id" if n == 1 else f"id{n}")] = m.group(2)
    for m in _ANGLE_PARAM.finditer(path):
        if m.group(0).startswith("<int:"):
            out[m.group(1)] = "[0-9]+"
    out.update(_brace_patterns(_ANGLE_PARAM.sub(r"{\1}", _groups(path))))
    return out


def normalise_params(path: str) -> str:
    """Every parameter spelling → `{name}`; everything else kept exactly as written."""
    path = _DOUBLE_BRACE.sub(r"{\1}", path)
    path = _DOLLAR_PARAM.sub(r"{\1}", path)
    path = _BARE_DOLLAR.sub(r"{\1}", path)
    path = _COLON_PARAM.sub(r"{\1}", path)
    path = _groups(path)
    path = _ANGLE_PARAM.sub(r"{\1}", path)
    path = _braces(path)
    return _SQUARE_PARAM.sub(r"{\1}", path)
