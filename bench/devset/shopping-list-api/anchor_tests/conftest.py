"""Black-box transport for the ported upstream tests (app/tests/test_api.py).

Upstream calls `self.client().post(url, data=..., headers=...)` on a Flask test client and reads
`response.data` / `response.status_code`. `Client` below offers the same calls over HTTP
(`requests`, form-encoded `data`, like the test client) against a running service at
SERVICE_BASE_URL (default http://127.0.0.1:9210).
"""
import os

import pytest
import requests

BASE_URL = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9210").rstrip("/")


class _Response:
    def __init__(self, r):
        self.status_code = r.status_code
        self.data = r.content


class Client:
    def __init__(self, base_url=BASE_URL):
        self.base_url = base_url

    def _send(self, method, url, **kwargs):
        if not url.startswith("/"):
            url = "/" + url  # upstream posts to 'auth/logout' (relative) once
        return _Response(requests.request(method, self.base_url + url, timeout=15, **kwargs))

    def get(self, url, **kwargs):
        return self._send("GET", url, **kwargs)

    def post(self, url, **kwargs):
        return self._send("POST", url, **kwargs)

    def put(self, url, **kwargs):
        return self._send("PUT", url, **kwargs)

    def delete(self, url, **kwargs):
        return self._send("DELETE", url, **kwargs)


@pytest.fixture(autouse=True)
def _http_client(request):
    """Hands the Client class to the unittest-style test classes (used in their setUp)."""
    if request.cls is not None:
        request.cls.http_client = Client
