"""Offline templates for records a flag makes private (`"private": true`), where the list has
a switch that adds them ("`private`: If `1` will list private pastes as well. Requires
authentication").

- The default list leaves a private record out and lists a public one; with the switch, and
  signed in, it lists the private one too.
- Where the switch requires authentication, asking for it without credentials is refused.
- A private record's read requires authentication (the read is documented as signed-in).

Lists are walked page by page (`page` from 1, up to 50 pages, until a page is empty or not
found), so records of other tests cannot hide the test's own on a later page.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_behaviour import create_record, listable, start_cleaning
from pipeline.offline.gen_code import Case, Writer, literal
from pipeline.offline.gen_docs import query_params
from pipeline.offline.gen_model import PAGE_PARAMS, Resource
from pipeline.records import Endpoint, Param

_FLAG = re.compile(r"^(?:is_?)?(?:private|hidden|secret)$", re.I)
_ADDS = re.compile(r"\b(?:private|hidden)\b.{0,40}\b(?:as well|too|also)\b|\binclud\w*\b.{0,30}"
                   r"\b(?:private|hidden)\b", re.I)
_VALUE = re.compile(r"\b(?:if|when|set to|with)\s+`{0,2}([\w-]+)`{0,2}\s*(?:will|it|is|then|,)",
                    re.I)
_NEEDS_AUTH = re.compile(r"requires?\s+(?:authentication|auth|login|credentials)", re.I)


def _flag(res: Resource) -> str | None:
    return next((k for k, v in res.fields.items() if _FLAG.match(str(k)) and isinstance(v, bool)),
                None)


def _switch(ep: Endpoint) -> tuple[Param, str] | None:
    """The list's query parameter that adds private records, and the value that does."""
    for p in query_params(ep):
        if _ADDS.search(p.description):
            m = _VALUE.search(p.description)
            return p, (m.group(1) if m else "true")
    return None


def _walk(case: Case, w: Writer, ep: Endpoint, res: Resource, var: str, params: str) -> None:
    """Bind `var` to the ids of every page of the list asked with `params`."""
    page = next((p.name for p in query_params(ep) if p.name in PAGE_PARAMS), None)
    ids = f"[id_of_record(r, {literal(res.noun)}) for r in records_in(got.json())]"
    if page is None:
        case.add(w.call(case, "got", ep, {}, f"params={params}", target=False),
                 "assert got.status_code == 200, got.text", f"{var} = {ids}")
        return
    call = w.call(case, "got", ep, {}, f"params={{**{params}, {literal(page)}: page}}",
                  target=False)
    case.add(f"{var} = []", "for page in range(1, 51):", f"    {call}",
             "    if page > 1 and got.status_code == 404:  # past the last page", "        break",
             "    assert got.status_code == 200, got.text", f"    rows = {ids}",
             f"    {var} += rows", "    if not rows:", "        break")


def private_cases(w: Writer, res: Resource) -> list[Case | None]:
    flag, ep = _flag(res), res.listing
    found = _switch(ep) if ep is not None else None
    if flag is None or ep is None or found is None or not listable(w, res) \
            or not w.model.auth_usable:
        return []
    param, value = found
    case = start_cleaning(f"test_private_{res.noun}_listed_only_when_asked_for", "integration",
                          w, res)
    public = create_record(case, w, res, "public", [f"{{p}}[{literal(flag)}] = False"])
    hidden = create_record(case, w, res, "hidden", [f"{{p}}[{literal(flag)}] = True"])
    _walk(case, w, ep, res, "plain", "{}")
    case.add(f"assert {public} in plain and {hidden} not in plain, plain")
    _walk(case, w, ep, res, "asked", f"{{{literal(param.name)}: {literal(value)}}}")
    case.add(f"assert {public} in asked and {hidden} in asked, asked")
    out: list[Case | None] = [case]
    if _NEEDS_AUTH.search(param.description):
        refused = Case(f"test_private_{res.noun}s_listed_only_to_a_signed_in_user",
                       "error_handling")
        refused.add(w.call_unsigned(refused, "response", ep, {},
                                    f"params={{{literal(param.name)}: {literal(value)}}}"),
                    "assert 400 <= response.status_code < 500, response.text")
        out.append(refused)
    get = res.get
    if get is not None and get.auth_required and w.model.reachable(get):
        read = start_cleaning(f"test_private_{res.noun}_read_only_by_a_signed_in_user",
                              "integration", w, res)
        rid = create_record(read, w, res, "hidden", [f"{{p}}[{literal(flag)}] = True"])
        bind = {res.param or "id": rid}
        read.add(w.call_unsigned(read, "anonymous", get, bind),
                 "assert 400 <= anonymous.status_code < 500, anonymous.text",
                 w.call(read, "signed", get, bind),
                 "assert signed.status_code == 200, signed.text")
        out.append(read)
    return out
