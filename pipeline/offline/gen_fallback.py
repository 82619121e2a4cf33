"""Never an empty suite: cases for documented endpoints no other template wrote one for.

The templates in gen_api/gen_errors/gen_flows write a case only when the document says
enough; a task whose README yields endpoints but few details used to end with no case for
them (or none at all). `fill_uncovered` writes, from method, path and whatever the spec
holds, for each documented endpoint without a case:
- a success case: the documented 2xx (else the HTTP default for the method), with the
  record a path parameter names created first through the collection's documented POST,
  and the documented top-level response fields checked;
- the documented or obvious error case: no token (when the endpoint needs one), an unknown
  id (path parameters), an empty body (documented required fields) or malformed JSON (other
  body methods), an undocumented method on the path (the rest).
Cases that turn out wrong on the oracle are refined or discarded by the build like any other.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from pipeline.offline import gen_fallback_calls as fc
from pipeline.offline.gen_fallback_auth import refusal_doc, without_token_lines
from pipeline.offline.gen_fallback_contrast import DOC, malformed_then_valid
from pipeline.offline.gen_model import (
    JWT_VALUE,
)
from pipeline.offline.tolerant import prelude_for
from pipeline.records import Endpoint, Spec, TestCase


def success_case(spec: Spec, ep: Endpoint, auth: bool) -> tuple[str, list[str]] | None:
    """(docstring, body lines) of the documented success, or None when it cannot be made."""
    needs_token = ep.auth_required is True
    if needs_token and not auth:
        return None
    if spec.auth is not None and (ep.method, ep.path) == (spec.auth.login_method,
                                                          spec.auth.login_path):
        return fc.login_success(spec, ep)
    if _unformable(ep):
        return None
    lines: list[str] = []
    bindings: dict[str, str] = {}
    if fc.PARAM.search(ep.path):
        made = fc.created_lines(spec, ep, auth, needs_token)
        if made is None:
            return None
        lines, bindings = made
    codes = fc.ok_codes(ep)
    echo = fc.echo_input(ep) if ep.response_text and not bindings else None
    url, body = fc.url_source(ep.path, bindings), fc.body_value(ep)
    if echo is not None and echo[0] == "query":
        url = url[:-1] + "?" + urlencode(echo[1]) + '"'
    lines.append(fc.call_line("response", ep, url, needs_token, body))
    lines.append(fc.code_check("response", codes))
    if ep.method == "GET" and bindings and any(ln.startswith("records = ") for ln in lines):
        var = next(iter(bindings.values()))  # the read answers the record the list showed
        lines.append(f"assert id_of_record(record_in(response.json())) == {var}")
    lines += _answer_checks(ep, codes, echo[1] if echo else None)
    what = ep.summary or f"{ep.method} {ep.path}"
    return f"{what}: the documented success ({', '.join(map(str, codes))}).", lines


def _unformable(ep: Endpoint) -> bool:
    """No request can be written without guessing: a documented body none can be formed
    for, or a token copied from the document (never issued to this test)."""
    if fc.body_value(ep) is None and any(p.location == "body" for p in ep.params):
        return True
    return isinstance(ep.request_example, dict) and any(
        isinstance(v, str) and JWT_VALUE.match(v) for v in ep.request_example.values())


def _answer_checks(ep: Endpoint, codes: tuple[int, ...], echoed: dict | None) -> list[str]:
    """The documented top-level fields of the answer, else the text it echoes."""
    if 204 in codes:
        return []
    fields = fc.documented_fields(ep, codes[0])
    if fields:
        return ["body = response.json()", f"assert set({sorted(fields)!r}) <= set(body), body"]
    return fc.text_checks(ep, echoed)


def error_case(spec: Spec, ep: Endpoint, auth: bool) -> tuple[str, str, list[str]]:
    """(name suffix, docstring, body lines) of the documented or obvious error; a refused
    write on a collection also checks that the collection did not change."""
    if ep.auth_required is True:
        refused, control = without_token_lines(spec, ep, auth)
        lines = fc.unchanged_lines(spec, ep, auth, refused) + control
        return "without_token", refusal_doc(lines), lines
    suffix, doc, lines = _error_case(spec, ep, auth)
    return suffix, doc, fc.unchanged_lines(spec, ep, auth, lines)


def _error_case(spec: Spec, ep: Endpoint, auth: bool) -> tuple[str, str, list[str]]:
    url = fc.url_source(ep.path, {})
    if fc.PARAM.search(ep.path) and (404 in ep.status_codes or fc.create_for(spec, ep)):
        # only a record the document creates (or a documented 404): "/likes/stats/{id}" of
        # content nobody liked may well answer zero counts
        control: list[str] = []
        made = fc.created_lines(spec, ep, auth, False) if ep.method == "GET" else None
        if made is not None:  # a record that exists is found: a service answering 404 for
            lines, bindings = made  # every id fails here
            control = [*lines, fc.call_line("known", ep, fc.url_source(ep.path, bindings), False),
                       fc.code_check("known", fc.ok_codes(ep))]
        return ("unknown_id", "A path naming no record answers 404 Not Found.",
                [*control, fc.call_line("response", ep, url, False, fc.body_value(ep)),
                 fc.code_check("response", (404,))])
    # fields with allowed values or defaults and none required: no body is an error
    loose = ep.request_example is None and not ep.request_schema and fc.params_body(ep) \
        is not None and not any(p.required for p in ep.params)
    if ep.method in fc.BODY_METHODS and not loose:
        schema = ep.request_schema or {}
        login = spec.auth is not None and ep.path == spec.auth.login_path
        if schema.get("required") or any(p.required for p in ep.params if p.location == "body"
                                         ) or (login and ep.request_form):
            codes = tuple(c for c in (400, 422) if c in ep.status_codes) or (400, 422)
            return ("empty_body", "A body without the required fields is rejected.",
                    [fc.call_line("response", ep, url, auth and ep.auth_required is True, {}),
                     fc.code_check("response", codes)])
        contrast = malformed_then_valid(spec, ep)
        if contrast is not None:
            return "malformed_json", DOC, contrast
        return ("malformed_json", "A body that is not JSON is rejected with a 4xx.",
                [fc.call_line("response", ep, url, False, raw="{not json"),
                 "assert 400 <= response.status_code < 500, response.text"])
    used = {e.method for e in spec.endpoints if e.path == ep.path}
    other = next(m for m in ("DELETE", "PUT", "PATCH", "POST", "GET") if m not in used)
    probe = ep.model_copy(update={"method": other})
    return (f"{other.lower()}_not_allowed", f"{other} is not documented for this path.",
            [fc.call_line("response", probe, url, False), fc.code_check("response", (404, 405))])


def fill_uncovered(task_id: str, spec: Spec, cases: list[TestCase],
                   auth: bool) -> list[TestCase]:
    """Cases for every documented endpoint `cases` leave uncovered (`auth`: the conftest
    offers an `auth_headers` fixture)."""
    names = {c.name for c in cases}
    out: list[TestCase] = []

    def add(name: str, category: str, code: str, endpoints: list[str]) -> None:
        unique, n = name, 1
        while unique in names:
            n += 1
            unique = f"{name}_{n}"
        names.add(unique)
        out.append(TestCase(
            case_id=f"{task_id}::{unique}", task_id=task_id, round=0,
            category=category, name=unique,  # type: ignore[arg-type]
            code=code.replace(f"def {name}(", f"def {unique}(", 1), endpoints=endpoints,
            origin="generated", author=fc.AUTHOR, prelude=prelude_for(code)))

    for ep in fc.uncovered(spec, cases):
        slug = fc.endpoint_slug(ep)
        ok = success_case(spec, ep, auth)
        if ok is not None:
            doc, lines = ok
            name = f"test_{slug}_documented_success"
            targets = [fc.endpoint_key(ep)]
            made = next((ln for ln in lines if ln.startswith("created = ")), "")
            created = re.search(r"session\.post\(f\"\{base_url\}([^\"]*)\"", made)
            if created:
                targets.append(f"POST {created.group(1)}")
            add(name, "api_compliance", fc.function_source(name, doc, lines), targets)
        suffix, doc, lines = error_case(spec, ep, auth)
        name = f"test_{slug}_{suffix}"
        add(name, "error_handling", fc.function_source(name, doc, lines), [fc.endpoint_key(ep)])
    return out
