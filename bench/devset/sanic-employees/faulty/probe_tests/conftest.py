"""Probe suite configuration: the service under test is at SERVICE_BASE_URL
(default http://127.0.0.1:9213)."""
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
