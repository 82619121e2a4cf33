import os
import uuid

import pytest
import requests


@pytest.fixture(scope="session")
def api_url() -> str:
    base = os.environ.get("SERVICE_BASE_URL", "http://localhost:8106").rstrip("/")
    return f"{base}/api/v1"


@pytest.fixture()
def http():
    with requests.Session() as session:
        yield session


@pytest.fixture()
def folder() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


@pytest.fixture()
def uploaded(api_url, http, folder):
    """Upload helper; every uploaded file is deleted after the test."""
    ids = []

    def _upload(name: str, content: bytes, content_type: str = "text/plain", **params):
        response = http.post(f"{api_url}/files", files={"file": (name, content, content_type)},
                             data={"folder": folder}, params=params, timeout=10)
        if response.status_code == 201:
            ids.append(response.json()["id"])
        return response

    yield _upload
    if ids:
        http.post(f"{api_url}/files/batch-delete", json={"ids": ids}, timeout=10)
