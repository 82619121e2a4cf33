import os
import uuid

import pytest
import requests


@pytest.fixture(scope="session")
def base_url() -> str:
    return os.environ.get("SERVICE_BASE_URL", "http://localhost:8105").rstrip("/")


@pytest.fixture()
def http():
    with requests.Session() as session:
        yield session


@pytest.fixture()
def account(base_url, http):
    """Register a unique user and return (username, password)."""
    username = f"u_{uuid.uuid4().hex[:12]}"
    password = "correct-horse-1"
    response = http.post(f"{base_url}/auth/register",
                         json={"username": username, "password": password}, timeout=10)
    assert response.status_code == 201, response.text
    return username, password


@pytest.fixture()
def auth_headers(base_url, http, account):
    username, password = account
    response = http.post(f"{base_url}/auth/login",
                         json={"username": username, "password": password}, timeout=10)
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    yield {"Authorization": f"Bearer {token}"}
    http.post(f"{base_url}/auth/logout", headers={"Authorization": f"Bearer {token}"},
              timeout=10)
