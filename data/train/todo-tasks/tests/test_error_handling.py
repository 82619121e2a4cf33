"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_todo_with_empty_body_returns_422(base_url, session):
    count_before = session.get(f"{base_url}/todos")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/todos", json={})
    assert response.status_code == 422, response.text
    count_after = session.get(f"{base_url}/todos")
    assert len(count_after.json()) == len(count_before.json())


def test_create_todo_without_title_returns_422(base_url, session, unique):
    sent = {
        "title": unique("..."),
        "description": "...",
        "priority": "high",
        "due_date": "2024-07-01",
    }
    del sent["title"]
    count_before = session.get(f"{base_url}/todos")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/todos", json=sent)
    assert response.status_code == 422, response.text
    count_after = session.get(f"{base_url}/todos")
    assert len(count_after.json()) == len(count_before.json())


def test_delete_todo_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/todos")
    assert count_before.status_code == 200, count_before.text
    unknown_todo_id = 999999999
    response = session.delete(f"{base_url}/todos/{unknown_todo_id}")
    assert response.status_code == 404, response.text
    count_after = session.get(f"{base_url}/todos")
    assert len(count_after.json()) == len(count_before.json())


def test_patch_todo_unknown_id_returns_404(base_url, session, unique):
    count_before = session.get(f"{base_url}/todos")
    assert count_before.status_code == 200, count_before.text
    unknown_todo_id = 999999999
    payload = {
        "title": unique("..."),
        "description": "...",
        "priority": "high",
        "due_date": "2024-07-01",
    }
    response = session.patch(f"{base_url}/todos/{unknown_todo_id}", json=payload)
    assert response.status_code == 404, response.text
    count_after = session.get(f"{base_url}/todos")
    assert len(count_after.json()) == len(count_before.json())


def test_post_todo_complete_twice_returns_409(base_url, session, unique):
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
        first = session.post(f"{base_url}/todos/{todo_id}/complete")
        assert first.status_code == 200, first.text
        stored_before = session.get(f"{base_url}/todos/{todo_id}")
        assert stored_before.status_code == 200, stored_before.text
        second = session.post(f"{base_url}/todos/{todo_id}/complete")
        assert second.status_code == 409, second.text
        stored_after = session.get(f"{base_url}/todos/{todo_id}")
        assert stored_after.status_code == 200, stored_after.text
        assert stored_after.json() == stored_before.json()
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_post_todo_complete_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/todos")
    assert count_before.status_code == 200, count_before.text
    unknown_todo_id = 999999999
    response = session.post(f"{base_url}/todos/{unknown_todo_id}/complete")
    assert response.status_code == 404, response.text
    count_after = session.get(f"{base_url}/todos")
    assert len(count_after.json()) == len(count_before.json())


def test_post_todo_reopen_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/todos")
    assert count_before.status_code == 200, count_before.text
    unknown_todo_id = 999999999
    response = session.post(f"{base_url}/todos/{unknown_todo_id}/reopen")
    assert response.status_code == 404, response.text
    count_after = session.get(f"{base_url}/todos")
    assert len(count_after.json()) == len(count_before.json())
