"""Probe-test configuration: the service under test is at SERVICE_BASE_URL."""
import os

import pytest

BASE_URL = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9212").rstrip("/")


@pytest.fixture
def base_url():
    return BASE_URL
