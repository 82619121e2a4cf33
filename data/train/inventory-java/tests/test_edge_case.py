"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_delete_item_twice_returns_404(base_url, session, unique):
    payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 0,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    response = session.post(f"{base_url}/items", json=payload)
    assert response.status_code == 201, response.text
    item = response.json()
    item_id = item["id"]
    try:
        first = session.delete(f"{base_url}/items/{item_id}")
        assert first.status_code == 204, first.text
        second = session.delete(f"{base_url}/items/{item_id}")
        assert second.status_code == 404, second.text
        assert {"error"} <= set(second.json())
        assert second.json()["error"]["code"] == "not_found", second.text
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_get_item_stock_movements_unknown_id_returns_404(base_url, session):
    unknown_id = 999999999
    response = session.get(f"{base_url}/items/{unknown_id}/stock-movements", allow_redirects=False)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text


def test_get_item_unknown_id_returns_404(base_url, session, unique):
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
        known = session.get(f"{base_url}/items/{item_id}")
        assert known.status_code == 200, known.text
        assert known.json()["id"] == item_id
        unknown_id = 999999999
        response = session.get(f"{base_url}/items/{unknown_id}", allow_redirects=False)
        assert response.status_code == 404, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "not_found", response.text
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_list_items_in_documented_order_oldest_first(base_url, session, unique):
    created = []
    try:
        rec0_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        rec0_created = session.post(f"{base_url}/items", json=rec0_payload)
        assert rec0_created.status_code == 201, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        rec1_created = session.post(f"{base_url}/items", json=rec1_payload)
        assert rec1_created.status_code == 201, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        listed = session.get(f"{base_url}/items")
        assert listed.status_code == 200, listed.text
        positions = [[record["id"] for record in listed.json()["items"]].index(i) for i in (rec0_id, rec1_id)]
        assert positions[0] < positions[1]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/items/{record_id}")
