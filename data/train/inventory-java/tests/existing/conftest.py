import os
import uuid

import pytest
import requests


@pytest.fixture(scope="session")
def base_url() -> str:
    return os.environ.get("SERVICE_BASE_URL", "http://localhost:8104").rstrip("/")


@pytest.fixture()
def http():
    with requests.Session() as session:
        yield session


@pytest.fixture()
def item(base_url, http):
    """A fresh item with 10 units; emptied and deleted after the test."""
    payload = {
        "sku": f"t-{uuid.uuid4().hex[:10]}",
        "name": "Smoke test widget",
        "category": f"smoke-{uuid.uuid4().hex[:6]}",
        "quantity": 10,
        "unit_price": 2.5,
        "reorder_level": 3,
    }
    response = http.post(f"{base_url}/items", json=payload, timeout=10)
    assert response.status_code == 201, response.text
    created = response.json()
    yield created
    current = http.get(f"{base_url}/items/{created['id']}", timeout=10)
    if current.status_code == 200 and current.json()["quantity"] > 0:
        http.post(f"{base_url}/items/{created['id']}/stock-movements",
                  json={"type": "out", "quantity": current.json()["quantity"]}, timeout=10)
    http.delete(f"{base_url}/items/{created['id']}", timeout=10)
