"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_created_stock_movement_appears_in_list(base_url, session, unique):
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
        listed = session.get(f"{base_url}/items/{item_id}/stock-movements")
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert stock_movement_id in [record["id"] for record in listed_body["movements"]]
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_deleted_item_leaves_the_items_list(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        gone_created = session.post(f"{base_url}/items", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        kept_created = session.post(f"{base_url}/items", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/items", params={})
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in before_body["items"]] and kept_id in [record["id"] for record in before_body["items"]]
        removed = session.delete(f"{base_url}/items/{gone_id}")
        assert removed.status_code == 204, removed.text
        after = session.get(f"{base_url}/items", params={})
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in after_body["items"]]
        assert kept_id in [record["id"] for record in after_body["items"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/items/{record_id}")


def test_item_ids_are_not_reused_after_a_delete(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        gone_created = session.post(f"{base_url}/items", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        kept_created = session.post(f"{base_url}/items", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        removed = session.delete(f"{base_url}/items/{gone_id}")
        assert removed.status_code == 204, removed.text
        third_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        third_created = session.post(f"{base_url}/items", json=third_payload)
        assert third_created.status_code == 201, third_created.text
        third_id = third_created.json()["id"]
        created.append(third_id)
        assert third_id != kept_id
        kept_read = session.get(f"{base_url}/items/{kept_id}")
        assert kept_read.status_code == 200, kept_read.text
        kept_body = kept_read.json()
        assert kept_body["name"] == kept_payload["name"]
        assert kept_body["category"] == kept_payload["category"]
        assert kept_body["quantity"] == kept_payload["quantity"]
        assert kept_body["unit_price"] == kept_payload["unit_price"]
        assert kept_body["reorder_level"] == kept_payload["reorder_level"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/items/{record_id}")


def test_item_lifecycle_create_read_update_delete(base_url, session, unique):
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
        fetched = session.get(f"{base_url}/items/{item_id}")
        assert fetched.status_code == 200, fetched.text
        assert fetched.json()["id"] == item_id
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
        deleted = session.delete(f"{base_url}/items/{item_id}")
        assert deleted.status_code == 204, deleted.text
        gone = session.get(f"{base_url}/items/{item_id}")
        assert gone.status_code == 404, gone.text
        assert {"error"} <= set(gone.json())
        assert gone.json()["error"]["code"] == "not_found", gone.text
    finally:
        session.delete(f"{base_url}/items/{item_id}")


def test_list_items_grows_by_one_after_create(base_url, session, unique):
    created = []
    try:
        before = session.get(f"{base_url}/items")
        assert before.status_code == 200, before.text
        marker = unique("fasteners")
        new_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        new_payload["category"] = marker
        new_created = session.post(f"{base_url}/items", json=new_payload)
        assert new_created.status_code == 201, new_created.text
        new_id = new_created.json()["id"]
        created.append(new_id)
        after = session.get(f"{base_url}/items")
        assert after.status_code == 200, after.text
        assert after.json()["total"] == before.json()["total"] + 1
        found = session.get(f"{base_url}/items", params={"category": marker})
        assert found.status_code == 200, found.text
        assert [record["id"] for record in found.json()["items"]] == [new_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/items/{record_id}")


def test_stock_movements_listed_under_their_own_item(base_url, session, unique):
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
    other_parent_id = None
    try:
        payload = {"type": "out", "quantity": 150, "note": "order 88123"}
        response = session.post(f"{base_url}/items/{item_id}/stock-movements", json=payload)
        assert response.status_code == 201, response.text
        stock_movement = response.json()
        stock_movement_id = stock_movement["id"]
        other_parent_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 1200,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        other_parent_response = session.post(f"{base_url}/items", json=other_parent_payload)
        assert other_parent_response.status_code == 201, other_parent_response.text
        other_parent = other_parent_response.json()
        other_parent_id = other_parent["id"]
        other_payload = {"type": "out", "quantity": 150, "note": "order 88123"}
        other_response = session.post(f"{base_url}/items/{other_parent_id}/stock-movements", json=other_payload)
        assert other_response.status_code == 201, other_response.text
        other_record = other_response.json()
        other_id = other_record["id"]
        mine = session.get(f"{base_url}/items/{item_id}/stock-movements")
        assert mine.status_code == 200, mine.text
        theirs = session.get(f"{base_url}/items/{other_parent_id}/stock-movements")
        assert theirs.status_code == 200, theirs.text
        mine_ids = [record["id"] for record in mine.json()["movements"]]
        theirs_ids = [record["id"] for record in theirs.json()["movements"]]
        assert stock_movement_id in mine_ids and other_id not in mine_ids
        assert other_id in theirs_ids and stock_movement_id not in theirs_ids
    finally:
        session.delete(f"{base_url}/items/{item_id}")
        if other_parent_id is not None:
            session.delete(f"{base_url}/items/{other_parent_id}")


def test_two_items_read_back_each_as_itself(base_url, session, unique):
    created = []
    try:
        first_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        first_created = session.post(f"{base_url}/items", json=first_payload)
        assert first_created.status_code == 201, first_created.text
        first_id = first_created.json()["id"]
        created.append(first_id)
        second_payload = {
            "sku": unique("bolt-m8-40"),
            "name": unique("Hex bolt M8x40"),
            "category": "fasteners",
            "quantity": 0,
            "unit_price": 0.35,
            "reorder_level": 500,
        }
        second_created = session.post(f"{base_url}/items", json=second_payload)
        assert second_created.status_code == 201, second_created.text
        second_id = second_created.json()["id"]
        created.append(second_id)
        first_read = session.get(f"{base_url}/items/{first_id}")
        assert first_read.status_code == 200, first_read.text
        first_read_body = first_read.json()
        assert first_read_body["id"] == first_id
        assert first_read_body["name"] == first_payload["name"]
        assert first_read_body["category"] == first_payload["category"]
        assert first_read_body["quantity"] == first_payload["quantity"]
        assert first_read_body["unit_price"] == first_payload["unit_price"]
        assert first_read_body["reorder_level"] == first_payload["reorder_level"]
        second_read = session.get(f"{base_url}/items/{second_id}")
        assert second_read.status_code == 200, second_read.text
        second_read_body = second_read.json()
        assert second_read_body["id"] == second_id
        assert second_read_body["name"] == second_payload["name"]
        assert second_read_body["category"] == second_payload["category"]
        assert second_read_body["quantity"] == second_payload["quantity"]
        assert second_read_body["unit_price"] == second_payload["unit_price"]
        assert second_read_body["reorder_level"] == second_payload["reorder_level"]
        changes = {
            "name": unique("Hex bolt M8x40 zinc"),
            "category": "fasteners",
            "unit_price": 0.38,
            "reorder_level": 400,
        }
        updated = session.put(f"{base_url}/items/{second_id}", json=changes)
        assert updated.status_code == 200, updated.text
        first_again = session.get(f"{base_url}/items/{first_id}")
        assert first_again.status_code == 200, first_again.text
        first_again_body = first_again.json()
        assert first_again_body["id"] == first_id
        second_again = session.get(f"{base_url}/items/{second_id}")
        assert second_again.status_code == 200, second_again.text
        second_again_body = second_again.json()
        assert second_again_body["id"] == second_id
        assert first_again_body["name"] == first_payload["name"]
        assert first_again_body["category"] == first_payload["category"]
        assert first_again_body["quantity"] == first_payload["quantity"]
        assert first_again_body["unit_price"] == first_payload["unit_price"]
        assert first_again_body["reorder_level"] == first_payload["reorder_level"]
        assert second_again_body["name"] == changes["name"]
        assert second_again_body["category"] == changes["category"]
        assert second_again_body["unit_price"] == changes["unit_price"]
        assert second_again_body["reorder_level"] == changes["reorder_level"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/items/{record_id}")
