def _stock(base_url, http, sku):
    return next(p["stock"] for p in http.get(f"{base_url}/products", timeout=10).json()
                if p["sku"] == sku)


class TestOrderDesk:
    """The order desk end to end: orders, stock, batches and the status flow."""

    def test_place_order_reserves_stock(self, base_url, http, product, email):
        body = {"customer_email": email.upper(),
                "items": [{"sku": product["sku"], "quantity": 1},
                          {"sku": product["sku"], "quantity": 2}]}
        response = http.post(f"{base_url}/orders", json=body, timeout=10)
        assert response.status_code == 201
        order = response.json()
        assert order["status"] == "pending" and order["customer_email"] == email
        assert order["items"] == [{"sku": product["sku"], "name": "Smoke mug", "quantity": 3,
                                   "unit_price": 19.99, "line_total": 59.97}]
        assert order["total"] == 59.97
        assert response.headers["Location"] == f"/orders/{order['id']}"
        assert _stock(base_url, http, product["sku"]) == 2
        mine = http.get(f"{base_url}/orders", params={"customer_email": email},
                        timeout=10).json()
        assert [o["id"] for o in mine] == [order["id"]]

    def test_insufficient_stock_and_unknown_sku(self, base_url, http, product, email):
        too_many = http.post(f"{base_url}/orders", json={
            "customer_email": email, "items": [{"sku": product["sku"], "quantity": 6}]}, timeout=10)
        assert too_many.status_code == 409
        err = too_many.json()
        assert err["status"] == 409 and err["error"] == "Conflict" and err["path"] == "/orders"
        unknown = http.post(f"{base_url}/orders", json={
            "customer_email": email, "items": [{"sku": "NO-SUCH-SKU-X", "quantity": 1}]},
            timeout=10)
        assert unknown.status_code == 422
        assert _stock(base_url, http, product["sku"]) == 5

    def test_batch_orders_are_independent(self, base_url, http, product, email):
        good = {"customer_email": email, "items": [{"sku": product["sku"], "quantity": 4}]}
        response = http.post(f"{base_url}/orders/batch",
                             json={"orders": [good, good, {"customer_email": "nope"}]}, timeout=10)
        assert response.status_code == 200
        body = response.json()
        assert body["created"] == 1 and body["failed"] == 2
        assert [r["status"] for r in body["results"]] == [201, 409, 422]
        assert body["results"][0]["order"]["total"] == 79.96
        assert http.post(f"{base_url}/orders/batch", json={"orders": []},
                         timeout=10).status_code == 422

    def test_status_flow_and_cancel(self, base_url, http, product, email):
        order = http.post(f"{base_url}/orders", json={
            "customer_email": email, "items": [{"sku": product["sku"], "quantity": 2}]},
            timeout=10).json()
        url = f"{base_url}/orders/{order['id']}"
        skip = http.patch(f"{url}/status", json={"status": "shipped"}, timeout=10)
        assert skip.status_code == 409
        paid = http.patch(f"{url}/status", json={"status": "paid"}, timeout=10)
        assert paid.status_code == 200 and paid.json()["status"] == "paid"
        cancelled = http.post(f"{url}/cancel", timeout=10)
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        assert _stock(base_url, http, product["sku"]) == 5
        assert http.post(f"{url}/cancel", timeout=10).status_code == 409

    def test_unknown_order_and_duplicate_product(self, base_url, http, product):
        missing = http.get(f"{base_url}/orders/99999999", timeout=10)
        assert missing.status_code == 404 and missing.json()["error"] == "Not Found"
        dup = http.post(f"{base_url}/products", json={**product, "price": 1}, timeout=10)
        assert dup.status_code == 409
