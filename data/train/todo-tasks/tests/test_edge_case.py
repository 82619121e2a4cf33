"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_delete_todo_twice_returns_404(base_url, session, unique):
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
        first = session.delete(f"{base_url}/todos/{todo_id}")
        assert first.status_code == 204, first.text
        second = session.delete(f"{base_url}/todos/{todo_id}")
        assert second.status_code == 404, second.text
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_get_todo_unknown_id_returns_404(base_url, session, unique):
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
        known = session.get(f"{base_url}/todos/{todo_id}")
        assert known.status_code == 200, known.text
        assert known.json()["id"] == todo_id
        unknown_todo_id = 999999999
        response = session.get(f"{base_url}/todos/{unknown_todo_id}", allow_redirects=False)
        assert response.status_code == 404, response.text
    finally:
        session.delete(f"{base_url}/todos/{todo_id}")


def test_list_todos_in_documented_order_oldest_first(base_url, session, unique):
    created = []
    try:
        rec0_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        rec0_created = session.post(f"{base_url}/todos", json=rec0_payload)
        assert rec0_created.status_code == 201, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {
            "title": unique("..."),
            "description": "...",
            "priority": "high",
            "due_date": "2024-07-01",
        }
        rec1_created = session.post(f"{base_url}/todos", json=rec1_payload)
        assert rec1_created.status_code == 201, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        listed = session.get(f"{base_url}/todos")
        assert listed.status_code == 200, listed.text
        positions = [[record["id"] for record in listed.json()].index(i) for i in (rec0_id, rec1_id)]
        assert positions[0] < positions[1]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/todos/{record_id}")


def test_search_todos_without_match_returns_empty_list(base_url, session, unique):
    response = session.get(f"{base_url}/todos", params={"q": unique("nomatch")})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body == []
