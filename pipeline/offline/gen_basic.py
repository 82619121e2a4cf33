"""Offline templates for HTTP Basic: a fresh account's name and password open what the document
protects, a wrong password or none does not, and where the document shows a token issued to
the account used in the name field, the token opens it too.

What each case asserts comes from the document: the success and refusal codes it states (a
4xx when it states none), the keys its example answers show, and the account's own name in an
answer whose documented example carries the example account's name.
"""

from __future__ import annotations

from typing import Any

from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import action_name
from pipeline.offline.gen_model import Model, basic_keys, error_code, response_doc, success_status
from pipeline.records import Endpoint

_AUTH = "auth=({name}, {password})"


def _refused(var: str, ep: Endpoint) -> str:
    if error_code(ep, 401):
        return f"assert {var}.status_code == 401, {var}.text"
    return f"assert 400 <= {var}.status_code < 500, {var}.text"


def _protected(model: Model) -> list[Endpoint]:
    """Reads without a path parameter behind the credentials, with a stated success."""
    return [e for e in model.spec.endpoints if e.method == "GET" and "{" not in e.path
            and e is not model.register and e.auth_required is True
            and success_status(e) is not None]


def _account(case: Case, model: Model) -> tuple[str, str] | None:
    """Register a fresh account in the case; the source of its name and password."""
    reg = model.register
    keys = basic_keys(reg, model.basic_name) if reg is not None else None
    if reg is None or keys is None or not isinstance(reg.request_example, dict):
        return None
    case.add(*payload_lines("credentials", dict(reg.request_example)),
             f"registered = session.{reg.method.lower()}(f\"{{base_url}}{reg.path}\", "
             "json=credentials)",
             status_assert("registered", reg))
    case.target(reg)
    return f"credentials[{literal(keys[0])}]", f"credentials[{literal(keys[1])}]"


def _names_account(ep: Endpoint, model: Model) -> bool:
    """The documented answer carries the example account's name (`"Hello, miguel!"`)."""
    reg = model.register
    keys = basic_keys(reg, model.basic_name) if reg is not None else None
    if reg is None or keys is None or not isinstance(reg.request_example, dict):
        return False
    name = reg.request_example.get(keys[0])
    return isinstance(name, str) and len(name) >= 3 and _carries(response_doc(ep), name)


def _carries(value: Any, text: str) -> bool:
    if isinstance(value, dict):
        return any(_carries(v, text) for v in value.values())
    if isinstance(value, list):
        return any(_carries(v, text) for v in value)
    return isinstance(value, str) and text in value


def credentials_open(w: Writer, ep: Endpoint) -> Case | None:
    """The account's password opens `ep`; a wrong password and no credentials are refused."""
    model = w.model
    case = Case(f"test_basic_credentials_open_{action_name(model, ep)}", "integration",
                doc=f"{ep.method} {ep.path} opens to a fresh account's name and password "
                    "(HTTP Basic); a wrong password or none is refused.")
    pair = _account(case, model)
    if pair is None:
        return None
    name, password = pair
    case.target(ep)
    url = f'f"{{base_url}}{ep.path}"'
    case.add(f"opened = session.get({url}, {_AUTH.format(name=name, password=password)})",
             status_assert("opened", ep))
    if _names_account(ep, model):
        case.add(f"assert {name} in opened.text")
    case.add(f"wrong = session.get({url}, "
             f"{_AUTH.format(name=name, password=password + ' + ' + literal('-wrong'))})",
             _refused("wrong", ep),
             f"anonymous = session.get({url})", _refused("anonymous", ep))
    return case


def _token_key(ep: Endpoint) -> str | None:
    doc = response_doc(ep)
    if not isinstance(doc, dict):
        return None
    return next((k for k in doc if "token" in k.lower() and isinstance(doc[k], str)), None)


def token_issued(w: Writer) -> Case | None:
    """The token endpoint answers the account with a token and the documented keys; where
    the document shows the token sent as the name, it opens each protected read, with any
    password, and asks for a new token."""
    model = w.model
    issuer = next((e for e in _protected(model) if _token_key(e)), None)
    if issuer is None:
        return None
    key = _token_key(issuer)
    assert key is not None
    case = Case("test_basic_credentials_get_a_token", "integration",
                doc=f"{issuer.method} {issuer.path} answers a fresh account's name and password "
                    "with a token and the documented keys.")
    pair = _account(case, model)
    if pair is None:
        return None
    name, password = pair
    case.target(issuer)
    doc = response_doc(issuer)
    assert isinstance(doc, dict)
    case.add(f"issued = session.get(f\"{{base_url}}{issuer.path}\", "
             f"{_AUTH.format(name=name, password=password)})",
             status_assert("issued", issuer),
             f"token = issued.json()[{literal(key)}]",
             "assert isinstance(token, str) and token")
    others = sorted(k for k in doc if k != key)
    if others:
        case.add(f"assert {{{', '.join(literal(k) for k in others)}}} <= set(issued.json())")
    auth = model.spec.auth
    if auth is None or not auth.token_as_user:
        return case
    case.name = "test_basic_token_in_the_name_field_opens_protected_reads"
    case.doc = ("A token issued to a fresh account, sent as the HTTP Basic name with any "
                "password, opens the protected reads and gets a new token.")
    for ep in [e for e in _protected(model) if e is not issuer]:
        case.target(ep)
        var = f"with_token_{len(case.endpoints)}"
        case.add(f"{var} = session.get(f\"{{base_url}}{ep.path}\", auth=(token, \"unused\"))",
                 status_assert(var, ep))
        if _names_account(ep, model):
            case.add(f"assert {name} in {var}.text")
    case.add(f"renewed = session.get(f\"{{base_url}}{issuer.path}\", auth=(token, \"unused\"))",
             status_assert("renewed", issuer),
             f"assert isinstance(renewed.json()[{literal(key)}], str)")
    return case


def basic_cases(w: Writer) -> list[Case | None]:
    model = w.model
    if not model.basic or not model.auth_usable:
        return []
    cases: list[Case | None] = [credentials_open(w, ep) for ep in _protected(model)]
    return [*cases, token_issued(w)]
