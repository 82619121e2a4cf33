import uuid


def test_register_duplicate_and_bad_login(base_url, http, account):
    username, password = account
    again = http.post(f"{base_url}/auth/register",
                      json={"username": username, "password": password}, timeout=10)
    assert again.status_code == 409 and again.json()["code"] == "USERNAME_TAKEN"
    wrong = http.post(f"{base_url}/auth/login",
                      json={"username": username, "password": "wrong-password"}, timeout=10)
    assert wrong.status_code == 401 and wrong.json()["code"] == "INVALID_CREDENTIALS"
    short = http.post(f"{base_url}/auth/register",
                      json={"username": f"v_{uuid.uuid4().hex[:8]}", "password": "short"},
                      timeout=10)
    assert short.status_code == 422 and short.json()["code"] == "VALIDATION_ERROR"

def test_note_crud_and_tags(base_url, http, auth_headers):
    created = http.post(f"{base_url}/notes", headers=auth_headers,
                        json={"title": " 读书清单 ", "content": "三体", "tags": ["Reading", "books"]},
                        timeout=10)
    assert created.status_code == 201
    note = created.json()
    assert note["title"] == "读书清单" and note["tags"] == ["books", "reading"]
    url = f"{base_url}/notes/{note['id']}"
    updated = http.put(url, headers=auth_headers, json={"title": "书单", "tags": ["books"]},
                       timeout=10)
    assert updated.status_code == 200 and updated.json()["content"] == ""
    tags = http.get(f"{base_url}/tags", headers=auth_headers, timeout=10).json()
    assert tags == [{"tag": "books", "count": 1}]
    found = http.get(f"{base_url}/notes", params={"tag": "BOOKS"}, headers=auth_headers,
                     timeout=10).json()
    assert found["total"] == 1 and found["items"][0]["id"] == note["id"]
    assert http.delete(url, headers=auth_headers, timeout=10).status_code == 204
    assert http.get(url, headers=auth_headers, timeout=10).json()["code"] == "NOTE_NOT_FOUND"

def test_notes_are_private(base_url, http, auth_headers):
    note = http.post(f"{base_url}/notes", headers=auth_headers, json={"title": "mine"},
                     timeout=10).json()
    other = f"o_{uuid.uuid4().hex[:12]}"
    http.post(f"{base_url}/auth/register", json={"username": other, "password": "password-2"},
              timeout=10)
    token = http.post(f"{base_url}/auth/login", json={"username": other, "password": "password-2"},
                      timeout=10).json()["access_token"]
    other_headers = {"Authorization": f"Bearer {token}"}
    try:
        peek = http.get(f"{base_url}/notes/{note['id']}", headers=other_headers, timeout=10)
        assert peek.status_code == 404
        me = http.get(f"{base_url}/users/me", headers=other_headers, timeout=10).json()
        assert me["username"] == other and me["note_count"] == 0
    finally:
        http.delete(f"{base_url}/notes/{note['id']}", headers=auth_headers, timeout=10)
        http.post(f"{base_url}/auth/logout", headers=other_headers, timeout=10)

def test_logout_revokes_token(base_url, http, account):
    username, password = account
    token = http.post(f"{base_url}/auth/login",
                      json={"username": username, "password": password},
                      timeout=10).json()["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    assert http.get(f"{base_url}/users/me", headers=headers, timeout=10).status_code == 200
    assert http.post(f"{base_url}/auth/logout", headers=headers, timeout=10).status_code == 204
    assert http.get(f"{base_url}/users/me", headers=headers, timeout=10).status_code == 401
