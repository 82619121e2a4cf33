"""Targeted black-box probes, one per faulty variant in ../NN-*.patch (see ../FAULTS.md).

The README documents the service only through curl examples: register (JSON email +
password), log in at /token with a form-encoded username/password and read `.access_token`
from the answer, then call /todos/ with `Authorization: Bearer <token>`. The probes assert
only what those examples show. Left open, and accepted in any form: every status code
(the README names none; a success is any 2xx, a rejection anything else), ids (taken from
the create answer), error bodies, extra fields, the order of the list, and whether a field
the client did not send is kept or cleared by PUT. Every probe registers its own fresh user.
"""
import uuid

import requests

TIMEOUT = 15


def ok(r):
    return 200 <= r.status_code < 300


def new_user(base_url):
    email = f"probe-{uuid.uuid4().hex[:12]}@example.com"
    password = "secretpassword-" + uuid.uuid4().hex[:6]
    r = requests.post(f"{base_url}/register", json={"email": email, "password": password}, timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    return email, password


def login(base_url, email, password):
    """README: form-encoded username/password to /token; the token is `.access_token`."""
    r = requests.post(f"{base_url}/token", data={"username": email, "password": password}, timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    body = r.json()
    assert isinstance(body.get("access_token"), str) and body["access_token"], body
    return body["access_token"]


def session_for(base_url):
    email, password = new_user(base_url)
    token = login(base_url, email, password)
    s = requests.Session()
    s.headers["Authorization"] = f"Bearer {token}"
    return s


def create(s, base_url, **body):
    r = s.post(f"{base_url}/todos/", json=body, timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    data = r.json()
    assert "id" in data, data
    return data


def list_todos(s, base_url):
    r = s.get(f"{base_url}/todos/", timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    data = r.json()
    assert isinstance(data, list), data
    return data


def find(todos, todo_id):
    hits = [t for t in todos if t.get("id") == todo_id]
    return hits[0] if hits else None


def test_01_token_answer_has_access_token(base_url):
    # README: `... /token ... | jq -r .access_token`
    email, password = new_user(base_url)
    r = requests.post(f"{base_url}/token", data={"username": email, "password": password}, timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    assert isinstance(r.json().get("access_token"), str) and r.json()["access_token"], r.text


def test_02_token_accepts_form_encoded_login(base_url):
    # README: -H "Content-Type: application/x-www-form-urlencoded" -d "username=...&password=..."
    email, password = new_user(base_url)
    r = requests.post(
        f"{base_url}/token",
        data=f"username={requests.utils.quote(email)}&password={password}",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        timeout=TIMEOUT,
    )
    assert ok(r), (r.status_code, r.text)
    token = r.json().get("access_token")
    assert token
    # the token works as the README uses it
    r = requests.get(f"{base_url}/todos/", headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)


def test_03_wrong_password_gets_no_token(base_url):
    # README: "Login and get token" with the registered email and password
    email, password = new_user(base_url)
    r = requests.post(f"{base_url}/token", data={"username": email, "password": password + "-wrong"},
                      timeout=TIMEOUT)
    got_token = False
    if ok(r):
        try:
            got_token = bool(r.json().get("access_token"))
        except ValueError:
            got_token = False
    assert not got_token, (r.status_code, r.text)


def test_04_create_keeps_description(base_url):
    # README: Create a TODO -d '{"title": "Learn FastAPI", "description": "Complete the tutorial"}'
    s = session_for(base_url)
    todo = create(s, base_url, title="Learn FastAPI", description="Complete the tutorial")
    listed = find(list_todos(s, base_url), todo["id"])
    assert listed is not None
    assert listed["title"] == "Learn FastAPI"
    assert listed["description"] == "Complete the tutorial"


def test_05_list_all_includes_completed(base_url):
    # README: "List all TODOs" / "Mark TODO as complete"
    s = session_for(base_url)
    done = create(s, base_url, title="done one", description="d")
    open_ = create(s, base_url, title="open one", description="o")
    r = s.patch(f"{base_url}/todos/{done['id']}/complete", timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    todos = list_todos(s, base_url)
    assert find(todos, done["id"]) is not None, todos
    assert find(todos, open_["id"]) is not None, todos


def test_06_update_sets_priority(base_url):
    # README: Update a TODO -d '{"title": "Only Title and Priority Updated", "description": null, "priority": 4}'
    s = session_for(base_url)
    todo = create(s, base_url, title="Learn FastAPI", description="Complete the tutorial")
    r = s.put(f"{base_url}/todos/{todo['id']}",
              json={"title": "Only Title and Priority Updated", "description": None, "priority": 4},
              timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    listed = find(list_todos(s, base_url), todo["id"])
    assert listed is not None
    assert listed["priority"] == 4, listed


def test_07_update_title_persisted(base_url):
    # README: "Update a TODO" -- the new title is what the TODO has afterwards
    s = session_for(base_url)
    todo = create(s, base_url, title="Learn FastAPI", description="Complete the tutorial")
    r = s.put(f"{base_url}/todos/{todo['id']}",
              json={"title": "Only Title and Priority Updated", "description": None, "priority": 4},
              timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    listed = find(list_todos(s, base_url), todo["id"])
    assert listed is not None
    assert listed["title"] == "Only Title and Priority Updated", listed


def test_08_complete_twice_stays_complete(base_url):
    # README: "Mark TODO as complete" (marks, it does not flip)
    s = session_for(base_url)
    todo = create(s, base_url, title="twice", description="x")
    for _ in range(2):
        r = s.patch(f"{base_url}/todos/{todo['id']}/complete", timeout=TIMEOUT)
        assert ok(r), (r.status_code, r.text)
    listed = find(list_todos(s, base_url), todo["id"])
    assert listed is not None
    assert listed["completed"] is True, listed


def test_09_complete_marks_the_named_todo(base_url):
    # README: curl -X PATCH ".../todos/1/complete" marks TODO 1 (the one in the path)
    s = session_for(base_url)
    first = create(s, base_url, title="first", description="a")
    second = create(s, base_url, title="second", description="b")
    first_before = find(list_todos(s, base_url), first["id"])["completed"]
    r = s.patch(f"{base_url}/todos/{second['id']}/complete", timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    todos = list_todos(s, base_url)
    assert find(todos, second["id"])["completed"] is True, todos
    # the other TODO is left as it was
    assert find(todos, first["id"])["completed"] == first_before, todos


def test_10_delete_removes_todo(base_url):
    # README: "Delete a TODO" curl -X DELETE ".../todos/1"
    s = session_for(base_url)
    keep = create(s, base_url, title="keep", description="k")
    gone = create(s, base_url, title="gone", description="g")
    r = s.delete(f"{base_url}/todos/{gone['id']}", timeout=TIMEOUT)
    assert ok(r), (r.status_code, r.text)
    todos = list_todos(s, base_url)
    assert find(todos, gone["id"]) is None, todos
    assert find(todos, keep["id"]) is not None, todos
