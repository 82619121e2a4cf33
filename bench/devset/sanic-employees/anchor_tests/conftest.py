"""Anchor suite configuration: the service under test is at SERVICE_BASE_URL
(default http://127.0.0.1:9213).

The anchors are a port of the repository's own HTTP tests, the Keploy recording
sanic-postgres/keploy/test-set-0 (tests/test-1.yaml .. test-11.yaml). Keploy replays each
recorded request against the app with the database answers mocked from mocks.yaml; here the
same requests go to a running service with `requests`, and the database state of the recording
is rebuilt through the API once, before the first test (see `recorded_state` in
test_keploy_test_set_0.py). The suite therefore expects a freshly started service.
"""
import os

import pytest
import requests

os.environ.setdefault("SERVICE_BASE_URL", "http://127.0.0.1:9213")


@pytest.fixture(scope="session")
def base_url():
    return os.environ["SERVICE_BASE_URL"].rstrip("/")


@pytest.fixture(scope="session")
def session():
    with requests.Session() as s:
        yield s
