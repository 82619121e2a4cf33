"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_todo_returns_201_with_record(base_url, session, unique):
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
        assert {
            "id", "title", "description", "priority", "due_date", "done", "overdue",
            "created_at", "completed_at",
        } <= set(todo)
        assert isinstance(todo["id"], int)
        assert isinstance(todo["title"], str)
        assert isinstance(todo["description"], str)
        assert isinstance(todo["priority"], str)
        assert isinstance(todo["due_date"], (str, type(None)))
        assert isinstance(todo["done"], bool)
        assert todo["title"] == payload["title"]
        assert todo["description"] == payload["description"]
        assert todo["priority"] == payload["priority"]
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_delete_todo_returns_204(base_url, session, unique):
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
        deleted = session.delete(f"{base_url}/todos/{todo_id}")
        assert deleted.status_code == 204, deleted.text
        assert deleted.content == b""
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_get_todo_returns_created_todo(base_url, session, unique):
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
        body = fetched.json()
        assert body["id"] == todo_id
        assert {
            "id", "title", "description", "priority", "due_date", "done", "overdue",
            "created_at", "completed_at",
        } <= set(body)
        assert isinstance(body["id"], int)
        assert isinstance(body["title"], str)
        assert isinstance(body["description"], str)
        assert isinstance(body["priority"], str)
        assert isinstance(body["due_date"], (str, type(None)))
        assert isinstance(body["done"], bool)
        assert body["title"] == payload["title"]
        assert body["description"] == payload["description"]
        assert body["priority"] == payload["priority"]
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_get_todos_returns_200_with_documented_fields(base_url, session, unique):
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
        response = session.get(f"{base_url}/todos")
        assert response.status_code == 200, response.text
        body = response.json()
        assert isinstance(body, list)
        assert todo_id in [record["id"] for record in body]
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_get_todos_stats_returns_200_with_documented_fields(base_url, session, unique):
    response = session.get(f"{base_url}/todos/stats")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"total", "done", "open", "overdue", "open_by_priority"} <= set(body)
    assert isinstance(body["total"], int)
    assert isinstance(body["done"], int)
    assert isinstance(body["open"], int)
    assert isinstance(body["overdue"], int)
    assert isinstance(body["open_by_priority"], dict)
    payload = {
        "title": unique("..."),
        "description": "...",
        "priority": "high",
        "due_date": "2024-07-01",
    }
    created = session.post(f"{base_url}/todos", json=payload)
    assert created.status_code == 201, created.text
    todo = created.json()
    todo_id = todo["id"]
    try:
        recount = session.get(f"{base_url}/todos/stats")
        assert recount.status_code == 200, recount.text
        assert recount.json()["total"] == body["total"] + 1
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_list_todos_filtered_by_priority_value_returns_only_matching_todo(base_url, session, unique):
    created = []
    try:
        marker = unique("...")
        first_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        first_payload["title"] = f"{marker} {len(created)}"
        first_payload["priority"] = "high"
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
        second_payload["title"] = f"{marker} {len(created)}"
        second_payload["priority"] = "low"
        second_created = session.post(f"{base_url}/todos", json=second_payload)
        assert second_created.status_code == 201, second_created.text
        second_id = second_created.json()["id"]
        created.append(second_id)
        listed = session.get(f"{base_url}/todos", params={"q": marker, "priority": "high"})
        assert listed.status_code == 200, listed.text
        assert [record["id"] for record in listed.json()] == [first_id]
        listed_other = session.get(f"{base_url}/todos", params={"q": marker, "priority": "low"})
        assert listed_other.status_code == 200, listed_other.text
        assert [record["id"] for record in listed_other.json()] == [second_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/todos/{record_id}")


def test_patch_todo_applies_changes(base_url, session, unique):
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
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_post_todo_complete_returns_200(base_url, session, unique):
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
        result = session.post(f"{base_url}/todos/{todo_id}/complete")
        assert result.status_code == 200, result.text
        assert result.json()["id"] == todo_id
        answer = result.json()
        assert {
            "id", "title", "description", "priority", "due_date", "done", "overdue",
            "created_at", "completed_at",
        } <= set(answer)
        assert isinstance(answer["id"], int)
        assert isinstance(answer["title"], str)
        assert isinstance(answer["description"], str)
        assert isinstance(answer["priority"], str)
        assert isinstance(answer["due_date"], (str, type(None)))
        assert isinstance(answer["done"], bool)
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_search_todos_by_q_finds_only_matching_todo(base_url, session, unique):
    created = []
    try:
        marker = unique("...")
        match_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        match_payload["title"] = marker
        match_created = session.post(f"{base_url}/todos", json=match_payload)
        assert match_created.status_code == 201, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        other_created = session.post(f"{base_url}/todos", json=other_payload)
        assert other_created.status_code == 201, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        found = session.get(f"{base_url}/todos", params={"q": marker[1:-1]})
        assert found.status_code == 200, found.text
        assert [record["id"] for record in found.json()] == [match_id]
        found_upper = session.get(f"{base_url}/todos", params={"q": marker[1:-1].upper()})
        assert found_upper.status_code == 200, found_upper.text
        assert [record["id"] for record in found_upper.json()] == [match_id]
        marker_description = unique("...")
        by_description_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        by_description_payload["description"] = marker_description
        by_description_created = session.post(f"{base_url}/todos", json=by_description_payload)
        assert by_description_created.status_code == 201, by_description_created.text
        by_description_id = by_description_created.json()["id"]
        created.append(by_description_id)
        found_description = session.get(f"{base_url}/todos", params={"q": marker_description[1:-1].upper()})
        assert found_description.status_code == 200, found_description.text
        assert [record["id"] for record in found_description.json()] == [by_description_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/todos/{record_id}")
