"""Black-box port of the upstream code/10-testing/tests/conftest.py and the `client` fixture
of test_rest.py.

Upstream builds the app around a fresh SQLite file per test (pytest-aiohttp's aiohttp_client).
Here the `client` fixture sends the same relative paths with `requests` to the running service
at SERVICE_BASE_URL (default http://127.0.0.1:9208). Responses are wrapped so that the
upstream assertions keep their shape: `resp.status` and `resp.json()` / `resp.text()`.
The suite expects a freshly started service (empty database) and runs in file order.
"""
import os

import pytest
import requests

BASE_URL = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9208").rstrip("/")


class Response:
    def __init__(self, resp):
        self._resp = resp
        self.status = resp.status_code

    def json(self):
        return self._resp.json()

    def text(self):
        return self._resp.text


class Client:
    """The parts of aiohttp's TestClient the upstream tests use, over plain HTTP."""

    def __init__(self, base_url):
        self.base_url = base_url
        self.session = requests.Session()

    def get(self, path, **kwargs):
        return Response(self.session.get(self.base_url + path, timeout=10, **kwargs))

    def post(self, path, **kwargs):
        return Response(self.session.post(self.base_url + path, timeout=10, **kwargs))


@pytest.fixture
def client():
    return Client(BASE_URL)
