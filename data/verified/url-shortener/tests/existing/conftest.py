import os
import uuid

import pytest
import requests


@pytest.fixture(scope="session")
def base_url() -> str:
    return os.environ.get("SERVICE_BASE_URL", "http://localhost:8103").rstrip("/")


@pytest.fixture()
def http():
    with requests.Session() as session:
        yield session


@pytest.fixture()
def link(base_url, http):
    code = f"t-{uuid.uuid4().hex[:12]}"
    response = http.post(f"{base_url}/short-links",
                         json={"url": "https://example.com/landing?x=1", "code": code},
                         timeout=10)
    assert response.status_code == 201, response.text
    yield response.json()
    http.delete(f"{base_url}/short-links/{code}", timeout=10)
