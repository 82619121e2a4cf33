"""Offline templates: integration flows (create → read → update → delete, auth flows)."""

from __future__ import annotations

import re

from pipeline.offline.gen_api import emit_update
from pipeline.offline.gen_code import (
    Case,
    Writer,
    add_payload,
    literal,
    payload_lines,
    status_assert,
)
from pipeline.offline.gen_common import (
    action_name,
    bind,
    body_checks,
    listed_records,
)
from pipeline.offline.gen_model import (
    SEARCH_PARAMS,
    Model,
    Resource,
    body_keyword,
    error_code,
    has_reference,
    login_sources,
    response_doc,
    success_status,
    token_field,
    token_source,
)
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint


def header_source(model: Model, token_var: str = "token") -> str | None:
    """Source of the headers dict that carries a token, per the documented scheme."""
    auth = model.spec.auth
    if auth is None:
        return None
    scheme = auth.scheme.lower()
    if scheme == "bearer":
        value = f'f"Bearer {{{token_var}}}"'
    elif scheme == "token":
        value = f'f"Token {{{token_var}}}"'
    elif scheme == "api-key":
        value = token_var
    else:
        return None
    return f"{{{literal(auth.header)}: {value}}}"


def _listing_check(case: Case, w: Writer, res: Resource, bindings: dict[str, str],
                   present: bool) -> bool:
    ep = res.listing
    records = listed_records(res, ep, "listed_body")
    if ep is None or records is None or not w.model.reachable(ep):
        return False
    shape = res.observed(ep)  # an unpaged observed list held the record just created
    seen = shape is not None and not shape.list_paged
    search = next((p.name for p in ep.params if p.name in SEARCH_PARAMS), None)
    title = next((k for k in (res.payload or {}) if k in ("title", "name")), None)
    extra = ""
    if search and title:
        extra = f"params={{{literal(search)}: payload[{literal(title)}]}}"
    elif not isinstance(response_doc(ep), list) and res.parent is None and not seen:
        return False  # a paged list may not show the new record on its first page
    case.add(w.call(case, "listed", ep, bindings, extra), status_assert("listed", ep),
             "listed_body = listed.json()",
             f"assert {res.id_var} {'in' if present else 'not in'} "
             f"[{res.id_of('record', ep)} for record in {records}]")
    return True


def lifecycle(w: Writer, res: Resource) -> Case | None:
    """Create, read it back (item or list), update, delete, and see it gone."""
    if not res.creatable or res.delete is None or res.create is None:
        return None
    if not all(w.model.reachable(e) for e in (res.create, res.delete)):
        return None
    case = Case(f"test_{res.noun}_lifecycle_create_read_update_delete", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings, deletable=True):
        return None
    read = res.get is not None and w.model.reachable(res.get) and res.reads_back()
    if read:
        assert res.get is not None
        case.add(w.call(case, "fetched", res.get, bindings), status_assert("fetched", res.get),
                 f"assert {res.id_of(res.record_of('fetched', res.get), res.get)} "
                 f"== {res.id_var}")
    elif not _listing_check(case, w, res, bindings, present=True):
        return None
    if res.update is not None and w.model.reachable(res.update):
        emit_update(w, case, res, bindings)
    case.add(w.call(case, "deleted", res.delete, bindings), status_assert("deleted", res.delete))
    if read and res.get is not None and error_code(res.get, 404):
        case.add(w.call(case, "gone", res.get, bindings),
                 "assert gone.status_code == 404, gone.text",
                 *w.errors("gone", 404))
    elif read and res.get is not None:  # no code for a missing record: it is not shown
        case.add(w.call(case, "gone", res.get, bindings),
                 "assert gone.status_code >= 400 or "
                 f"id_of_record(record_in(gone.json()), {literal(res.noun)}) != {res.id_var}, "
                 "gone.text")
    elif not read:
        _listing_check(case, w, res, bindings, present=False)
    return case


def listed_after_create(w: Writer, res: Resource) -> Case | None:
    if not res.creatable or res.create is None or not w.model.reachable(res.create):
        return None
    case = Case(f"test_created_{res.noun}_appears_in_list", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    if not _listing_check(case, w, res, bindings, present=True):
        return None
    return case


def action_pair(w: Writer, post: Endpoint, delete: Endpoint) -> Case | None:
    """POST then DELETE on the same sub-path of a record (start then end a state)."""
    if success_status(post) is None or success_status(delete) is None:
        return None
    payload = payload_of(post)
    if payload is not None and has_reference(payload):
        return None
    if not (w.model.reachable(post) and w.model.reachable(delete)):
        return None
    case = Case(f"test_{action_name(w.model, post)}_post_then_delete_succeeds", "integration")
    bindings = bind(case, w, post)
    if bindings is None:
        return None
    extra = add_payload(case, "body_sent", payload)
    case.add(w.call(case, "started", post, bindings, extra), status_assert("started", post),
             w.call(case, "ended", delete, bindings), status_assert("ended", delete))
    case.add(*body_checks("ended", delete, "ended_body", w.model.envelope))
    return case


def register_lines(case: Case, w: Writer, model: Model) -> list[str] | None:
    """Register a fresh user and log in; leaves `headers` bound. None if undocumented."""
    reg, login = model.register, model.login
    header = header_source(model)
    if login is None or header is None:
        return None
    login_doc = login.request_example if isinstance(login.request_example, dict) else {}
    creds = dict(reg.request_example) if reg is not None else {}
    if reg is not None:
        case.add(*payload_lines("credentials", creds),
                 w.call(case, "registered", reg, {}, "json=credentials"),
                 # the account is the flow's setup: any success makes it (its own test
                 # checks the documented code)
                 "assert 200 <= registered.status_code < 300, registered.text",
                 *[f"assert credentials[{literal(k)}] not in registered.text, registered.text"
                   for k, v in creds.items()  # a service never shows a password back
                   if "pass" in k.lower() and isinstance(v, str) and len(v) >= 6][:1])
    else:
        return None
    case.add(_login_call("login", login, reg, login_doc))
    case.target(login)
    case.add(status_assert("login", login), f"token = {token_source(model, 'login')}",
             "assert isinstance(token, str) and token", f"headers = {header}")
    return []


def _login_call(var: str, login: Endpoint, reg: Endpoint, login_doc: dict,
                wrong: str | None = None) -> str:
    """The login request with the registered account's values (`wrong`: this key's value
    altered, a wrong password)."""
    sources = login_sources(login, reg)
    parts = [f"{literal(k)}: credentials[{literal(sources[k])}]" if k in sources else
             f"{literal(k)}: {literal(v)}" for k, v in login_doc.items()]
    if wrong is not None:
        parts = [p + ' + "-wrong"' if p.startswith(literal(wrong) + ":") else p for p in parts]
    return (f"{var} = session.{login.method.lower()}(f\"{{base_url}}{login.path}\", "
            f"{body_keyword(login)}={{{', '.join(parts)}}})")


# the login's documented answer to a wrong password, whatever its code (`202: Invalid
# credentials`)
_BAD_CREDENTIALS = re.compile(r"(?:invalid|wrong|incorrect|bad)\s+(?:credential|password|login"
                              r"|e-?mail|user)", re.I)


def wrong_password_refused(w: Writer) -> Case | None:
    """An account that logs in with its password is refused with another one, and gets no
    token: the documented 401, else a 4xx (a login refuses a wrong password whatever the
    document lists)."""
    model = w.model
    login, reg, field = model.login, model.register, token_field(model)
    login_doc = login.request_example if login is not None and isinstance(
        login.request_example, dict) else {}
    secret = next((k for k in login_doc if "pass" in k.lower()), None)
    if login is None or reg is None or secret is None:
        return None
    case = Case("test_login_with_a_wrong_password_is_refused", "error_handling")
    if register_lines(case, w, model) is None:
        return None
    stated = next((c for c, text in sorted(login.status_codes.items())
                   if c != success_status(login) and _BAD_CREDENTIALS.search(str(text))), None)
    check = ("assert refused.status_code == 401, refused.text" if error_code(login, 401)
             else f"assert refused.status_code == {stated}, refused.text" if stated
             else "assert 400 <= refused.status_code < 500, refused.text")
    case.add(_login_call("refused", login, reg, login_doc, wrong=secret), check)
    if field is not None:
        case.add(f"assert {literal(field)} not in refused.text")
    return case


def auth_flow(w: Writer) -> Case | None:
    """Register, log in, use the token on a protected endpoint, log out, token refused."""
    model = w.model
    reads = [e for e in model.spec.endpoints if e.method == "GET" and "{" not in e.path
             and model.needs_auth(e)]
    # a read with a documented success first; else any read: a GET succeeds with a 2xx
    opened = ([e for e in reads if success_status(e)]
              or [e for e in reads if not _LOGOUT.search(e.path)])
    # a sign-out is no read to open: another one, else the sign-out alone
    protected = next((e for e in opened if not _LOGOUT.search(e.path)), None) or next(
        iter(opened), None)
    if protected is None:
        return None
    case = Case("test_register_login_and_access_protected_endpoint", "integration")
    if register_lines(case, w, model) is None:
        return None
    if not _LOGOUT.search(protected.path):
        call = w.call_unsigned(case, "me", protected, {}, "headers=headers")
        case.add(call, status_assert("me", protected), *_own_values("me", protected, case))
    logout = next((e for e in model.spec.endpoints if e.method in ("POST", "GET", "DELETE")
                   and _LOGOUT.search(e.path)), None)
    if logout is not None and error_code(logout, 401) and logout.method == "POST" \
            and success_status(logout):
        case.name = "test_register_login_use_token_then_logout_revokes_it"
        out = w.call_unsigned(case, "out", logout, {}, "headers=headers")
        again = w.call_unsigned(case, "again", logout, {}, "headers=headers")
        case.add(out, status_assert("out", logout), again,
                 "assert again.status_code == 401, again.text",
                 *w.errors("again", 401))
    elif logout is not None and "{" not in logout.path:
        # "This will sign out a user when given an authentication token": the token it was
        # given opens nothing afterwards
        case.name = "test_register_login_use_token_then_logout_revokes_it"
        case.add(w.call_unsigned(case, "out", logout, {}, "headers=headers"),
                 status_assert("out", logout),
                 w.call_unsigned(case, "again", protected, {}, "headers=headers"),
                 "assert 400 <= again.status_code < 500, again.text")
    return case


_LOGOUT = re.compile(r"log-?out|sign-?out", re.I)


def _own_values(var: str, ep: Endpoint, case: Case) -> list[str]:
    """The protected answer names the user who logged in: registered fields (not secrets)
    the documented body echoes must equal the values sent."""
    doc = response_doc(ep)
    if not isinstance(doc, dict) or "credentials = " not in "\n".join(case.setup + case.body):
        return []
    keys = [k for k in doc if isinstance(k, str) and k in ("username", "name", "email", "login")]
    return [f"assert {var}.json()[{literal(k)}] == credentials[{literal(k)}]"
            for k in keys if f'"{k}":' in "\n".join(case.setup + case.body)][:1]


def login_wrong_password(w: Writer) -> Case | None:
    model = w.model
    login = model.login
    if login is None or not error_code(login, 401) or not isinstance(login.request_example, dict):
        return None
    case = Case("test_login_with_unknown_user_returns_401", "error_handling")
    body = {k: v for k, v in login.request_example.items()}
    case.add(*payload_lines("credentials", body),
             w.call(case, "response", login, {}, f"{body_keyword(login)}=credentials"),
             "assert response.status_code == 401, response.text",
             *w.errors("response", 401))
    return case


def isolation(w: Writer, res: Resource) -> Case | None:
    """Another user cannot read a record: the documented 404 (or 403)."""
    ep = res.get
    if ep is None or not res.creatable or not w.model.needs_auth(ep) or not w.model.auth_usable:
        return None
    code = 404 if error_code(ep, 404) else 403 if error_code(ep, 403) else None
    if code is None or res.parent is not None:
        return None
    case = Case(f"test_other_user_cannot_read_{res.noun}", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    case.add(w.call_unsigned(case, "response", ep, bindings, "headers=other_auth_headers"),
             f"assert response.status_code == {code}, response.text",
             *w.errors("response", code))
    echo = w.echo_fields(res, res.payload or {})
    if echo:  # refused to the other user, still there unchanged for its owner
        case.add(w.call(case, "mine", ep, bindings), status_assert("mine", ep),
                 "kept = mine.json()",
                 *[f"assert kept[{literal(k)}] == payload[{literal(k)}]" for k in echo[:3]])
    return case
