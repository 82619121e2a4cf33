def test_duplicate_code_conflicts(base_url, http, link):
    again = http.post(f"{base_url}/short-links",
                      json={"url": "https://example.org/", "code": link["code"]}, timeout=10)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "code_taken"

def test_random_code_and_validation(base_url, http):
    created = http.post(f"{base_url}/short-links",
                        json={"url": "https://example.net/x", "expires_in_days": 3}, timeout=10)
    assert created.status_code == 201
    body = created.json()
    try:
        assert len(body["code"]) == 7 and body["expires_at"] is not None
    finally:
        http.delete(f"{base_url}/short-links/{body['code']}", timeout=10)
    bad = http.post(f"{base_url}/short-links", json={"url": "ftp://example.com"}, timeout=10)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_url"
    not_json = http.post(f"{base_url}/short-links", data="nope",
                         headers={"Content-Type": "application/json"}, timeout=10)
    assert not_json.status_code == 400

def test_redirect_counts_hits(base_url, http, link):
    code = link["code"]
    for _ in range(2):
        hop = http.get(f"{base_url}/r/{code}", allow_redirects=False, timeout=10)
        assert hop.status_code == 302
        assert hop.headers["Location"] == link["url"]
    stats = http.get(f"{base_url}/short-links/{code}/stats", timeout=10).json()
    assert stats["hits"] == 2 and stats["last_accessed_at"] is not None

def test_patch_and_delete(base_url, http, link):
    code = link["code"]
    patched = http.patch(f"{base_url}/short-links/{code}",
                         json={"url": "https://example.com/new"}, timeout=10)
    assert patched.status_code == 200 and patched.json()["url"] == "https://example.com/new"
    empty = http.patch(f"{base_url}/short-links/{code}", json={}, timeout=10)
    assert empty.status_code == 422
    assert http.delete(f"{base_url}/short-links/{code}", timeout=10).status_code == 204
    gone = http.get(f"{base_url}/r/{code}", allow_redirects=False, timeout=10)
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"
