"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_delete_book_twice_returns_404(base_url, session, unique):
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    response = session.post(f"{base_url}/api/books", json=payload)
    assert response.status_code == 201, response.text
    book = response.json()
    book_id = book["id"]
    try:
        first = session.delete(f"{base_url}/api/books/{book_id}")
        assert first.status_code == 204, first.text
        second = session.delete(f"{base_url}/api/books/{book_id}")
        assert second.status_code == 404, second.text
        assert {"error"} <= set(second.json())
        assert second.json()["error"]["code"] == "not_found", second.text
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_get_book_unknown_id_returns_404(base_url, session, unique):
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    response = session.post(f"{base_url}/api/books", json=payload)
    assert response.status_code == 201, response.text
    book = response.json()
    book_id = book["id"]
    try:
        known = session.get(f"{base_url}/api/books/{book_id}")
        assert known.status_code == 200, known.text
        assert known.json()["id"] == book_id
        unknown_id = 999999999
        response = session.get(f"{base_url}/api/books/{unknown_id}", allow_redirects=False)
        assert response.status_code == 404, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "not_found", response.text
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_list_books_default_per_page_is_20(base_url, session, unique):
    created = []
    try:
        codes = []
        for _ in range(21):
            rec_payload = {
                "title": unique("Kindred"),
                "author": "Octavia E. Butler",
                "isbn": unique("978-0-8070-8305-0"),
                "year": 1979,
                "tags": ["Classic"],
            }
            rec_created = session.post(f"{base_url}/api/books", json=rec_payload)
            rec_id = rec_created.json()["id"]
            created.append(rec_id)
            codes.append(rec_created.status_code)
        assert len(codes) == 21
        assert all(200 <= code < 300 for code in codes), codes
        listed = session.get(f"{base_url}/api/books", params={})
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert len(listed_body["items"]) == 20
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_list_books_page_past_end_returns_no_records(base_url, session):
    response = session.get(f"{base_url}/api/books", params={"page": 100000})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["items"] == []


def test_list_books_pages_hold_every_record_once(base_url, session):
    response = session.get(f"{base_url}/api/books", params={"page": 1})
    assert response.status_code == 200, response.text
    total = response.json()["total"]
    seen = []
    for number in range(1, 1 + 200):
        response = session.get(f"{base_url}/api/books", params={"page": number})
        assert response.status_code == 200, response.text
        body = response.json()
        if not body["items"]:
            break
        seen += [record["id"] for record in body["items"]]
    assert len(seen) == len(set(seen)), seen
    assert len(seen) == total, (len(seen), total)


def test_list_books_pages_split_created_books(base_url, session, unique):
    created = []
    try:
        marker = unique("Octavia E. Butler")
        rec0_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        rec0_payload["author"] = marker
        rec0_created = session.post(f"{base_url}/api/books", json=rec0_payload)
        assert rec0_created.status_code == 201, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        rec1_payload["author"] = marker
        rec1_created = session.post(f"{base_url}/api/books", json=rec1_payload)
        assert rec1_created.status_code == 201, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        rec2_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        rec2_payload["author"] = marker
        rec2_created = session.post(f"{base_url}/api/books", json=rec2_payload)
        assert rec2_created.status_code == 201, rec2_created.text
        rec2_id = rec2_created.json()["id"]
        created.append(rec2_id)
        page_one = session.get(f"{base_url}/api/books", params={"author": marker, "page": 1, "per_page": 2})
        assert page_one.status_code == 200, page_one.text
        page_two = session.get(f"{base_url}/api/books", params={"author": marker, "page": 2, "per_page": 2})
        assert page_two.status_code == 200, page_two.text
        first_ids = [record["id"] for record in page_one.json()["items"]]
        second_ids = [record["id"] for record in page_two.json()["items"]]
        assert len(first_ids) == 2 and len(second_ids) == 1
        assert sorted(first_ids + second_ids) == sorted([rec0_id, rec1_id, rec2_id])
        assert page_one.json()["total"] == 3
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_list_books_pages_split_new_records_without_repeats(base_url, session, unique):
    response = session.get(f"{base_url}/api/books", params={"page": 1})
    assert response.status_code == 200, response.text
    size = response.json()["per_page"]
    assert isinstance(size, int) and 0 < size <= 100, size
    made = []
    try:
        for _ in range(size + 1):
            payload = {
                "title": unique("Kindred"),
                "author": "Octavia E. Butler",
                "isbn": unique("978-0-8070-8305-0"),
                "year": 1979,
                "tags": ["Classic"],
            }
            created = session.post(f"{base_url}/api/books", json=payload)
            assert created.status_code == 201, created.text
            made.append(created.json()["id"])
        seen = []
        response = session.get(f"{base_url}/api/books", params={"page": 1})
        for number in range(1, 1 + response.json()["pages"]):
            response = session.get(f"{base_url}/api/books", params={"page": number})
            if response.status_code == 404:
                break
            assert response.status_code == 200, response.text
            body = response.json()
            if not body["items"]:
                break
            seen += [record["id"] for record in body["items"]]
        assert len(seen) == len(set(seen)), seen
        assert set(made) <= set(seen), (made, seen)
    finally:
        for record_id in made:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_list_books_per_page_and_page_split_the_list(base_url, session, unique):
    created = []
    try:
        rec0_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        rec0_created = session.post(f"{base_url}/api/books", json=rec0_payload)
        assert rec0_created.status_code == 201, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        rec1_created = session.post(f"{base_url}/api/books", json=rec1_payload)
        assert rec1_created.status_code == 201, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        first = session.get(f"{base_url}/api/books", params={"per_page": 1, "page": 1})
        assert first.status_code == 200, first.text
        first_body = first.json()
        second = session.get(f"{base_url}/api/books", params={"per_page": 1, "page": 2})
        assert second.status_code == 200, second.text
        second_body = second.json()
        unpaged = session.get(f"{base_url}/api/books", params={"per_page": 1})
        assert unpaged.status_code == 200, unpaged.text
        unpaged_body = unpaged.json()
        assert len(first_body["items"]) == 1 and len(second_body["items"]) == 1
        assert [record["id"] for record in first_body["items"]] != [record["id"] for record in second_body["items"]]
        assert [record["id"] for record in unpaged_body["items"]] == [record["id"] for record in first_body["items"]]
        assert first_body["total"] >= 2
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_list_books_with_page_below_range_returns_400(base_url, session):
    response = session.get(f"{base_url}/api/books", params={"page": 0})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_parameter", response.text


def test_list_books_with_per_page_1_returns_at_most_one(base_url, session):
    response = session.get(f"{base_url}/api/books", params={"per_page": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    assert len(body["items"]) <= 1
    assert body["per_page"] == 1


def test_list_books_with_per_page_above_range_returns_400(base_url, session):
    response = session.get(f"{base_url}/api/books", params={"per_page": 101})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_parameter", response.text


def test_list_books_with_per_page_below_range_returns_400(base_url, session):
    response = session.get(f"{base_url}/api/books", params={"per_page": 0})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_parameter", response.text


def test_search_books_without_match_returns_empty_list(base_url, session, unique):
    response = session.get(f"{base_url}/api/books", params={"q": unique("nomatch")})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["items"] == []
    assert body["total"] == 0
