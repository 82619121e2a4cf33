"""The account a register endpoint makes and how a login sends it: read from the document's
own examples (pure; no model, no I/O)."""

from __future__ import annotations

import re

from pipeline.records import Endpoint

_USER_KEYS = ("username", "user", "login", "email", "name")
REGISTER_PATH = re.compile(r"regist(?:er|ration)|sign-?up", re.I)


def basic_keys(ep: Endpoint, name_key: str | None = None) -> tuple[str, str] | None:
    """(name key, password key) of the account `ep` creates, for HTTP Basic credentials;
    `name_key`: the key the document says the name is (`AuthSpec.name_key`), if sent."""
    body = ep.request_example if isinstance(ep.request_example, dict) else {}
    secret = next((k for k in body if "pass" in k.lower() and isinstance(body[k], str)), None)
    if secret is None:
        return None
    keys = (name_key, *_USER_KEYS) if name_key else _USER_KEYS
    name = next((k for k in keys if isinstance(body.get(k), str)), None)
    others = [k for k, v in body.items() if k != secret and isinstance(v, str)]
    if name is None and len(others) == 1:
        name = others[0]
    return (name, secret) if name is not None else None


def login_sources(login: Endpoint, reg: Endpoint | None) -> dict[str, str]:
    """Login body key -> the registered key whose value it sends: the same key, else the one
    the document's examples give the same value (an OAuth2 form's `username` is the account's
    `email`). Keys with neither are left out: they keep the document's value."""
    body = login.request_example if isinstance(login.request_example, dict) else {}
    account = reg.request_example if reg is not None and isinstance(reg.request_example,
                                                                    dict) else {}
    out: dict[str, str] = {}
    for key, value in body.items():
        same = [k for k, v in account.items() if v == value and isinstance(v, str)]
        if key in account:
            out[key] = key
        elif len(same) == 1:
            out[key] = same[0]
    return out


def body_keyword(ep: Endpoint) -> str:
    """The requests keyword that sends `ep`'s body as the document does."""
    return "data" if ep.request_form else "json"


def register_endpoint(eps: list[Endpoint], login: Endpoint | None, basic: bool,
                      name_key: str | None) -> Endpoint | None:
    """The endpoint that makes an account: a registration path, else the open create that
    takes what the login sends, else (HTTP Basic) the open create that takes a name (at
    `name_key`, the document's `AuthSpec.name_key`) and a password."""
    register = next((e for e in eps if e.method == "POST" and REGISTER_PATH.search(
        e.path) and isinstance(e.request_example, dict)), None)
    if register is None and login is not None and isinstance(
            login.request_example, dict) and login.request_example:
        # the open create whose body holds every key the login sends makes the account
        keys = set(login.request_example)
        register = next((e for e in eps if e.method == "POST" and "{" not in e.path
                         and e is not login and e.auth_required is not True
                         and isinstance(e.request_example, dict)
                         and keys <= set(e.request_example)), None)
    if register is None and basic:
        # HTTP Basic sends an account's name and password: the open create that takes both
        register = next((e for e in eps if e.method == "POST" and "{" not in e.path
                         and e.auth_required is not True
                         and basic_keys(e, name_key)), None)
    return register
