"""Offline templates for pages (HTML or text answers) that show an input back.

When the document quotes what a page shows ("You chose: <user_choice>") and the input has a
documented list of allowed values, the page must show:
- each allowed value sent, exactly (not one fixed value for every input);
- in the other pieces that name the same kind of value ("The computer chose:
  <computer_choice>"), one of the allowed values;
- the documented fallback when the input is left out or not allowed ("When not provided or
  invalid value is provided, service treats as rock").
A page's body input is a form field (pages are posted by HTML forms), so it is sent form-encoded.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Writer, literal
from pipeline.offline.gen_common import VERBS, thing
from pipeline.offline.gen_fallback_calls import names_input
from pipeline.records import Endpoint, Param
from pipeline.spec.texts import fixed_part, placeholder

_FALLBACK = re.compile(r"(?P<when>[^.;]*?)\b(?:treat(?:s|ed)?\s+(?:it\s+)?as|defaults?\s+to|"
                       r"falls?\s+back\s+to|uses?)\s+`?(?P<value>[\w-]+)`?", re.I)
_MISSING = re.compile(r"not\s+(?:provided|given|sent)|missing|omitted|absent|empty", re.I)
MAX_VALUES = 4
_INVALID = re.compile(r"invalid|unknown|not\s+(?:allowed|one\s+of)|other(?:wise)?", re.I)


def _input(ep: Endpoint) -> tuple[Param, list[str], str] | None:
    """(the input a piece shows back, its allowed values, the piece's fixed text)."""
    if not ep.response_text or ep.request_example is not None or "{" in ep.path:
        return None
    for param in ep.params:
        allowed = [str(v) for v in param.constraints.get("enum") or []]
        if param.location not in ("query", "body") or len(allowed) < 2:
            continue
        for text in ep.response_text:
            if names_input(placeholder(text) or "", param.name) and fixed_part(text):
                return param, allowed, fixed_part(text)
    return None


def _send(param: Param, value: str | None) -> str:
    if value is None:
        return ""
    kind = "params" if param.location == "query" else "data"
    return f"{kind}={{{literal(param.name)}: {value}}}"


def _shown(var: str, fixed: str) -> list[str]:
    pattern = re.escape(fixed) + r"\s*([\w.@-]+)"
    return [f"shown = re.search({pattern!r}, {var}.text)",
            f"assert shown is not None, {var}.text[:500]"]


def _others(ep: Endpoint, param: Param, fixed: str, allowed: list[str], var: str) -> list[str]:
    """Pieces naming another value of the same kind show one of the allowed values."""
    out = []
    for text in ep.response_text:
        name, other = placeholder(text) or "", fixed_part(text)
        if other == fixed or not other or param.name not in name:
            continue
        pattern = re.escape(other) + r"\s*([\w.@-]+)"
        out += [f"other = re.search({pattern!r}, {var}.text)",
                f"assert other is not None and other.group(1) in {literal(allowed)}, "
                f"{var}.text[:500]"]
    return out


def each_value_shown(w: Writer, ep: Endpoint) -> Case | None:
    found = _input(ep)
    if found is None or not w.model.reachable(ep):
        return None
    param, allowed, fixed = found
    case = Case(f"test_{VERBS[ep.method]}_{thing(ep.path)}_shows_each_allowed_"
                f"{param.name.lower()}", "api_compliance")
    for value in allowed[:MAX_VALUES]:  # written out: no assertion inside a loop
        case.add(w.call(case, "response", ep, {}, _send(param, literal(value))),
                 "assert response.status_code == 200, response.text",
                 *_shown("response", fixed),
                 f"assert shown.group(1) == {literal(value)}, response.text[:500]",
                 *_others(ep, param, fixed, allowed, "response"))
    return case


def _fallback(param: Param) -> tuple[str, bool, bool] | None:
    """(the fallback value, applies when missing, applies when not allowed)."""
    match = _FALLBACK.search(param.description)
    allowed = [str(v) for v in param.constraints.get("enum") or []]
    if match is None or match.group("value") not in allowed:
        return None
    when = match.group("when")
    return match.group("value"), bool(_MISSING.search(when)), bool(_INVALID.search(when))


def fallback_shown(w: Writer, ep: Endpoint) -> list[Case]:
    found = _input(ep)
    if found is None or not w.model.reachable(ep):
        return []
    param, allowed, fixed = found
    rule = _fallback(param)
    if rule is None:
        return []
    value, missing, invalid = rule
    out = []
    for applies, label, sent in ((missing, "without", None),
                                 (invalid, "with_unlisted", 'unique("unlisted")')):
        if not applies:
            continue
        case = Case(f"test_{VERBS[ep.method]}_{thing(ep.path)}_{label}_{param.name.lower()}"
                    f"_shows_{value.lower()}", "edge_case")
        case.add(w.call(case, "response", ep, {}, _send(param, sent)),
                 "assert response.status_code == 200, response.text",
                 *_shown("response", fixed),
                 f"assert shown.group(1) == {literal(value)}, response.text[:500]")
        out.append(case)
    return out


def page_cases(w: Writer) -> list[Case | None]:
    """Every page template over every documented endpoint, in document order."""
    out: list[Case | None] = []
    for ep in w.model.spec.endpoints:
        out += [each_value_shown(w, ep), *fallback_shown(w, ep)]
    return out
