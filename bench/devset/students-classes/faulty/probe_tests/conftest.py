"""Probe suite configuration.

base_url: SERVICE_BASE_URL (default http://127.0.0.1:9214).
session: a requests.Session authenticated as SERVICE_USERNAME / SERVICE_PASSWORD (default
dave / cat, the user start.sh registers, as the README's `manage.py adduser` step does).

The README says how to get a token (the 401 answer's Location header names the token URL;
POST there with the username and password in an HTTP basic authentication header) but not
how to send the token back. The fixture therefore tries, in this order, the token as the
basic-auth username with an empty password (upstream's test client), the same without a
trailing ':', the token as a Bearer token, and plain username/password basic auth, and keeps
the first one that opens the root URL. A root catalog open without authentication is read
for a collection URL, whose 401 names the token URL (the README does not say whether the
catalog itself needs authentication).
"""
import os
from urllib.parse import urljoin

import pytest
import requests

os.environ.setdefault("SERVICE_BASE_URL", "http://127.0.0.1:9214")

USERNAME = os.environ.get("SERVICE_USERNAME", "dave")
PASSWORD = os.environ.get("SERVICE_PASSWORD", "cat")


class BearerAuth(requests.auth.AuthBase):
    def __init__(self, token):
        self.token = token

    def __call__(self, r):
        r.headers["Authorization"] = "Bearer " + self.token
        return r


def find_token(body):
    """The README only says the answer 'will include a token': take the `token` key, else the
    only string value."""
    if isinstance(body, dict):
        if isinstance(body.get("token"), str):
            return body["token"]
        strings = [v for v in body.values() if isinstance(v, str) and v]
        if len(strings) == 1:
            return strings[0]
    return None


def authenticated_session(base):
    s = requests.Session()
    candidates = []
    r = s.get(base + "/", timeout=10)
    location = r.headers.get("Location")
    opens = base + "/"
    if r.status_code == 200:  # a public root catalog: a collection answers the 401 instead
        opens = urljoin(base + "/", next(iter(r.json()["versions"]["v1"].values())))
        location = s.get(opens, timeout=10).headers.get("Location")
    if location:
        t = s.post(urljoin(base + "/", location), auth=(USERNAME, PASSWORD), timeout=10)
        token = find_token(t.json()) if t.ok and t.content else None
        if token:
            candidates += [requests.auth.HTTPBasicAuth(token, ""),
                           requests.auth.HTTPBasicAuth(token.rstrip(":"), ""),
                           BearerAuth(token.rstrip(":"))]
    candidates.append(requests.auth.HTTPBasicAuth(USERNAME, PASSWORD))
    for auth in candidates:
        s.auth = auth
        if s.get(opens, timeout=10).status_code == 200:
            return s
    raise AssertionError("no authentication scheme opened the root URL")


@pytest.fixture(scope="session")
def base_url():
    return os.environ["SERVICE_BASE_URL"].rstrip("/")


@pytest.fixture(scope="session")
def session(base_url):
    return authenticated_session(base_url)


@pytest.fixture(scope="session")
def catalog(session, base_url):
    r = session.get(base_url + "/", timeout=10)
    assert r.status_code == 200, (r.status_code, r.text)
    return r.json()["versions"]["v1"]
