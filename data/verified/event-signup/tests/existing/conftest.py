import os
import uuid

import pytest
import requests


@pytest.fixture(scope="session")
def api() -> str:
    base = os.environ.get("SERVICE_BASE_URL", "http://localhost:8108").rstrip("/")
    return f"{base}/api/v2"


@pytest.fixture()
def http():
    with requests.Session() as session:
        yield session


@pytest.fixture()
def make_event(api, http):
    created = []

    def _make(capacity: int = 2, title: str | None = None, starts_at: str = "2031-05-01T18:00:00+02:00"):
        body = {"title": title or f"Smoke {uuid.uuid4().hex[:8]}", "location": "Hall A",
                "starts_at": starts_at, "capacity": capacity}
        response = http.post(f"{api}/events", json=body, timeout=10)
        assert response.status_code == 201, response.text
        created.append(response.json()["id"])
        return response.json()

    yield _make
    for event_id in created:
        http.delete(f"{api}/events/{event_id}", timeout=10)
