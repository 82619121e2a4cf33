"""Hand-built spec, test-case snippets and evidence for the offline reviewer tests."""

from __future__ import annotations

import textwrap

from pipeline.records import Endpoint, Evidence, Param, RunResult, Spec, TestCase

ITEM = {"id": 1, "name": "Hex bolt", "quantity": 3, "price": 1.5,
        "created_at": "2024-01-01T00:00:00Z"}


def make_spec() -> Spec:
    ep = Endpoint
    path_id = [Param(name="item_id", location="path", type="integer", required=True)]
    return Spec(
        title="Item store",
        error_format={"detail": "message"},
        endpoints=[
            ep(method="GET", path="/health", status_codes={200: "OK"},
               response_example={"status": "ok"}),
            ep(method="GET", path="/items", status_codes={200: "OK", 422: "bad limit"},
               params=[Param(name="limit"), Param(name="offset")],
               response_example={"items": [ITEM], "total": 1}),
            ep(method="POST", path="/items", status_codes={201: "Created", 422: "invalid"},
               request_example={"name": "Hex bolt", "quantity": 3, "price": 1.5},
               response_example=ITEM),
            ep(method="GET", path="/items/{item_id}", params=path_id,
               status_codes={200: "the item", 404: "not found"}, response_example=ITEM),
            ep(method="PATCH", path="/items/{item_id}", params=path_id,
               status_codes={200: "updated", 404: "not found", 422: "invalid"},
               response_example=ITEM),
            ep(method="DELETE", path="/items/{item_id}", params=path_id,
               status_codes={204: "deleted", 404: "not found"}),
        ],
    )


def case(name: str, code: str, category: str = "api_compliance",
         endpoints: list[str] | None = None, round: int = 0) -> TestCase:
    return TestCase(case_id=f"items::{name}", task_id="items", round=round, category=category,
                    name=name, code=textwrap.dedent(code).strip() + "\n",
                    endpoints=endpoints or [])


def evidence(tc: TestCase, outcomes: list[str], requests: list[str],
             duration: float = 0.05, output: str = "") -> Evidence:
    runs = [RunResult(outcome=o, duration_s=duration, output=output if o != "passed" else "")
            for o in outcomes]
    return Evidence(case_id=tc.case_id, round=tc.round, runs=runs, requests=requests)


GOOD = case("test_create_item_returns_created_item", '''
    import uuid


    def test_create_item_returns_created_item(base_url, session):
        """POST /items answers 201 with the stored item, which can be read back."""
        payload = {"name": f"bolt-{uuid.uuid4().hex[:8]}", "quantity": 3, "price": 1.5}
        response = session.post(f"{base_url}/items", json=payload, timeout=10)
        assert response.status_code == 201
        body = response.json()
        assert isinstance(body["id"], int)
        assert body["name"] == payload["name"]
        assert body["quantity"] == 3

        fetched = session.get(f"{base_url}/items/{body['id']}", timeout=10)
        assert fetched.status_code == 200
        assert fetched.json()["name"] == payload["name"]
        session.delete(f"{base_url}/items/{body['id']}", timeout=10)
''', endpoints=["POST /items", "GET /items/{item_id}"])
GOOD_REQUESTS = ["POST /items", "GET /items/7", "DELETE /items/7"]

WEAK = case("test_list_items_returns_ok", '''
    def test_list_items_returns_ok(base_url, session):
        response = session.get(f"{base_url}/items", timeout=10)
        assert response.status_code == 200
''', endpoints=["GET /items"])
WEAK_REQUESTS = ["GET /items"]

FAILING = case("test_create_item_returns_200", '''
    def test_create_item_returns_200(base_url, session):
        """Creating an item answers 200 with the item."""
        payload = {"name": "Washer", "quantity": 10, "price": 0.1}
        response = session.post(f"{base_url}/items", json=payload, timeout=10)
        assert response.status_code == 200
        body = response.json()
        assert body["name"] == "Washer"
        assert body["quantity"] == 10
''', endpoints=["POST /items"])
FAILING_OUTPUT = "E       assert 201 == 200\nE        +  where 201 = <Response [201]>.status_code"

HOSTILE = case("test_item_store", '''
    import random
    import time

    from app.models import Item


    def test_item_store(base_url, session):
        Item.clear()
        time.sleep(2)
        r = session.get(f"{base_url}/items/{random.randint(1, 5)}")
        assert r.status_code == 200
        assert r.json()["name"]
''', endpoints=["GET /items/{item_id}"])
HOSTILE_REQUESTS = ["GET /items/3"]

UNDOCUMENTED = case("test_get_admin_stats_returns_counters", '''
    def test_get_admin_stats_returns_counters(base_url, session):
        """GET /admin/stats reports its counters."""
        response = session.get(f"{base_url}/admin/stats", timeout=10)
        assert response.status_code == 200
        body = response.json()
        assert isinstance(body["count"], int)
        assert body["uptime"] >= 0
''', endpoints=["GET /admin/stats"])
UNDOCUMENTED_REQUESTS = ["GET /admin/stats"]

ERROR = case("test_create_item_without_name_returns_422", '''
    def test_create_item_without_name_returns_422(base_url, session):
        """POST /items without the required name is rejected with 422 and a detail."""
        response = session.post(f"{base_url}/items", json={"quantity": 1}, timeout=10)
        assert response.status_code == 422
        assert "detail" in response.json()
''', category="error_handling", endpoints=["POST /items"])
ERROR_REQUESTS = ["POST /items"]

EDGE = case("test_get_item_unknown_id_returns_404", '''
    def test_get_item_unknown_id_returns_404(base_url, session):
        """An id that was never issued answers 404 with a detail message."""
        response = session.get(f"{base_url}/items/999999", timeout=10)
        assert response.status_code == 404
        body = response.json()
        assert isinstance(body["detail"], str)
''', category="edge_case", endpoints=["GET /items/{item_id}"])
EDGE_REQUESTS = ["GET /items/999999"]

INTEGRATION = case("test_item_lifecycle_create_update_delete", '''
    import uuid


    def test_item_lifecycle_create_update_delete(base_url, session):
        """Create an item, rename it, read it back, delete it: it is gone afterwards."""
        name = f"nut-{uuid.uuid4().hex[:8]}"
        created = session.post(f"{base_url}/items", json={"name": name, "quantity": 1,
                                                          "price": 0.2}, timeout=10)
        assert created.status_code == 201
        item_id = created.json()["id"]

        renamed = session.patch(f"{base_url}/items/{item_id}", json={"name": name + "-x"},
                                timeout=10)
        assert renamed.status_code == 200
        assert renamed.json()["name"] == name + "-x"

        fetched = session.get(f"{base_url}/items/{item_id}", timeout=10)
        assert fetched.status_code == 200
        assert fetched.json()["quantity"] == 1

        assert session.delete(f"{base_url}/items/{item_id}", timeout=10).status_code == 204
        assert session.get(f"{base_url}/items/{item_id}", timeout=10).status_code == 404
''', category="integration", endpoints=["POST /items", "PATCH /items/{item_id}",
                                        "GET /items/{item_id}", "DELETE /items/{item_id}"])
INTEGRATION_REQUESTS = ["POST /items", "PATCH /items/9", "GET /items/9", "DELETE /items/9",
                        "GET /items/9"]

BORDERLINE = case("test_items", '''
    def test_items(base_url, session):
        r = session.post(base_url + "/items", json={"name": "x", "quantity": 1, "price": 2})
        assert r.status_code in (201, 422)
        assert r.json()["id"]
''', endpoints=["POST /items"])
BORDERLINE_REQUESTS = ["POST /items"]

TRIVIAL = case("test_health_answers", '''
    def test_health_answers(base_url, session):
        session.get(f"{base_url}/health", timeout=10)
        assert True
''', endpoints=["GET /health"])
TRIVIAL_REQUESTS = ["GET /health"]
