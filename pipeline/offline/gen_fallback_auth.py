"""The fallback's "called without a token" case, made to check behaviour, not only a code.

When the document gives no error body, a refusal can still be checked by what it must not
do and by a control call: a refused delete of a record the test created leaves the record
there (the same delete with the token then succeeds; a service whose unauthenticated delete
went through answers 404 to it); a refused clear of a collection leaves the test's record in
the list; a refused create is followed by the same call with the token, which succeeds (a
service refusing everyone fails it). Without a usable login the case stays the bare refusal.
"""

from __future__ import annotations

import re

from pipeline.offline import gen_fallback_calls as fc
from pipeline.offline.refine_values import MAX_ECHO, NO_ECHO
from pipeline.records import Endpoint, Spec, TestCase

_PARAM = re.compile(r"\{([^{}]+)\}")
_BODY = ("POST", "PUT", "PATCH")


def refusal_codes(ep: Endpoint) -> tuple[int, ...]:
    """The documented refusal (401 and/or 403), else any of those or a 400 (a document that
    names no code leaves a "bad request, no token" answer open)."""
    return tuple(c for c in (401, 403) if c in ep.status_codes) or (400, 401, 403)


def refusal_doc(lines: list[str]) -> str:
    """The docstring: what the case checks beyond the refusal, only when it does."""
    if any(ln.startswith(("control =", "listed_after =", "read =")) for ln in lines):
        return "Called without credentials, it is refused and changes nothing."
    return "Called without credentials, it is refused."


def without_token_lines(spec: Spec, ep: Endpoint,
                        auth: bool) -> tuple[list[str], list[str]]:
    """(refusal lines, control lines run after any unchanged-list check) of the no-token case
    for a protected `ep` (`auth`: the conftest offers `auth_headers`)."""
    codes = refusal_codes(ep)
    params = _PARAM.findall(ep.path)
    if auth and ep.method == "DELETE" and len(params) == 1:
        made = fc.created_lines(spec, ep, auth, True)
        if made is not None:
            lines, bindings = made
            url = fc.url_source(ep.path, bindings)
            control = [fc.call_line("control", ep, url, True),
                       fc.code_check("control", fc.ok_codes(ep))]
            return [*lines, fc.call_line("response", ep, url, False),
                    fc.code_check("response", codes)], control
    if auth and ep.method in ("PUT", "PATCH") and len(params) == 1:
        kept = _kept_record(spec, ep)
        if kept is not None:
            return kept, []
    if auth and ep.method == "DELETE" and not params:
        kept = _kept_in_list(spec, ep)
        if kept is not None:
            return kept, []
    url = fc.url_source(ep.path, {})
    if auth and ep.method == "POST" and not params and fc.body_value(ep) is not None:
        return _refused_then_sent(ep, url, codes)
    lines = [fc.call_line("response", ep, url, False, fc.body_value(ep)),
             fc.code_check("response", codes)]
    return lines, []


def _refused_then_sent(ep: Endpoint, url: str, codes: tuple[int, ...]) -> tuple[list[str],
                                                                                list[str]]:
    """A refused create, then the same body with the token: it succeeds and the answer holds
    the values sent (the fields the documented answer echoes), so a service that refuses
    everyone, or stores something else, fails."""
    body, success = fc.body_value(ep), fc.ok_codes(ep)
    fields = fc.documented_fields(ep, success[0]) or []
    sent = body.body if isinstance(body, fc.Unique) else body if isinstance(body, dict) else {}
    echo = [k for k, v in sent.items() if k in fields and not NO_ECHO.search(k)
            and isinstance(v, str | int | float | bool) and "@" not in str(v)][:MAX_ECHO]
    if not echo:  # nothing to compare: the control checks the status only, as before
        return [fc.call_line("response", ep, url, False, body), fc.code_check("response", codes)], [
            fc.call_line("control", ep, url, True, body), fc.code_check("control", success)]
    src = body.source() if isinstance(body, fc.Unique) else repr(body)
    return [f"sent = {src}", f"response = session.post({url}, json=sent)",
            fc.code_check("response", codes)], [
        f"control = session.post({url}, json=sent, headers=auth_headers)",
        fc.code_check("control", success),
        *[f"assert control.json()[{k!r}] == sent[{k!r}], control.text" for k in echo]]


def _kept_record(spec: Spec, ep: Endpoint) -> list[str] | None:
    """A refused update: the record the test created reads back with the values it had."""
    made = fc.created_lines(spec, ep, True, True)
    read = next((e for e in spec.endpoints if e.method == "GET" and e.path == ep.path), None)
    body = fc.body_value(ep)
    if made is None or read is None or not isinstance(body, fc.Unique):
        return None
    lines, bindings = made
    url = fc.url_source(ep.path, bindings)
    checks = [f"assert read.json()[{k!r}] == record[{k!r}]" for k in body.body]
    return [*lines, fc.call_line("response", ep, url, False, body),
            fc.code_check("response", refusal_codes(ep)),
            fc.call_line("read", read, url, True), fc.code_check("read", fc.ok_codes(read)),
            "assert isinstance(record, dict) and isinstance(read.json(), dict), read.text",
            *checks]


def _kept_in_list(spec: Spec, ep: Endpoint) -> list[str] | None:
    """A refused clear: the record the test created first is still listed, the list unchanged."""
    create = next((e for e in spec.endpoints if e.method == "POST" and e.path == ep.path), None)
    listing = next((e for e in spec.endpoints if e.method == "GET" and e.path == ep.path), None)
    if create is None or listing is None or fc.body_value(create) is None:
        return None
    url = fc.url_source(ep.path, {})
    listed = fc.ok_codes(listing)
    return [fc.call_line("created", create, url, True, fc.body_value(create)),
            fc.code_check("created", fc.ok_codes(create)),
            fc.call_line("listed_before", listing, url, True),
            fc.code_check("listed_before", listed),
            fc.call_line("response", ep, url, False), fc.code_check("response", refusal_codes(ep)),
            fc.call_line("listed_after", listing, url, True),
            fc.code_check("listed_after", listed),
            "assert listed_after.json() == listed_before.json()"]


MAX_EXTRA = 3


def no_token_cases(task_id: str, spec: Spec, cases: list[TestCase], auth: bool) -> list[TestCase]:
    """No-token cases for protected writes that other templates cover but no case calls
    without a token (at most MAX_EXTRA, in document order): a write that forgets its auth
    check passes every case that sends one."""
    refused = {key for c in cases if "without_token" in c.name or "_401" in c.name
               for key in c.endpoints}
    names = {c.name for c in cases}
    out: list[TestCase] = []
    for ep in spec.endpoints:
        key = fc.endpoint_key(ep)
        if (len(out) >= MAX_EXTRA or ep.auth_required is not True or ep.method == "GET"
                or key in refused):
            continue
        name = f"test_{fc.endpoint_slug(ep)}_without_token"
        if name in names:
            continue
        refusal, control = without_token_lines(spec, ep, auth)
        lines = fc.unchanged_lines(spec, ep, auth, refusal) + control
        doc = refusal_doc(lines)
        out.append(TestCase(case_id=f"{task_id}::{name}", task_id=task_id, round=0,
                            category="error_handling", name=name,
                            code=fc.function_source(name, doc, lines), endpoints=[key],
                            origin="generated", author=fc.AUTHOR))
    return out
