"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_item_returns_201_with_record(base_url, session, unique):
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
        assert {
            "id", "sku", "name", "category", "quantity", "unit_price", "reorder_level",
            "low_stock", "created_at", "updated_at",
        } <= set(item)
        assert isinstance(item["id"], int)
        assert isinstance(item["sku"], str)
        assert isinstance(item["name"], str)
        assert isinstance(item["category"], str)
        assert isinstance(item["quantity"], int)
        assert isinstance(item["unit_price"], (int, float))
        assert item["name"] == payload["name"]
        assert item["category"] == payload["category"]
        assert item["quantity"] == payload["quantity"]
        assert item["unit_price"] == payload["unit_price"]
        assert item["reorder_level"] == payload["reorder_level"]
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_create_stock_movement_returns_201_with_record(base_url, session, unique):
    item_payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    item_response = session.post(f"{base_url}/items", json=item_payload)
    assert item_response.status_code == 201, item_response.text
    item = item_response.json()
    item_id = item["id"]
    try:
        payload = {"type": "out", "quantity": 150, "note": "order 88123"}
        response = session.post(f"{base_url}/items/{item_id}/stock-movements", json=payload)
        assert response.status_code == 201, response.text
        stock_movement = response.json()
        stock_movement_id = stock_movement["id"]
        assert {
            "id", "item_id", "type", "quantity", "note", "balance_after", "created_at",
        } <= set(stock_movement)
        assert isinstance(stock_movement["id"], int)
        assert isinstance(stock_movement["item_id"], int)
        assert isinstance(stock_movement["type"], str)
        assert isinstance(stock_movement["quantity"], int)
        assert isinstance(stock_movement["balance_after"], int)
        assert isinstance(stock_movement["created_at"], str)
        assert stock_movement["type"] == payload["type"]
        assert stock_movement["quantity"] == payload["quantity"]
        assert stock_movement["note"] == payload["note"]
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_delete_item_returns_204(base_url, session, unique):
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
        deleted = session.delete(f"{base_url}/items/{item_id}")
        assert deleted.status_code == 204, deleted.text
        assert deleted.content == b""
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_get_health_returns_200_with_documented_fields(base_url, session, unique):
    response = session.get(f"{base_url}/health")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"status", "items"} <= set(body)
    assert isinstance(body["status"], str)
    assert isinstance(body["items"], int)
    assert body["status"] == "ok"
    payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    created = session.post(f"{base_url}/items", json=payload)
    assert created.status_code == 201, created.text
    item = created.json()
    item_id = item["id"]
    try:
        recount = session.get(f"{base_url}/health")
        assert recount.status_code == 200, recount.text
        assert recount.json()["items"] == body["items"] + 1
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_get_inventory_value_returns_200_with_documented_fields(base_url, session, unique):
    response = session.get(f"{base_url}/inventory-value")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"items", "units", "total_value", "by_category"} <= set(body)
    assert isinstance(body["items"], int)
    assert isinstance(body["units"], int)
    assert isinstance(body["total_value"], (int, float))
    assert isinstance(body["by_category"], dict)
    payload = {
        "sku": unique("bolt-m8-40"),
        "name": unique("Hex bolt M8x40"),
        "category": "fasteners",
        "quantity": 1200,
        "unit_price": 0.35,
        "reorder_level": 500,
    }
    created = session.post(f"{base_url}/items", json=payload)
    assert created.status_code == 201, created.text
    item = created.json()
    item_id = item["id"]
    try:
        recount = session.get(f"{base_url}/inventory-value")
        assert recount.status_code == 200, recount.text
        assert recount.json()["items"] == body["items"] + 1
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_get_item_returns_created_item(base_url, session, unique):
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
        fetched = session.get(f"{base_url}/items/{item_id}")
        assert fetched.status_code == 200, fetched.text
        body = fetched.json()
        assert body["id"] == item_id
        assert {
            "id", "sku", "name", "category", "quantity", "unit_price", "reorder_level",
            "low_stock", "created_at", "updated_at",
        } <= set(body)
        assert isinstance(body["id"], int)
        assert isinstance(body["sku"], str)
        assert isinstance(body["name"], str)
        assert isinstance(body["category"], str)
        assert isinstance(body["quantity"], int)
        assert isinstance(body["unit_price"], (int, float))
        assert body["name"] == payload["name"]
        assert body["category"] == payload["category"]
        assert body["quantity"] == payload["quantity"]
        assert body["unit_price"] == payload["unit_price"]
        assert body["reorder_level"] == payload["reorder_level"]
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_get_items_returns_200_with_documented_fields(base_url, session, unique):
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
        response = session.get(f"{base_url}/items")
        assert response.status_code == 200, response.text
        body = response.json()
        assert {"items", "total"} <= set(body)
        assert isinstance(body["items"], list)
        assert isinstance(body["total"], int)
        assert len(body["items"]) >= 1
        assert body["total"] >= len(body["items"])
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_list_items_filtered_by_category_returns_only_matching_item(base_url, session, unique):
    created = []
    try:
        wanted = unique("fasteners")
        other = unique("fasteners")
        match_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        match_payload["category"] = wanted
        match_created = session.post(f"{base_url}/items", json=match_payload)
        assert match_created.status_code == 201, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        other_payload["category"] = other
        other_created = session.post(f"{base_url}/items", json=other_payload)
        assert other_created.status_code == 201, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        listed = session.get(f"{base_url}/items", params={"category": wanted})
        assert listed.status_code == 200, listed.text
        assert [record["id"] for record in listed.json()["items"]] == [match_id]
        upper = session.get(f"{base_url}/items", params={"category": wanted.upper()})
        assert upper.status_code == 200, upper.text
        assert [record["id"] for record in upper.json()["items"]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/items/{record_id}")


def test_put_item_applies_changes(base_url, session, unique):
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
        changes = {
            "name": unique("Hex bolt M8x40 zinc"),
            "category": "fasteners",
            "unit_price": 0.38,
            "reorder_level": 400,
        }
        updated = session.put(f"{base_url}/items/{item_id}", json=changes)
        assert updated.status_code == 200, updated.text
        after = updated.json()
        assert after["name"] == changes["name"]
        assert after["category"] == changes["category"]
        assert after["unit_price"] == changes["unit_price"]
        assert after["reorder_level"] == changes["reorder_level"]
        reread = session.get(f"{base_url}/items/{item_id}")
        assert reread.status_code == 200, reread.text
        stored = reread.json()
        assert stored["name"] == changes["name"]
        assert stored["category"] == changes["category"]
        assert stored["unit_price"] == changes["unit_price"]
        assert stored["reorder_level"] == changes["reorder_level"]
    finally:
        session.delete(f"{base_url}/items/{item_id}")
