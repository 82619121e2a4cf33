"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_item_twice_returns_409(base_url, session, unique):
    payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    response = session.post(f"{base_url}/items", json=payload)
    assert response.status_code == 201, response.text
    item = response.json()
    item_id = item["id"]
    try:
        count_before = session.get(f"{base_url}/items")
        assert count_before.status_code == 200, count_before.text
        again = session.post(f"{base_url}/items", json=payload)
        assert again.status_code == 409, again.text
        assert {"error"} <= set(again.json())
        assert again.json()["error"]["code"] == "duplicate_sku", again.text
        count_after = session.get(f"{base_url}/items")
        assert count_after.json()["total"] == count_before.json()["total"]
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_create_item_with_empty_body_returns_422(base_url, session):
    count_before = session.get(f"{base_url}/items")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/items", json={})
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "validation_error", response.text
    count_after = session.get(f"{base_url}/items")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_item_with_malformed_json_returns_400(base_url, session, unique):
    response = session.post(f"{base_url}/items", data="{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_json", response.text
    # the same create with a valid body is accepted
    valid = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 0,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    accepted = session.post(f"{base_url}/items", json=valid)
    assert accepted.status_code == 201, accepted.text
    accepted_record = accepted.json()
    assert accepted_record["name"] == valid["name"]
    assert accepted_record["category"] == valid["category"]
    assert accepted_record["quantity"] == valid["quantity"]
    assert accepted_record["unit_price"] == valid["unit_price"]
    assert accepted_record["reorder_level"] == valid["reorder_level"]
    accepted_id = accepted_record["id"]
    fetched = session.get(f"{base_url}/items/{accepted_id}")
    assert fetched.status_code == 200, fetched.text
    assert fetched.json()["sku"] == accepted_record["sku"]
    assert fetched.json()["name"] == accepted_record["name"]
    assert fetched.json()["category"] == accepted_record["category"]
    assert fetched.json()["quantity"] == accepted_record["quantity"]
    session.delete(f"{base_url}/items/{accepted_id}")


def test_create_item_with_text_quantity_returns_422(base_url, session, unique):
    count_before = session.get(f"{base_url}/items")
    assert count_before.status_code == 200, count_before.text
    payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    payload["quantity"] = "not-a-number"
    response = session.post(f"{base_url}/items", json=payload)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "validation_error", response.text
    count_after = session.get(f"{base_url}/items")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_stock_movement_with_empty_body_returns_422(base_url, session, unique):
    item_payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    parent = session.post(f"{base_url}/items", json=item_payload)
    assert parent.status_code == 201, parent.text
    item = parent.json()
    item_id = item["id"]
    try:
        response = session.post(f"{base_url}/items/{item_id}/stock-movements", json={})
        assert response.status_code == 422, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "validation_error", response.text
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_create_stock_movement_with_malformed_json_returns_400(base_url, session, unique):
    item_payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    parent = session.post(f"{base_url}/items", json=item_payload)
    assert parent.status_code == 201, parent.text
    item = parent.json()
    item_id = item["id"]
    try:
        response = session.post(f"{base_url}/items/{item_id}/stock-movements", data="{not json", headers={"Content-Type": "application/json"})
        assert response.status_code == 400, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "invalid_json", response.text
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_create_stock_movement_with_text_quantity_returns_422(base_url, session, unique):
    item_payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    parent = session.post(f"{base_url}/items", json=item_payload)
    assert parent.status_code == 201, parent.text
    item = parent.json()
    item_id = item["id"]
    try:
        payload = {"type": "out", "quantity": 150, "note": "order 88123"}
        payload["quantity"] = "not-a-number"
        response = session.post(f"{base_url}/items/{item_id}/stock-movements", json=payload)
        assert response.status_code == 422, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "validation_error", response.text
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_delete_item_in_guarded_state_returns_409(base_url, session, unique):
    payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    response = session.post(f"{base_url}/items", json=payload)
    assert response.status_code == 201, response.text
    item = response.json()
    item_id = item["id"]
    try:
        refused = session.delete(f"{base_url}/items/{item_id}")
        assert refused.status_code == 409, refused.text
        assert {"error"} <= set(refused.json())
        assert refused.json()["error"]["code"] == "item_has_stock", refused.text
        still = session.get(f"{base_url}/items/{item_id}")
        assert still.status_code == 200, still.text
        assert still.json()["id"] == item_id
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_delete_item_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/items")
    assert count_before.status_code == 200, count_before.text
    unknown_id = 999999999
    response = session.delete(f"{base_url}/items/{unknown_id}")
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/items")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_post_item_stock_movements_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/items")
    assert count_before.status_code == 200, count_before.text
    unknown_id = 999999999
    payload = {"type": "out", "quantity": 150, "note": "order 88123"}
    response = session.post(f"{base_url}/items/{unknown_id}/stock-movements", json=payload)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/items")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_put_item_unknown_id_returns_404(base_url, session, unique):
    count_before = session.get(f"{base_url}/items")
    assert count_before.status_code == 200, count_before.text
    unknown_id = 999999999
    payload = {
        "name": unique("Hex bolt M8x40 zinc"),
        "category": "fasteners",
        "unit_price": 0.38,
        "reorder_level": 400,
    }
    response = session.put(f"{base_url}/items/{unknown_id}", json=payload)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/items")
    assert count_after.json()["total"] == count_before.json()["total"]
