"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_order_with_empty_body_returns_422(base_url, session):
    count_before = session.get(f"{base_url}/orders")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/orders", json={})
    assert response.status_code == 422, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 422
    count_after = session.get(f"{base_url}/orders")
    assert len(count_after.json()) == len(count_before.json())


def test_create_order_with_malformed_json_returns_400(base_url, session):
    response = session.post(f"{base_url}/orders", data="{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 400


def test_patch_order_status_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/orders")
    assert count_before.status_code == 200, count_before.text
    unknown_order_id = 999999999
    payload = {"status": "paid"}
    response = session.patch(f"{base_url}/orders/{unknown_order_id}/status", json=payload)
    assert response.status_code == 404, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 404
    count_after = session.get(f"{base_url}/orders")
    assert len(count_after.json()) == len(count_before.json())


def test_post_order_cancel_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/orders")
    assert count_before.status_code == 200, count_before.text
    unknown_order_id = 999999999
    response = session.post(f"{base_url}/orders/{unknown_order_id}/cancel")
    assert response.status_code == 404, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 404
    count_after = session.get(f"{base_url}/orders")
    assert len(count_after.json()) == len(count_before.json())


def test_post_products_with_name_over_100_chars_returns_422(base_url, session, unique):
    sent = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    sent["name"] = "x" * 101
    response = session.post(f"{base_url}/products", json=sent)
    assert response.status_code == 422, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 422


def test_post_products_with_sku_over_24_chars_returns_422(base_url, session, unique):
    sent = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    sent["sku"] = "x" * 25
    response = session.post(f"{base_url}/products", json=sent)
    assert response.status_code == 422, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 422


def test_post_products_with_stock_above_range_returns_422(base_url, session, unique):
    sent = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    sent["stock"] = 1000001
    response = session.post(f"{base_url}/products", json=sent)
    assert response.status_code == 422, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 422


def test_post_products_with_stock_below_range_returns_422(base_url, session, unique):
    sent = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    sent["stock"] = -1
    response = session.post(f"{base_url}/products", json=sent)
    assert response.status_code == 422, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 422


def test_post_products_without_name_returns_422(base_url, session, unique):
    sent = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    del sent["name"]
    response = session.post(f"{base_url}/products", json=sent)
    assert response.status_code == 422, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 422


def test_post_products_without_price_returns_422(base_url, session, unique):
    sent = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    del sent["price"]
    response = session.post(f"{base_url}/products", json=sent)
    assert response.status_code == 422, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 422


def test_post_products_without_sku_returns_422(base_url, session, unique):
    sent = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    del sent["sku"]
    response = session.post(f"{base_url}/products", json=sent)
    assert response.status_code == 422, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 422
