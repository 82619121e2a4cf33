import uuid

def random_isbn() -> str:
    return "978" + str(uuid.uuid4().int)[:10]


def test_create_and_fetch_book_normalises_fields(base_url, http, book):
    assert book["available"] is True
    assert book["tags"] == ["smoke", "test"]
    assert len(book["isbn"]) == 13 and book["isbn"].isdigit()
    fetched = http.get(f"{base_url}/api/books/{book['id']}", timeout=10)
    assert fetched.status_code == 200
    assert fetched.json() == book

def test_search_with_pagination(base_url, http):
    marker = uuid.uuid4().hex[:10]
    ids = []
    for i in range(3):
        payload = {"title": f"Atlas {marker} vol {i}", "author": "A. Cartographer",
                   "isbn": random_isbn(), "year": 1990 + i}
        response = http.post(f"{base_url}/api/books", json=payload, timeout=10)
        assert response.status_code == 201
        ids.append(response.json()["id"])
    try:
        page = http.get(f"{base_url}/api/books",
                        params={"q": marker.upper(), "per_page": 2, "page": 2}, timeout=10)
        assert page.status_code == 200
        body = page.json()
        assert body["total"] == 3 and body["pages"] == 2 and body["page"] == 2
        assert [b["id"] for b in body["items"]] == ids[2:]
        bad = http.get(f"{base_url}/api/books", params={"per_page": 0}, timeout=10)
        assert bad.status_code == 400
        assert bad.json()["error"]["code"] == "invalid_parameter"
    finally:
        for book_id in ids:
            http.delete(f"{base_url}/api/books/{book_id}", timeout=10)

def test_validation_and_duplicate_isbn(base_url, http, book):
    invalid = http.post(f"{base_url}/api/books",
                        json={"title": "", "author": "X", "isbn": "12", "year": 3000}, timeout=10)
    assert invalid.status_code == 422
    assert set(invalid.json()["error"]["fields"]) == {"title", "isbn", "year"}
    duplicate = dict(book)
    duplicate["title"] = "Another title"
    response = http.post(f"{base_url}/api/books", json=duplicate, timeout=10)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "duplicate_isbn"

def test_loan_lifecycle(base_url, http, book):
    url = f"{base_url}/api/books/{book['id']}/loan"
    member = f"M-{uuid.uuid4().hex[:6]}"
    loan = http.post(url, json={"member": member, "days": 7}, timeout=10)
    assert loan.status_code == 201
    assert loan.json()["member"] == member
    assert http.post(url, json={"member": member}, timeout=10).status_code == 409
    blocked = http.delete(f"{base_url}/api/books/{book['id']}", timeout=10)
    assert blocked.status_code == 409
    assert blocked.json()["error"]["code"] == "book_on_loan"
    loans = http.get(f"{base_url}/api/loans", params={"member": member}, timeout=10).json()
    assert [item["book_id"] for item in loans["items"]] == [book["id"]]
    returned = http.delete(url, timeout=10)
    assert returned.status_code == 200 and "returned_at" in returned.json()
    assert http.delete(url, timeout=10).json()["error"]["code"] == "not_on_loan"

def test_unknown_book_returns_404(base_url, http):
    response = http.get(f"{base_url}/api/books/987654321", timeout=10)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
