"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_book_location_header_names_the_new_book(base_url, session, unique):
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    response = session.post(f"{base_url}/api/books", json=payload)
    assert response.status_code == 201, response.text
    location = response.headers["Location"]
    url = requests.compat.urljoin(base_url + "/", location)
    try:
        fetched = session.get(url)
        assert fetched.status_code == 200, fetched.text
        body = fetched.json()
        assert body["title"] == payload["title"]
        assert body["author"] == payload["author"]
        assert body["year"] == payload["year"]
    finally:
        session.delete(url)


def test_create_book_returns_201_with_record(base_url, session, unique):
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
        assert {
            "id", "title", "author", "isbn", "year", "tags", "available", "created_at",
        } <= set(book)
        assert isinstance(book["id"], int)
        assert isinstance(book["title"], str)
        assert isinstance(book["author"], str)
        assert isinstance(book["isbn"], str)
        assert isinstance(book["year"], int)
        assert isinstance(book["tags"], list)
        assert book["title"] == payload["title"]
        assert book["author"] == payload["author"]
        assert book["year"] == payload["year"]
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_delete_book_returns_204(base_url, session, unique):
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
        deleted = session.delete(f"{base_url}/api/books/{book_id}")
        assert deleted.status_code == 204, deleted.text
        assert deleted.content == b""
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_get_book_returns_created_book(base_url, session, unique):
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
        fetched = session.get(f"{base_url}/api/books/{book_id}")
        assert fetched.status_code == 200, fetched.text
        body = fetched.json()
        assert body["id"] == book_id
        assert {
            "id", "title", "author", "isbn", "year", "tags", "available", "created_at",
        } <= set(body)
        assert isinstance(body["id"], int)
        assert isinstance(body["title"], str)
        assert isinstance(body["author"], str)
        assert isinstance(body["isbn"], str)
        assert isinstance(body["year"], int)
        assert isinstance(body["tags"], list)
        assert body["title"] == payload["title"]
        assert body["author"] == payload["author"]
        assert body["year"] == payload["year"]
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_get_books_returns_200_with_documented_fields(base_url, session, unique):
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
        response = session.get(f"{base_url}/api/books")
        assert response.status_code == 200, response.text
        body = response.json()
        assert {"items", "page", "per_page", "total", "pages"} <= set(body)
        assert isinstance(body["items"], list)
        assert isinstance(body["page"], int)
        assert isinstance(body["per_page"], int)
        assert isinstance(body["total"], int)
        assert isinstance(body["pages"], int)
        assert len(body["items"]) >= 1
        assert body["total"] >= len(body["items"])
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_get_health_returns_200_with_documented_fields(base_url, session, unique):
    response = session.get(f"{base_url}/api/health")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"status", "books"} <= set(body)
    assert isinstance(body["status"], str)
    assert isinstance(body["books"], int)
    assert body["status"] == "ok"
    payload = {
        "title": unique("Kindred"),
        "author": "Octavia E. Butler",
        "isbn": unique("978-0-8070-8305-0"),
        "year": 1979,
        "tags": ["Classic"],
    }
    created = session.post(f"{base_url}/api/books", json=payload)
    assert created.status_code == 201, created.text
    book = created.json()
    book_id = book["id"]
    try:
        recount = session.get(f"{base_url}/api/health")
        assert recount.status_code == 200, recount.text
        assert recount.json()["books"] == body["books"] + 1
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_list_books_filtered_by_author_returns_only_matching_book(base_url, session, unique):
    created = []
    try:
        wanted = unique("Octavia E. Butler")
        other = unique("Octavia E. Butler")
        match_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        match_payload["author"] = wanted
        match_created = session.post(f"{base_url}/api/books", json=match_payload)
        assert match_created.status_code == 201, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        other_payload["author"] = other
        other_created = session.post(f"{base_url}/api/books", json=other_payload)
        assert other_created.status_code == 201, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        listed = session.get(f"{base_url}/api/books", params={"author": wanted})
        assert listed.status_code == 200, listed.text
        assert [record["id"] for record in listed.json()["items"]] == [match_id]
        upper = session.get(f"{base_url}/api/books", params={"author": wanted.upper()})
        assert upper.status_code == 200, upper.text
        assert [record["id"] for record in upper.json()["items"]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_list_books_filtered_by_tag_returns_only_matching_book(base_url, session, unique):
    created = []
    try:
        wanted = unique("classic")
        other = unique("classic")
        match_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        match_payload["tags"] = [wanted]
        match_created = session.post(f"{base_url}/api/books", json=match_payload)
        assert match_created.status_code == 201, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        other_payload["tags"] = [other]
        other_created = session.post(f"{base_url}/api/books", json=other_payload)
        assert other_created.status_code == 201, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        listed = session.get(f"{base_url}/api/books", params={"tag": wanted})
        assert listed.status_code == 200, listed.text
        assert [record["id"] for record in listed.json()["items"]] == [match_id]
        upper = session.get(f"{base_url}/api/books", params={"tag": wanted.upper()})
        assert upper.status_code == 200, upper.text
        assert [record["id"] for record in upper.json()["items"]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_post_book_loan_returns_201(base_url, session, unique):
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
        result = session.post(f"{base_url}/api/books/{book_id}/loan", json=body_sent)
        assert result.status_code == 201, result.text
        assert result.json()["member"] == body_sent["member"]
        assert result.json()["book_id"] == book_id
        answer = result.json()
        assert {"book_id", "member", "borrowed_at", "due_date"} <= set(answer)
        assert isinstance(answer["book_id"], int)
        assert isinstance(answer["member"], str)
        assert isinstance(answer["borrowed_at"], (str, type(None)))
        assert isinstance(answer["due_date"], (str, type(None)))
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_put_book_applies_changes(base_url, session, unique):
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
        changes = {
            "title": unique("Kindred (updated)"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1980,
            "tags": ["Classic"],
        }
        updated = session.put(f"{base_url}/api/books/{book_id}", json=changes)
        assert updated.status_code == 200, updated.text
        after = updated.json()
        assert after["title"] == changes["title"]
        assert after["author"] == changes["author"]
        assert after["year"] == changes["year"]
        reread = session.get(f"{base_url}/api/books/{book_id}")
        assert reread.status_code == 200, reread.text
        stored = reread.json()
        assert stored["title"] == changes["title"]
        assert stored["author"] == changes["author"]
        assert stored["year"] == changes["year"]
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_search_books_by_q_finds_only_matching_book(base_url, session, unique):
    created = []
    try:
        marker = unique("Kindred")
        match_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        match_payload["title"] = marker
        match_created = session.post(f"{base_url}/api/books", json=match_payload)
        assert match_created.status_code == 201, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        other_created = session.post(f"{base_url}/api/books", json=other_payload)
        assert other_created.status_code == 201, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        found = session.get(f"{base_url}/api/books", params={"q": marker[1:-1]})
        assert found.status_code == 200, found.text
        assert [record["id"] for record in found.json()["items"]] == [match_id]
        found_upper = session.get(f"{base_url}/api/books", params={"q": marker[1:-1].upper()})
        assert found_upper.status_code == 200, found_upper.text
        assert [record["id"] for record in found_upper.json()["items"]] == [match_id]
        marker_author = unique("Octavia E. Butler")
        by_author_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        by_author_payload["author"] = marker_author
        by_author_created = session.post(f"{base_url}/api/books", json=by_author_payload)
        assert by_author_created.status_code == 201, by_author_created.text
        by_author_id = by_author_created.json()["id"]
        created.append(by_author_id)
        found_author = session.get(f"{base_url}/api/books", params={"q": marker_author[1:-1].upper()})
        assert found_author.status_code == 200, found_author.text
        assert [record["id"] for record in found_author.json()["items"]] == [by_author_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")
