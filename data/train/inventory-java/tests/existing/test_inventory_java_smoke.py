def test_create_normalises_and_fetches(base_url, http, item):
    assert item["sku"] == item["sku"].upper()
    assert item["quantity"] == 10 and item["low_stock"] is False
    fetched = http.get(f"{base_url}/items/{item['id']}", timeout=10)
    assert fetched.status_code == 200 and fetched.json() == item

def test_duplicate_sku_and_validation(base_url, http, item):
    dup = http.post(f"{base_url}/items", json={"sku": item["sku"].lower(), "name": "x",
                                               "category": "y", "unit_price": 1}, timeout=10)
    assert dup.status_code == 409 and dup.json()["error"]["code"] == "duplicate_sku"
    bad = http.post(f"{base_url}/items", json={"sku": "!", "name": "", "category": "y",
                                               "unit_price": -1}, timeout=10)
    assert bad.status_code == 422
    assert set(bad.json()["error"]["fields"]) == {"sku", "name", "unit_price"}
    broken = http.post(f"{base_url}/items", data="{not json",
                       headers={"Content-Type": "application/json"}, timeout=10)
    assert broken.status_code == 400 and broken.json()["error"]["code"] == "invalid_json"

def test_stock_movements_update_balance(base_url, http, item):
    url = f"{base_url}/items/{item['id']}/stock-movements"
    out = http.post(url, json={"type": "out", "quantity": 8, "note": "order 1"}, timeout=10)
    assert out.status_code == 201 and out.json()["balance_after"] == 2
    too_much = http.post(url, json={"type": "out", "quantity": 5}, timeout=10)
    assert too_much.status_code == 409
    assert too_much.json()["error"]["code"] == "insufficient_stock"
    current = http.get(f"{base_url}/items/{item['id']}", timeout=10).json()
    assert current["quantity"] == 2 and current["low_stock"] is True
    history = http.get(url, timeout=10).json()
    assert [m["quantity"] for m in history["movements"]] == [8]
    low = http.get(f"{base_url}/items", params={"category": item["category"],
                                                "low_stock": "true"}, timeout=10).json()
    assert [i["id"] for i in low["items"]] == [item["id"]]

def test_delete_requires_empty_stock(base_url, http, item):
    blocked = http.delete(f"{base_url}/items/{item['id']}", timeout=10)
    assert blocked.status_code == 409 and blocked.json()["error"]["code"] == "item_has_stock"
    http.post(f"{base_url}/items/{item['id']}/stock-movements",
              json={"type": "out", "quantity": 10}, timeout=10)
    assert http.delete(f"{base_url}/items/{item['id']}", timeout=10).status_code == 204
    assert http.get(f"{base_url}/items/{item['id']}", timeout=10).status_code == 404

def test_valuation_by_category(base_url, http, item):
    value = http.get(f"{base_url}/inventory-value", timeout=10)
    assert value.status_code == 200
    assert value.json()["by_category"][item["category"]] == 25.0
