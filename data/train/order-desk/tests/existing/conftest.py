import os
import uuid

import pytest
import requests


@pytest.fixture(scope="session")
def base_url() -> str:
    return os.environ.get("SERVICE_BASE_URL", "http://localhost:8107").rstrip("/")


@pytest.fixture()
def http():
    with requests.Session() as session:
        yield session


@pytest.fixture()
def product(base_url, http):
    """A fresh product with 5 units in stock (products cannot be deleted)."""
    payload = {"sku": f"T-{uuid.uuid4().hex[:12].upper()}", "name": "Smoke mug",
               "price": 19.99, "stock": 5}
    response = http.post(f"{base_url}/products", json=payload, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


@pytest.fixture()
def email() -> str:
    return f"buyer-{uuid.uuid4().hex[:10]}@example.com"
