"""Probe suite configuration: the service under test runs at SERVICE_BASE_URL."""
import os

import pytest

BASE_URL = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9207").rstrip("/")


@pytest.fixture
def base():
    return BASE_URL
