"""Black-box port of upstream ihatemoney/tests/common/ihatemoney_testcase.py + conftest.py
(only what tests/api_test.py uses).

Upstream runs each test against a fresh in-memory database through Flask's test client. Here
`self.client` is a thin wrapper around `requests` that sends the same relative paths, form data
and headers to the running service at SERVICE_BASE_URL (default http://127.0.0.1:9203) and
returns an object with the attributes the tests read (`status_code`, `data`, `headers`,
`request.path`). Because the service keeps its state between tests, every project a test
created (or authenticated against) is deleted after the test with the credentials the test
used, so that the fixed identifiers upstream reuses ("raclette", ...) are free again.
"""
import base64
import os
from types import SimpleNamespace

import pytest
import requests

BASE_URL = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9203").rstrip("/")


class _Resp:
    def __init__(self, r, path):
        self.status_code = r.status_code
        self.data = r.content
        self.headers = r.headers
        self.request = SimpleNamespace(path=path)


class Client:
    """Mimics the parts of Flask's test client the upstream API tests use."""

    def __init__(self):
        self.session = requests.Session()
        self.credentials = set()

    def _remember(self, headers, data):
        auth = (headers or {}).get("Authorization", "")
        if auth.startswith("Basic "):
            try:
                user, _, pw = base64.b64decode(auth[6:]).decode().partition(":")
                self.credentials.add((user.lower(), pw))
            except ValueError:  # a token sent in a Basic header
                pass
        if isinstance(data, dict) and "id" in data:
            for key in ("password", "current_password"):
                if data.get(key):
                    self.credentials.add((str(data["id"]).lower(), data[key]))

    def open(self, method, path, data=None, headers=None, json=None, follow_redirects=False):
        self._remember(headers, data if data is not None else json)
        r = self.session.request(method, BASE_URL + path, data=data, json=json,
                                 headers=headers, allow_redirects=follow_redirects, timeout=10)
        return _Resp(r, path.split("?")[0])

    def get(self, path, **kw):
        return self.open("GET", path, **kw)

    def post(self, path, **kw):
        return self.open("POST", path, **kw)

    def put(self, path, **kw):
        return self.open("PUT", path, **kw)

    def delete(self, path, **kw):
        return self.open("DELETE", path, **kw)

    def options(self, path, **kw):
        return self.open("OPTIONS", path, **kw)

    def cleanup(self):
        for pid, pw in sorted(self.credentials):
            try:
                requests.delete(f"{BASE_URL}/api/projects/{pid}", auth=(pid, pw), timeout=10)
            except requests.RequestException:
                pass


@pytest.fixture
def client(request):
    c = Client()
    request.cls.client = c
    yield c
    c.cleanup()
