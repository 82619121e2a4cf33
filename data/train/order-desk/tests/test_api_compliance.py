"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_health_returns_200_with_documented_fields(base_url, session):
    response = session.get(f"{base_url}/health")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"status"} <= set(body)
    assert isinstance(body["status"], str)
    assert body["status"] == "UP"


def test_post_products_returns_201_with_documented_fields(base_url, session, unique):
    payload = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    response = session.post(f"{base_url}/products", json=payload)
    assert response.status_code == 201, response.text
    assert response.json()["sku"] == payload["sku"]
    assert response.json()["name"] == payload["name"]
    assert response.json()["price"] == payload["price"]
    assert response.json()["stock"] == payload["stock"]
    body = response.json()
    assert {"sku", "name", "price", "stock"} <= set(body)
    assert isinstance(body["sku"], str)
    assert isinstance(body["name"], str)
    assert isinstance(body["price"], (int, float))
    assert isinstance(body["stock"], int)
