import os

import pytest
import requests


@pytest.fixture(scope="session")
def base_url() -> str:
    return os.environ.get("SERVICE_BASE_URL", "http://localhost:8102").rstrip("/")


@pytest.fixture()
def http():
    with requests.Session() as session:
        yield session


@pytest.fixture()
def make_todo(base_url, http):
    created = []

    def _make(**fields):
        response = http.post(f"{base_url}/todos", json=fields, timeout=10)
        assert response.status_code == 201, response.text
        created.append(response.json()["id"])
        return response.json()

    yield _make
    for todo_id in created:
        http.delete(f"{base_url}/todos/{todo_id}", timeout=10)
