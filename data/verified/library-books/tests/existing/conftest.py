import os
import uuid

import pytest
import requests


@pytest.fixture(scope="session")
def base_url() -> str:
    return os.environ.get("SERVICE_BASE_URL", "http://localhost:8101").rstrip("/")


@pytest.fixture()
def http():
    with requests.Session() as session:
        yield session


def random_isbn() -> str:
    return "978" + str(uuid.uuid4().int)[:10]


@pytest.fixture()
def book(base_url, http):
    """A fresh book, deleted again after the test."""
    payload = {
        "title": f"Smoke Test {uuid.uuid4().hex[:8]}",
        "author": "Test Author",
        "isbn": random_isbn(),
        "year": 2001,
        "tags": ["Smoke", "smoke", " test "],
    }
    response = http.post(f"{base_url}/api/books", json=payload, timeout=10)
    assert response.status_code == 201, response.text
    created = response.json()
    yield created
    http.delete(f"{base_url}/api/books/{created['id']}/loan", timeout=10)
    http.delete(f"{base_url}/api/books/{created['id']}", timeout=10)
