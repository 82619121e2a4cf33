"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_created_todo_appears_in_list(base_url, session, unique):
    payload = {
        "title": unique("..."),
        "description": "...",
        "priority": "high",
        "due_date": "2024-07-01",
    }
    response = session.post(f"{base_url}/todos", json=payload)
    assert response.status_code == 201, response.text
    todo = response.json()
    todo_id = todo["id"]
    try:
        listed = session.get(f"{base_url}/todos", params={"q": payload["title"]})
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert todo_id in [record["id"] for record in listed_body]
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_deleted_todo_leaves_the_todos_list(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        gone_created = session.post(f"{base_url}/todos", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        kept_created = session.post(f"{base_url}/todos", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/todos", params={})
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in before_body] and kept_id in [record["id"] for record in before_body]
        removed = session.delete(f"{base_url}/todos/{gone_id}")
        assert removed.status_code == 204, removed.text
        after = session.get(f"{base_url}/todos", params={})
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in after_body]
        assert kept_id in [record["id"] for record in after_body]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/todos/{record_id}")


def test_list_todos_grows_by_one_after_create(base_url, session, unique):
    created = []
    try:
        before = session.get(f"{base_url}/todos")
        assert before.status_code == 200, before.text
        marker = unique("...")
        new_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        new_payload["title"] = marker
        new_created = session.post(f"{base_url}/todos", json=new_payload)
        assert new_created.status_code == 201, new_created.text
        new_id = new_created.json()["id"]
        created.append(new_id)
        after = session.get(f"{base_url}/todos")
        assert after.status_code == 200, after.text
        assert len(after.json()) == len(before.json()) + 1
        assert new_id in [record["id"] for record in after.json()]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/todos/{record_id}")


def test_todo_ids_are_not_reused_after_a_delete(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        gone_created = session.post(f"{base_url}/todos", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        kept_created = session.post(f"{base_url}/todos", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        removed = session.delete(f"{base_url}/todos/{gone_id}")
        assert removed.status_code == 204, removed.text
        third_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        third_created = session.post(f"{base_url}/todos", json=third_payload)
        assert third_created.status_code == 201, third_created.text
        third_id = third_created.json()["id"]
        created.append(third_id)
        assert third_id != kept_id
        kept_read = session.get(f"{base_url}/todos/{kept_id}")
        assert kept_read.status_code == 200, kept_read.text
        kept_body = kept_read.json()
        assert kept_body["title"] == kept_payload["title"]
        assert kept_body["description"] == kept_payload["description"]
        assert kept_body["priority"] == kept_payload["priority"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/todos/{record_id}")


def test_todo_lifecycle_create_read_update_delete(base_url, session, unique):
    payload = {
        "title": unique("..."),
        "description": "...",
        "priority": "high",
        "due_date": "2024-07-01",
    }
    response = session.post(f"{base_url}/todos", json=payload)
    assert response.status_code == 201, response.text
    todo = response.json()
    todo_id = todo["id"]
    try:
        fetched = session.get(f"{base_url}/todos/{todo_id}")
        assert fetched.status_code == 200, fetched.text
        assert fetched.json()["id"] == todo_id
        changes = {"title": unique("... (updated)")}
        updated = session.patch(f"{base_url}/todos/{todo_id}", json=changes)
        assert updated.status_code == 200, updated.text
        after = updated.json()
        assert after["title"] == changes["title"]
        reread = session.get(f"{base_url}/todos/{todo_id}")
        assert reread.status_code == 200, reread.text
        stored = reread.json()
        assert stored["title"] == changes["title"]
        assert stored["description"] == payload["description"]
        assert stored["priority"] == payload["priority"]
        deleted = session.delete(f"{base_url}/todos/{todo_id}")
        assert deleted.status_code == 204, deleted.text
        gone = session.get(f"{base_url}/todos/{todo_id}")
        assert gone.status_code == 404, gone.text
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_todos_lists_every_record(base_url, session, unique):
    created = []
    try:
        for _ in range(12):
            new_payload = {
                "title": unique("..."),
                "description": "...",
                "priority": "high",
                "due_date": "2024-07-01",
            }
            new_created = session.post(f"{base_url}/todos", json=new_payload)
            assert new_created.status_code == 201, new_created.text
            new_id = new_created.json()["id"]
            created.append(new_id)
        listed = session.get(f"{base_url}/todos")
        assert listed.status_code == 200, listed.text
        body = listed.json()
        ids = [record["id"] for record in body]
        assert [i for i in created if i not in ids] == [], ids
    finally:
        for record_id in created:
            session.delete(f"{base_url}/todos/{record_id}")


def test_two_todos_read_back_each_as_itself(base_url, session, unique):
    created = []
    try:
        first_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        first_created = session.post(f"{base_url}/todos", json=first_payload)
        assert first_created.status_code == 201, first_created.text
        first_id = first_created.json()["id"]
        created.append(first_id)
        second_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        second_created = session.post(f"{base_url}/todos", json=second_payload)
        assert second_created.status_code == 201, second_created.text
        second_id = second_created.json()["id"]
        created.append(second_id)
        first_read = session.get(f"{base_url}/todos/{first_id}")
        assert first_read.status_code == 200, first_read.text
        first_read_body = first_read.json()
        assert first_read_body["id"] == first_id
        assert first_read_body["title"] == first_payload["title"]
        assert first_read_body["description"] == first_payload["description"]
        assert first_read_body["priority"] == first_payload["priority"]
        second_read = session.get(f"{base_url}/todos/{second_id}")
        assert second_read.status_code == 200, second_read.text
        second_read_body = second_read.json()
        assert second_read_body["id"] == second_id
        assert second_read_body["title"] == second_payload["title"]
        assert second_read_body["description"] == second_payload["description"]
        assert second_read_body["priority"] == second_payload["priority"]
        changes = {"title": unique("... (updated)")}
        updated = session.patch(f"{base_url}/todos/{second_id}", json=changes)
        assert updated.status_code == 200, updated.text
        first_again = session.get(f"{base_url}/todos/{first_id}")
        assert first_again.status_code == 200, first_again.text
        first_again_body = first_again.json()
        assert first_again_body["id"] == first_id
        second_again = session.get(f"{base_url}/todos/{second_id}")
        assert second_again.status_code == 200, second_again.text
        second_again_body = second_again.json()
        assert second_again_body["id"] == second_id
        assert first_again_body["title"] == first_payload["title"]
        assert first_again_body["description"] == first_payload["description"]
        assert first_again_body["priority"] == first_payload["priority"]
        assert second_again_body["title"] == changes["title"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/todos/{record_id}")
