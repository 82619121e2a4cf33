"""The shared `conftest.py` of a generated suite (base URL, service wait, session, auth)."""

from __future__ import annotations

import inspect

from pipeline.offline.gen_code import literal
from pipeline.offline.gen_flows import header_source
from pipeline.offline.gen_model import (
    Model,
    basic_keys,
    body_keyword,
    build_model,
    login_sources,
    token_field,
)
from pipeline.offline.links_prelude import account_auth
from pipeline.offline.tolerant import token_in
from pipeline.records import Spec

HEAD = '''"""Shared fixtures for the black-box tests of {title}.

Generated offline from the requirement document. The service address comes from the
environment variable SERVICE_BASE_URL (default http://localhost:{port}).
"""

import os
import random
import time

import pytest
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

DEFAULT_BASE_URL = "http://localhost:{port}"
REQUEST_TIMEOUT_S = 10
SERVICE_WAIT_S = float(os.environ.get("SERVICE_WAIT_S", "30"))  # a runner may shorten it
# Fresh values come from one generator, reseeded for each test from the run's seed and the
# test's node id: a test draws the same values whichever tests ran before it. A runner may
# fix the seed (SERVICE_TEST_SEED); by default each run gets its own.
SEED = os.environ.get("SERVICE_TEST_SEED") or os.urandom(8).hex()
VALUES = random.Random(SEED)


class _TimeoutSession(requests.Session):
    """A session whose requests time out instead of hanging a test, and that resends an
    idempotent request once when the server had already closed the kept-alive connection
    (servers close it after an error response, racing the next request on it)."""

    def __init__(self):
        super().__init__()
        retry = Retry(total=1, connect=1, read=1, status=0, other=0, redirect=0,
                      backoff_factor=0, raise_on_status=False)
        for prefix in ("http://", "https://"):
            self.mount(prefix, HTTPAdapter(max_retries=retry))

    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", REQUEST_TIMEOUT_S)
        return super().request(method, url, **kwargs)


def unique_like(template="item"):
    """A value shaped like `template` (letters, digits, separators) that no other test uses."""
    template = str(template)
    if "@" in template:
        local, domain = template.split("@", 1)
        return unique_like(local) + "@" + domain
    if template.startswith(("http://", "https://")):
        return template.rstrip("/") + "/" + VALUES.randbytes(6).hex()
    pool = VALUES.randbytes(32) * 4
    hexish = all(c in "0123456789abcdef" for c in template)
    out = []
    for byte, char in zip(pool, template):
        if char.isdigit() and char.isascii():
            # a leading zero the template has not: a service may read digits as a number
            first = ("0" if char == "0" else str(1 + byte % 9)) if not out else None
            out.append(first or str(byte % 10))
        elif hexish:
            out.append("abcdef"[byte % 6])
        elif char.isascii() and char.isalpha():
            letter = "abcdefghijklmnopqrstuvwxyz"[byte % 26]
            out.append(letter.upper() if char.isupper() else letter)
        else:
            out.append(char)
    value = "".join(out) + template[len(out):]
    if sum(c.isascii() and c.isalnum() for c in template) < 6:
        if template.isascii() and template.isalpha():  # letters only: more letters
            value += "".join("abcdefghijklmnopqrstuvwxyz"[b % 26] for b in pool[:8])
        else:
            value += "-" + VALUES.randbytes(4).hex()
    return value


@pytest.fixture(autouse=True)
def fresh_values(request):
    """Reseed the fresh values for this test (see SEED)."""
    VALUES.seed(f"{{SEED}}:{{request.node.nodeid}}")


@pytest.fixture(scope="session")
def base_url():
    return os.environ.get("SERVICE_BASE_URL", DEFAULT_BASE_URL).rstrip("/")


@pytest.fixture(scope="session", autouse=True)
def service_ready(base_url):
    """Poll until the service answers any HTTP request (bounded), so tests never race it."""
    deadline = time.monotonic() + SERVICE_WAIT_S
    while True:
        try:
            requests.get(base_url + "/", timeout=2)
            return
        except requests.RequestException as exc:
            if time.monotonic() > deadline:
                pytest.exit(f"service at {{base_url}} did not answer: {{exc}}", returncode=3)
            time.sleep(0.2)


@pytest.fixture
def session():
    with _TimeoutSession() as s:
        yield s


@pytest.fixture
def unique():
    """`unique(template)`: a fresh value shaped like the template."""
    return unique_like
'''

# Both ways of getting a user's headers end in the same two fixtures.
USER_FIXTURES = '''

@pytest.fixture
def auth_headers(base_url):
    return new_user_headers(base_url)


@pytest.fixture
def other_auth_headers(base_url):
    """A second, unrelated user."""
    return new_user_headers(base_url)
'''

AUTH = '''

REGISTER = ({reg_method!r}, {reg_path!r}, {reg_body})
LOGIN = ({login_method!r}, {login_path!r}, {login_body})
TOKEN_FIELD = {token!r}


class _Signed(dict):
    """A signed-in user's headers; `user_id`: the id sign-up or sign-in gave it, if any."""

    user_id = None


def _user_id(*answers):
    for answer in answers:
        if isinstance(answer, dict) and isinstance(answer.get("user"), dict):
            answer = answer["user"]
        for key in ("user_id", "userId", "id") if isinstance(answer, dict) else ():
            if isinstance(answer.get(key), int | str) and not isinstance(answer[key], bool):
                return answer[key]
    return None


def _json(response):
    try:
        return response.json()
    except ValueError:
        return None


def new_user_headers(base_url):
    """Register a fresh user (when the service has a register endpoint), log in, return headers."""
    credentials = {{key: unique_like(value) if key in {unique_keys!r} else value
                   for key, value in REGISTER[2].items()}}
    registered = None
    with _TimeoutSession() as s:
        if REGISTER[1]:
            registered = s.request(REGISTER[0], base_url + REGISTER[1], json=credentials)
            assert registered.status_code < 300, registered.text
{login_lines}        assert login.status_code < 300, login.text
        token = {token_expr}
    headers = _Signed({headers})
    headers.user_id = _user_id(_json(login), _json(registered) if registered is not None else None)
    return headers
''' + USER_FIXTURES


AUTH_OPAQUE = '''


def new_user_headers(base_url):
    """The document names no endpoint that issues tokens: a fresh bearer token is a new user."""
    token = "user-" + VALUES.randbytes(16).hex()
    return {headers}
''' + USER_FIXTURES


AUTH_BASIC = '''

REGISTER = ({reg_method!r}, {reg_path!r}, {reg_body})
NAME_KEY, PASSWORD_KEY = {name_key!r}, {password_key!r}


def new_account(base_url):
    """Register a fresh account; its values as sent."""
    credentials = {{key: unique_like(value) if key in {unique_keys!r} else value
                   for key, value in REGISTER[2].items()}}
    with _TimeoutSession() as s:
        registered = s.request(REGISTER[0], base_url + REGISTER[1], json=credentials)
        assert registered.status_code < 300, registered.text
    return credentials


def basic_header(name, password):
    import base64

    pair = f"{{name}}:{{password}}".encode()
    return {{"Authorization": "Basic " + base64.b64encode(pair).decode()}}


def new_user_headers(base_url):
    """A fresh account's name and password, sent as HTTP Basic credentials."""
    credentials = new_account(base_url)
    return basic_header(credentials[NAME_KEY], credentials[PASSWORD_KEY])
''' + USER_FIXTURES


# the document says `Accept` picks the representation: every session asks for JSON
NEGOTIATE = '''

ACCEPT = {accept!r}
_PlainSession = _TimeoutSession


class _TimeoutSession(_PlainSession):  # noqa: F811
    def __init__(self):
        super().__init__()
        self.headers["Accept"] = ACCEPT
'''

# the document writes some paths with a trailing slash and some without
SLASHES = '''

_UnslashedSession = _TimeoutSession


class _TimeoutSession(_UnslashedSession):  # noqa: F811
    """The document writes some paths with a trailing slash and some without: where one
    spelling answers an error that is no JSON (a route the service does not have), the
    other spelling is asked."""

    def request(self, method, url, **kwargs):
        response = super().request(method, url, **kwargs)
        if response.status_code < 400 or "json" in response.headers.get("Content-Type", ""):
            return response
        path, sep, query = url.partition("?")
        other = (path[:-1] if path.endswith("/") else path + "/") + sep + query
        again = super().request(method, other, **kwargs)
        return again if "json" in again.headers.get("Content-Type", "") else response
'''


def mixed_slashes(spec: Spec) -> bool:
    """Do the document's paths (other than the root) disagree on a trailing slash?"""
    ends = {e.path.endswith("/") for e in spec.endpoints if e.path.strip("/") and not e.linked}
    return len(ends) == 2


# the one documented account (no sign-up over HTTP); Digest needs the server's challenge per
# request, so the headers stand for the account and the session answers the challenge
AUTH_ACCOUNT = '''

ACCOUNT = {account!r}
SCHEME = {scheme!r}


class _Account(dict):
    """Headers that stand for ACCOUNT: the session signs each request with it."""


class _SigningSession(_TimeoutSession):
    def request(self, method, url, **kwargs):
        if isinstance(kwargs.get("headers"), _Account):
            from requests.auth import HTTPBasicAuth, HTTPDigestAuth

            kwargs["headers"] = dict(kwargs["headers"])
            kwargs["auth"] = (HTTPDigestAuth if SCHEME == "digest" else HTTPBasicAuth)(*ACCOUNT)
        return super().request(method, url, **kwargs)


@pytest.fixture
def session():
    with _SigningSession() as s:
        yield s


def new_user_headers(base_url):
    """The document's one account (it registers no users over HTTP)."""
    return _Account()
''' + USER_FIXTURES


# a hypermedia API whose callers sign in with the task's account (`account_auth`, whose
# source follows the token finder's)
AUTH_LINKS = '''

ACCOUNT = {account!r}
ROOT, AT = {root!r}, {at!r}


@pytest.fixture(scope="session")
def _account_auth(base_url):
    with _TimeoutSession() as s:
        way = account_auth(s, base_url, ROOT, AT, ACCOUNT)
    if way is None:
        pytest.fail(f"no way of sending the account {{ACCOUNT[0]!r}} opened {{base_url}}")
    return way


@pytest.fixture
def session(_account_auth):
    with _TimeoutSession() as s:
        s.auth = _account_auth
        yield s
'''


_LOGIN_LINES = '''\
        body = {key: credentials.get(key, value) for key, value in LOGIN[2].items()}
        login = s.request(LOGIN[0], base_url + LOGIN[1], json=body)
'''
# the login form sends registered values under other keys (`username`: the account's email)
_LOGIN_RENAMED = '''\
        sources = {sources}
        body = {{key: credentials.get(sources.get(key, key), value)
                for key, value in LOGIN[2].items()}}
        login = s.request(LOGIN[0], base_url + LOGIN[1], {keyword}=body)
'''


def _login_lines(model: Model) -> str:
    """The conftest's login request: the account's values under the login's keys."""
    assert model.login is not None
    sources = login_sources(model.login, model.register)
    renamed = {k: v for k, v in sources.items() if k != v}
    if not renamed and not model.login.request_form:
        return _LOGIN_LINES
    return _LOGIN_RENAMED.format(sources=literal(renamed), keyword=body_keyword(model.login))


def _unique_keys(account: dict) -> list[str]:
    """The account values made fresh per test (a taken name would refuse the next one)."""
    return sorted(k for k, v in account.items() if isinstance(v, str) and "pass" not in k.lower())


def render_conftest(model: Model, port: int) -> str:
    title = (model.spec.title or "the service").replace('"', "'")
    text = HEAD.format(title=title, port=port)
    if model.spec.accept:
        text += NEGOTIATE.format(accept=model.spec.accept)
    if mixed_slashes(model.spec):
        text += SLASHES
    field, header = token_field(model), header_source(model)
    links, auth = model.spec.links, model.spec.auth
    if links is not None:
        if auth is None or not auth.account:
            return text
        helpers = [inspect.getsource(f).rstrip() for f in (token_in, account_auth)]
        return (text + "\n\nimport re  # noqa: E402\nfrom urllib.parse import urljoin  # noqa: "
                "E402\n\n\n" + "\n\n\n".join(helpers) + "\n"
                + AUTH_LINKS.format(account=auth.account, root=links.root, at=links.at))
    if model.opaque_tokens and header is not None:
        return text + AUTH_OPAQUE.format(headers=header)
    if model.account is not None:
        return text + AUTH_ACCOUNT.format(account=model.account,
                                          scheme=model.spec.auth.scheme.lower())
    if model.basic and model.auth_usable and model.register is not None:
        keys = basic_keys(model.register, model.spec.auth.name_key)
        assert keys is not None
        body = dict(model.register.request_example or {})
        return text + AUTH_BASIC.format(
            reg_method=model.register.method, reg_path=model.register.path,
            reg_body=literal(body), name_key=keys[0], password_key=keys[1],
            unique_keys=_unique_keys(body))
    if not model.auth_usable or header is None or model.login is None:
        return text
    if field is None:  # the login's answer is not documented: any implementation's token key
        text += "\n\nimport re  # noqa: E402\n\n\n" + inspect.getsource(token_in).rstrip() + "\n"
    reg = model.register
    reg_body = dict(reg.request_example) if reg is not None else {}
    unique_keys = _unique_keys(reg_body) if reg is not None else []
    login_body = model.login.request_example
    return text + AUTH.format(
        reg_method=reg.method if reg else "POST", reg_path=reg.path if reg else "",
        reg_body=literal(reg_body), login_method=model.login.method,
        login_path=model.login.path, login_body=literal(login_body), token=field,
        token_expr="login.json()[TOKEN_FIELD]" if field else "token_in(login.json())",
        login_lines=_login_lines(model),
        unique_keys=unique_keys, headers=header)


def conftest_source(spec: Spec, port: int) -> str:
    """The shared fixtures (base URL from SERVICE_BASE_URL, session, unique, auth)."""
    return render_conftest(build_model(spec), port)
