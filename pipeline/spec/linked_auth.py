"""Accounts a document leaves to an auth library it links to.

A README may say no more about sign-up and sign-in than a link under its "Authentication"
heading (`http://django-rest-auth.readthedocs.io/en/latest/api_endpoints.html`). Anyone who
implements it reads that page, so its endpoints are part of the requirement: registration,
login answering `{"key": ...}`, and the key sent as `Authorization: Token <key>`. The
endpoints come into the spec marked `linked` with the library's name; the bodies are the
library's own documented fields. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.records import AuthSpec, Endpoint, Param

_PASSWORD = "S3cret-pass-1"


@dataclass(frozen=True)
class _Library:
    name: str
    link: re.Pattern[str]
    prefix: str  # where its URLs are mounted by default


# django-rest-auth and its maintained fork dj-rest-auth document the same endpoints
_LIBRARIES = (
    _Library("dj-rest-auth", re.compile(r"\bdj-rest-auth\.readthedocs\.io", re.I),
             "/dj-rest-auth"),
    _Library("django-rest-auth", re.compile(r"\bdjango-rest-auth\.readthedocs\.io", re.I),
             "/rest-auth"),
)
_NAMES = re.compile(r"[\w.-]*rest-auth[\w.-]*", re.I)
_AUTH_NEAR = re.compile(r"auth|log-?in|sign-?(?:in|up)|token|account", re.I)


def _linked(markdown: str) -> tuple[_Library, int] | None:
    """The library an auth passage links to, and the line of the link."""
    for lib in _LIBRARIES:
        for m in lib.link.finditer(markdown):
            near = _NAMES.sub("", markdown[max(0, m.start() - 200):m.start()])
            if _AUTH_NEAR.search(near):  # the passage is about accounts, not the library's name
                return lib, markdown.count("\n", 0, m.start()) + 1
    return None


def _body(example: dict[str, str]) -> list[Param]:
    return [Param(name=k, location="body", type="string", required=True) for k in example]


def linked_auth(markdown: str, auth: AuthSpec | None,
                paths: set[str]) -> tuple[AuthSpec, list[Endpoint]] | None:
    """The auth and the account endpoints of the library the document links to, where the
    document itself gives no way to sign in; None otherwise."""
    found = _linked(markdown)
    if found is None or (auth is not None and auth.login_path):
        return None
    lib, line = found
    register = {"username": "alice", "email": "alice@example.com",
                "password1": _PASSWORD, "password2": _PASSWORD}
    login = {"username": "alice", "password": _PASSWORD}
    key = {"key": "9054f7aa9305e012b3c2300408c3dfdf390fcddf"}
    endpoints = [
        Endpoint(method="POST", path=f"{lib.prefix}/registration/", line=line,
                 summary=f"Register an account ({lib.name}, linked)", auth_required=False,
                 params=_body(register), request_example=register, linked=lib.name),
        Endpoint(method="POST", path=f"{lib.prefix}/login/", line=line,
                 summary=f"Log in; the answer holds the token key ({lib.name}, linked)",
                 auth_required=False, params=_body(login), request_example=login,
                 response_example=key, linked=lib.name),
    ]
    endpoints = [e for e in endpoints if e.path not in paths]
    return AuthSpec(scheme="token", header="Authorization", login_method="POST",
                    login_path=f"{lib.prefix}/login/",
                    description=f"Token auth of {lib.name} (the document links its "
                                "endpoints): `Authorization: Token <key>`"), endpoints
