"""Shared fixtures for the black-box tests of File Vault — HTTP API requirements.

Generated offline from the requirement document. The service address comes from the
environment variable SERVICE_BASE_URL (default http://localhost:8106).
"""

import os
import random
import time

import pytest
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

DEFAULT_BASE_URL = "http://localhost:8106"
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
    VALUES.seed(f"{SEED}:{request.node.nodeid}")


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
                pytest.exit(f"service at {base_url} did not answer: {exc}", returncode=3)
            time.sleep(0.2)


@pytest.fixture
def session():
    with _TimeoutSession() as s:
        yield s


@pytest.fixture
def unique():
    """`unique(template)`: a fresh value shaped like the template."""
    return unique_like
