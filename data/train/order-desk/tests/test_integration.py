"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_post_orders_batch_with_two_orders_creates_both(base_url, session, unique):
    ref0 = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    ref0_made = session.post(f"{base_url}/products", json=ref0)
    assert ref0_made.status_code == 201, ref0_made.text
    item0 = {
        "customer_email": unique("ana@example.com"),
        "items": [{"sku": "MUG-RED", "quantity": 2}],
        "note": "gift wrap",
    }
    item0["items"][0]["sku"] = ref0["sku"]
    item1 = {
        "customer_email": unique("ana@example.com"),
        "items": [{"sku": "MUG-RED", "quantity": 2}],
        "note": "gift wrap",
    }
    item1["items"][0]["sku"] = ref0["sku"]
    response = session.post(f"{base_url}/orders/batch", json={"orders": [item0, item1]})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert len(answer["results"]) == 2
    assert answer["created"] == 2
    assert [r["status"] for r in answer["results"]] == [201, 201]


def test_products_list_holds_the_posted_entry(base_url, session, unique):
    before = session.get(f"{base_url}/products")
    assert before.status_code == 200, before.text
    payload = {"sku": unique("MUG-RED"), "name": unique("Red mug"), "price": 8.5, "stock": 120}
    made = session.post(f"{base_url}/products", json=payload)
    assert made.status_code == 201, made.text
    after = session.get(f"{base_url}/products")
    assert after.status_code == 200, after.text
    assert len(after.json()) == len(before.json()) + 1
    assert payload["sku"] in [entry["sku"] for entry in after.json()]
