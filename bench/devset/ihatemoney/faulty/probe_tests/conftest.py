"""Probe suite configuration: the service under test is at SERVICE_BASE_URL
(default http://127.0.0.1:9203)."""
import os

import pytest


@pytest.fixture(scope="session")
def base_url():
    return os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9203").rstrip("/")
