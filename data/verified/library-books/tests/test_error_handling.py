"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_book_twice_returns_409(base_url, session, unique):
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
        count_before = session.get(f"{base_url}/api/books")
        assert count_before.status_code == 200, count_before.text
        again = session.post(f"{base_url}/api/books", json=payload)
        assert again.status_code == 409, again.text
        assert {"error"} <= set(again.json())
        assert again.json()["error"]["code"] == "duplicate_isbn", again.text
        count_after = session.get(f"{base_url}/api/books")
        assert count_after.json()["total"] == count_before.json()["total"]
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_create_book_with_empty_body_returns_422(base_url, session):
    count_before = session.get(f"{base_url}/api/books")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/books", json={})
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "validation_error", response.text
    count_after = session.get(f"{base_url}/api/books")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_book_with_malformed_json_returns_400(base_url, session, unique):
    response = session.post(f"{base_url}/api/books", data="{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_json", response.text
    # the same create with a valid body is accepted
    valid = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    accepted = session.post(f"{base_url}/api/books", json=valid)
    assert accepted.status_code == 201, accepted.text
    accepted_record = accepted.json()
    assert accepted_record["title"] == valid["title"]
    assert accepted_record["author"] == valid["author"]
    assert accepted_record["year"] == valid["year"]
    accepted_id = accepted_record["id"]
    fetched = session.get(f"{base_url}/api/books/{accepted_id}")
    assert fetched.status_code == 200, fetched.text
    assert fetched.json()["title"] == accepted_record["title"]
    assert fetched.json()["author"] == accepted_record["author"]
    assert fetched.json()["isbn"] == accepted_record["isbn"]
    assert fetched.json()["year"] == accepted_record["year"]
    session.delete(f"{base_url}/api/books/{accepted_id}")


def test_create_book_with_text_year_returns_422(base_url, session, unique):
    count_before = session.get(f"{base_url}/api/books")
    assert count_before.status_code == 200, count_before.text
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    payload["year"] = "not-a-number"
    response = session.post(f"{base_url}/api/books", json=payload)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "validation_error", response.text
    count_after = session.get(f"{base_url}/api/books")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_delete_book_in_guarded_state_returns_409(base_url, session, unique):
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
        body_sent = {"member": "M-1042", "days": 14}
        started = session.post(f"{base_url}/api/books/{book_id}/loan", json=body_sent)
        assert started.status_code == 201, started.text
        refused = session.delete(f"{base_url}/api/books/{book_id}")
        assert refused.status_code == 409, refused.text
        assert {"error"} <= set(refused.json())
        assert refused.json()["error"]["code"] == "book_on_loan", refused.text
        still = session.get(f"{base_url}/api/books/{book_id}")
        assert still.status_code == 200, still.text
        assert still.json()["id"] == book_id
    finally:
        session.delete(f"{base_url}/api/books/{book_id}/loan")
        session.delete(f"{base_url}/api/books/{book_id}")


def test_delete_book_loan_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/api/books")
    assert count_before.status_code == 200, count_before.text
    unknown_id = 999999999
    response = session.delete(f"{base_url}/api/books/{unknown_id}/loan")
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/api/books")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_delete_book_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/api/books")
    assert count_before.status_code == 200, count_before.text
    unknown_id = 999999999
    response = session.delete(f"{base_url}/api/books/{unknown_id}")
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/api/books")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_list_books_with_text_per_page_returns_400(base_url, session):
    response = session.get(f"{base_url}/api/books", params={"per_page": "abc"})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_parameter", response.text


def test_post_book_loan_twice_returns_409(base_url, session, unique):
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
        body_sent = {"member": "M-1042", "days": 14}
        first = session.post(f"{base_url}/api/books/{book_id}/loan", json=body_sent)
        assert first.status_code == 201, first.text
        stored_before = session.get(f"{base_url}/api/books/{book_id}")
        assert stored_before.status_code == 200, stored_before.text
        second = session.post(f"{base_url}/api/books/{book_id}/loan", json=body_sent)
        assert second.status_code == 409, second.text
        assert {"error"} <= set(second.json())
        assert second.json()["error"]["code"] == "already_on_loan", second.text
        stored_after = session.get(f"{base_url}/api/books/{book_id}")
        assert stored_after.status_code == 200, stored_after.text
        assert stored_after.json() == stored_before.json()
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_post_book_loan_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/api/books")
    assert count_before.status_code == 200, count_before.text
    unknown_id = 999999999
    payload = {"member": "M-1042", "days": 14}
    response = session.post(f"{base_url}/api/books/{unknown_id}/loan", json=payload)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/api/books")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_post_book_loan_with_days_above_range_returns_422(base_url, session, unique):
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    owner = session.post(f"{base_url}/api/books", json=payload)
    assert owner.status_code == 201, owner.text
    book = owner.json()
    book_id = book["id"]
    try:
        sent = {"member": "M-1042", "days": 14}
        sent["days"] = 61
        before = session.get(f"{base_url}/api/books/{book_id}")
        assert before.status_code == 200, before.text
        response = session.post(f"{base_url}/api/books/{book_id}/loan", json=sent)
        assert response.status_code == 422, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "validation_error", response.text
        after = session.get(f"{base_url}/api/books/{book_id}")
        assert after.json() == before.json()
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_post_book_loan_with_days_below_range_returns_422(base_url, session, unique):
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    owner = session.post(f"{base_url}/api/books", json=payload)
    assert owner.status_code == 201, owner.text
    book = owner.json()
    book_id = book["id"]
    try:
        sent = {"member": "M-1042", "days": 14}
        sent["days"] = 0
        before = session.get(f"{base_url}/api/books/{book_id}")
        assert before.status_code == 200, before.text
        response = session.post(f"{base_url}/api/books/{book_id}/loan", json=sent)
        assert response.status_code == 422, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "validation_error", response.text
        after = session.get(f"{base_url}/api/books/{book_id}")
        assert after.json() == before.json()
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_post_book_loan_without_member_returns_422(base_url, session, unique):
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    owner = session.post(f"{base_url}/api/books", json=payload)
    assert owner.status_code == 201, owner.text
    book = owner.json()
    book_id = book["id"]
    try:
        sent = {"member": "M-1042", "days": 14}
        del sent["member"]
        before = session.get(f"{base_url}/api/books/{book_id}")
        assert before.status_code == 200, before.text
        response = session.post(f"{base_url}/api/books/{book_id}/loan", json=sent)
        assert response.status_code == 422, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "validation_error", response.text
        after = session.get(f"{base_url}/api/books/{book_id}")
        assert after.json() == before.json()
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_put_book_unknown_id_returns_404(base_url, session, unique):
    count_before = session.get(f"{base_url}/api/books")
    assert count_before.status_code == 200, count_before.text
    unknown_id = 999999999
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    response = session.put(f"{base_url}/api/books/{unknown_id}", json=payload)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/api/books")
    assert count_after.json()["total"] == count_before.json()["total"]
