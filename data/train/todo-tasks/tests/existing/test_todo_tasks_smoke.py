import uuid


def test_create_defaults_and_location(base_url, http, make_todo):
    todo = make_todo(title="  Buy milk  ")
    assert todo["title"] == "Buy milk"
    assert todo["priority"] == "normal"
    assert todo["done"] is False and todo["completed_at"] is None
    fetched = http.get(f"{base_url}/todos/{todo['id']}", timeout=10)
    assert fetched.status_code == 200 and fetched.json()["id"] == todo["id"]

def test_invalid_body_is_422(base_url, http):
    response = http.post(f"{base_url}/todos", json={"title": "x", "priority": "urgent"},
                         timeout=10)
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], list)
    blank = http.post(f"{base_url}/todos", json={"title": "   "}, timeout=10)
    assert blank.status_code == 422

def test_complete_reopen_and_conflicts(base_url, http, make_todo):
    todo = make_todo(title="File taxes", priority="high", due_date="2000-01-01")
    assert todo["overdue"] is True
    done = http.post(f"{base_url}/todos/{todo['id']}/complete", timeout=10)
    assert done.status_code == 200
    assert done.json()["done"] is True and done.json()["overdue"] is False
    again = http.post(f"{base_url}/todos/{todo['id']}/complete", timeout=10)
    assert again.status_code == 409 and "detail" in again.json()
    reopened = http.post(f"{base_url}/todos/{todo['id']}/reopen", timeout=10)
    assert reopened.status_code == 200 and reopened.json()["completed_at"] is None

def test_filter_patch_and_stats(base_url, http, make_todo):
    marker = uuid.uuid4().hex[:8]
    todo = make_todo(title=f"Call {marker}", priority="low")
    before = http.get(f"{base_url}/todos/stats", timeout=10).json()
    patched = http.patch(f"{base_url}/todos/{todo['id']}", json={"priority": "high"}, timeout=10)
    assert patched.status_code == 200 and patched.json()["title"] == f"Call {marker}"
    found = http.get(f"{base_url}/todos", params={"q": marker, "priority": "high"}, timeout=10)
    assert [t["id"] for t in found.json()] == [todo["id"]]
    after = http.get(f"{base_url}/todos/stats", timeout=10).json()
    assert after["open_by_priority"]["high"] == before["open_by_priority"]["high"] + 1
    assert after["open_by_priority"]["low"] == before["open_by_priority"]["low"] - 1

def test_delete_then_404(base_url, http, make_todo):
    todo = make_todo(title="Temporary")
    assert http.delete(f"{base_url}/todos/{todo['id']}", timeout=10).status_code == 204
    missing = http.get(f"{base_url}/todos/{todo['id']}", timeout=10)
    assert missing.status_code == 404
    assert missing.json() == {"detail": f"Todo {todo['id']} not found"}
