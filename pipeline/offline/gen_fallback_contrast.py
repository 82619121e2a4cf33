"""The fallback's malformed-JSON case on an account endpoint, with its corrected call.

"A body that is not JSON answers 4xx" alone passes on a service whose register, login or
token refresh refuses everything. On the endpoints that make an account and its token
(register, login, a refresh taking a token the login answers with), the corrected call's
effect is a working credential, so the case goes on: the protected endpoint refuses a call
without a token; the documented account is registered and logs in (refreshing its token when
the case is about the refresh); the token it gets opens the protected endpoint. A service
that issues tokens nobody accepts, or accounts that cannot log in, fails.
Pure: builds source lines from the spec.
"""

from __future__ import annotations

from pipeline.offline import gen_fallback_calls as fc
from pipeline.offline.gen_fallback_auth import refusal_codes
from pipeline.offline.gen_flows import header_source
from pipeline.offline.gen_model import JWT_VALUE, build_model, response_doc, token_field
from pipeline.records import Endpoint, Spec

DOC = ("A body that is not JSON is rejected with a 4xx; the same call with the documented "
       "body is accepted, and the token its account gets opens a protected endpoint.")


def _refresh_key(ep: Endpoint, login_doc: object) -> str | None:
    """The body field of a refresh call that takes a token the login answers with."""
    body = ep.request_example if isinstance(ep.request_example, dict) else {}
    keys = [k for k, v in body.items() if isinstance(v, str) and JWT_VALUE.match(v)
            and isinstance(login_doc, dict) and k in login_doc]
    return keys[0] if len(keys) == 1 and len(body) == 1 else None


def malformed_then_valid(spec: Spec, ep: Endpoint) -> list[str] | None:
    """The case's lines for a malformed body on register, login or refresh (None: `ep` is
    none of them, or the document lacks the account, login or protected endpoint)."""
    model = build_model(spec)
    login, reg = model.login, fc.register_endpoint(spec)
    field, header = token_field(model), header_source(model, "token")
    protected = next((e for e in spec.endpoints if e.method == "GET" and "{" not in e.path
                      and e.auth_required is True), None)
    if (login is None or reg is None or field is None or header is None or protected is None
            or not isinstance(login.request_example, dict)
            or not isinstance(reg.request_example, dict)):
        return None
    keys = [k for k in login.request_example if k in reg.request_example]
    if len(keys) != len(login.request_example):
        return None
    refresh = None
    if ep not in (login, reg):
        refresh = _refresh_key(ep, response_doc(login))
        if refresh is None or field not in (response_doc(ep) or {}):
            return None
    url, purl = fc.url_source(ep.path, {}), fc.url_source(protected.path, {})
    lines = [fc.call_line("response", ep, url, False, raw="{not json"),
             "assert 400 <= response.status_code < 500, response.text",
             fc.call_line("refused", protected, purl, False),
             fc.code_check("refused", refusal_codes(protected)),
             "# the same call with a valid body is accepted: the account's token opens it",
             f"account = {fc.Unique(reg.request_example).source()}",
             f"registered = session.post({fc.url_source(reg.path, {})}, json=account)",
             fc.code_check("registered", fc.ok_codes(reg)),
             f"credentials = {{k: account[k] for k in {keys!r}}}",
             f"logged_in = session.{login.method.lower()}({fc.url_source(login.path, {})}, "
             "json=credentials)",
             fc.code_check("logged_in", fc.ok_codes(login)),
             f"token = logged_in.json()[{field!r}]"]
    if refresh is not None:
        lines += [f"refreshed = session.post({url}, json={{{refresh!r}: "
                  f"logged_in.json()[{refresh!r}]}})",
                  fc.code_check("refreshed", fc.ok_codes(ep)),
                  f"token = refreshed.json()[{field!r}]"]
    return [*lines, f"allowed = session.get({purl}, headers={header})",
            fc.code_check("allowed", fc.ok_codes(protected))]
