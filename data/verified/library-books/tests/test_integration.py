"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_book_ids_are_not_reused_after_a_delete(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        gone_created = session.post(f"{base_url}/api/books", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        kept_created = session.post(f"{base_url}/api/books", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        removed = session.delete(f"{base_url}/api/books/{gone_id}")
        assert removed.status_code == 204, removed.text
        third_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        third_created = session.post(f"{base_url}/api/books", json=third_payload)
        assert third_created.status_code == 201, third_created.text
        third_id = third_created.json()["id"]
        created.append(third_id)
        assert third_id != kept_id
        kept_read = session.get(f"{base_url}/api/books/{kept_id}")
        assert kept_read.status_code == 200, kept_read.text
        kept_body = kept_read.json()
        assert kept_body["title"] == kept_payload["title"]
        assert kept_body["author"] == kept_payload["author"]
        assert kept_body["year"] == kept_payload["year"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_book_lifecycle_create_read_update_delete(base_url, session, unique):
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
        assert fetched.json()["id"] == book_id
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
        deleted = session.delete(f"{base_url}/api/books/{book_id}")
        assert deleted.status_code == 204, deleted.text
        gone = session.get(f"{base_url}/api/books/{book_id}")
        assert gone.status_code == 404, gone.text
        assert {"error"} <= set(gone.json())
        assert gone.json()["error"]["code"] == "not_found", gone.text
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_book_loan_post_then_delete_succeeds(base_url, session, unique):
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
        ended = session.delete(f"{base_url}/api/books/{book_id}/loan")
        assert ended.status_code == 200, ended.text
        assert ended.json()["book_id"] == book_id
        ended_body = ended.json()
        assert {"book_id", "member", "borrowed_at", "due_date", "returned_at"} <= set(ended_body)
        assert isinstance(ended_body["book_id"], int)
        assert isinstance(ended_body["member"], str)
        assert isinstance(ended_body["borrowed_at"], (str, type(None)))
        assert isinstance(ended_body["due_date"], (str, type(None)))
        assert isinstance(ended_body["returned_at"], (str, type(None)))
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_created_book_appears_in_list(base_url, session, unique):
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
        listed = session.get(f"{base_url}/api/books", params={"q": payload["title"]})
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert book_id in [record["id"] for record in listed_body["items"]]
    finally:
        session.delete(f"{base_url}/api/books/{book_id}")


def test_deleted_book_leaves_the_books_list(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        gone_created = session.post(f"{base_url}/api/books", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        kept_created = session.post(f"{base_url}/api/books", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/api/books", params={"per_page": 100})
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in before_body["items"]] and kept_id in [record["id"] for record in before_body["items"]]
        removed = session.delete(f"{base_url}/api/books/{gone_id}")
        assert removed.status_code == 204, removed.text
        after = session.get(f"{base_url}/api/books", params={"per_page": 100})
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in after_body["items"]]
        assert kept_id in [record["id"] for record in after_body["items"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_list_books_grows_by_one_after_create(base_url, session, unique):
    created = []
    try:
        before = session.get(f"{base_url}/api/books")
        assert before.status_code == 200, before.text
        marker = unique("Octavia E. Butler")
        new_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        new_payload["author"] = marker
        new_created = session.post(f"{base_url}/api/books", json=new_payload)
        assert new_created.status_code == 201, new_created.text
        new_id = new_created.json()["id"]
        created.append(new_id)
        after = session.get(f"{base_url}/api/books")
        assert after.status_code == 200, after.text
        assert after.json()["total"] == before.json()["total"] + 1
        found = session.get(f"{base_url}/api/books", params={"author": marker})
        assert found.status_code == 200, found.text
        assert [record["id"] for record in found.json()["items"]] == [new_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")


def test_two_books_read_back_each_as_itself(base_url, session, unique):
    created = []
    try:
        first_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        first_created = session.post(f"{base_url}/api/books", json=first_payload)
        assert first_created.status_code == 201, first_created.text
        first_id = first_created.json()["id"]
        created.append(first_id)
        second_payload = {
            "title": unique("Kindred"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1979,
            "tags": ["Classic"],
        }
        second_created = session.post(f"{base_url}/api/books", json=second_payload)
        assert second_created.status_code == 201, second_created.text
        second_id = second_created.json()["id"]
        created.append(second_id)
        first_read = session.get(f"{base_url}/api/books/{first_id}")
        assert first_read.status_code == 200, first_read.text
        first_read_body = first_read.json()
        assert first_read_body["id"] == first_id
        assert first_read_body["title"] == first_payload["title"]
        assert first_read_body["author"] == first_payload["author"]
        assert first_read_body["year"] == first_payload["year"]
        second_read = session.get(f"{base_url}/api/books/{second_id}")
        assert second_read.status_code == 200, second_read.text
        second_read_body = second_read.json()
        assert second_read_body["id"] == second_id
        assert second_read_body["title"] == second_payload["title"]
        assert second_read_body["author"] == second_payload["author"]
        assert second_read_body["year"] == second_payload["year"]
        changes = {
            "title": unique("Kindred (updated)"),
            "author": "Octavia E. Butler",
            "isbn": unique("978-0-8070-8305-0"),
            "year": 1980,
            "tags": ["Classic"],
        }
        updated = session.put(f"{base_url}/api/books/{second_id}", json=changes)
        assert updated.status_code == 200, updated.text
        first_again = session.get(f"{base_url}/api/books/{first_id}")
        assert first_again.status_code == 200, first_again.text
        first_again_body = first_again.json()
        assert first_again_body["id"] == first_id
        second_again = session.get(f"{base_url}/api/books/{second_id}")
        assert second_again.status_code == 200, second_again.text
        second_again_body = second_again.json()
        assert second_again_body["id"] == second_id
        assert first_again_body["title"] == first_payload["title"]
        assert first_again_body["author"] == first_payload["author"]
        assert first_again_body["year"] == first_payload["year"]
        assert second_again_body["title"] == changes["title"]
        assert second_again_body["author"] == changes["author"]
        assert second_again_body["year"] == changes["year"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/books/{record_id}")
