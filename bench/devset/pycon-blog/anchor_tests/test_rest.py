"""Port of upstream code/10-testing/tests/test_rest.py (3 tests) to black-box HTTP calls.

Changes: the coroutines became plain functions (no `await`); `client` is the requests-based
fixture in conftest.py. test_get_post inserted its post straight into SQLite (`db` fixture);
the port creates the same post (title "title", text "text", owner "user") through POST /api
and expects the id that call returned where upstream expected "1" (upstream's database was
fresh for each test). All other assertions are the authors'.
"""


def test_list_empty(client) -> None:
    resp = client.get("/api")
    assert resp.status == 200, resp.text()
    data = resp.json()
    assert data == {"data": [], "status": "ok"}


def test_add_post(client) -> None:
    POST_REQ = {"title": "test title", "text": "test text", "owner": "test user"}
    POST = {"id": 1, "editor": POST_REQ["owner"], **POST_REQ}
    resp = client.post("/api", json=POST_REQ)
    assert resp.status == 200, resp.text()
    data = resp.json()
    assert data == {"data": POST, "status": "ok"}

    POST_WITHOUT_TEXT = POST.copy()
    del POST_WITHOUT_TEXT["text"]
    resp = client.get("/api")
    assert resp.status == 200, resp.text()
    data = resp.json()
    assert data == {"data": [POST_WITHOUT_TEXT], "status": "ok"}


def test_get_post(client) -> None:
    created = client.post("/api", json={"title": "title", "text": "text", "owner": "user"})
    post_id = created.json()["data"]["id"]

    resp = client.get(f"/api/{post_id}")
    assert resp.status == 200
    data = resp.json()
    assert data == {
        "data": {
            "editor": "user",
            "id": str(post_id),
            "owner": "user",
            "text": "text",
            "title": "title",
        },
        "status": "ok",
    }
