"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_task_with_empty_body_returns_422(base_url, session):
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json={})
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_create_task_with_title_over_200_chars_returns_422(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    sent["title"] = "x" * 201
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_create_task_with_unlisted_priority_returns_422(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    sent["priority"] = unique("unlisted")
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_create_task_without_priority_returns_422(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    del sent["priority"]
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_create_task_without_title_returns_422(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    del sent["title"]
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_delete_task_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    unknown_task_id = 999999999
    response = session.delete(f"{base_url}/api/v1/tasks/{unknown_task_id}")
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_put_task_unknown_id_returns_404(base_url, session, unique):
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    unknown_task_id = 999999999
    payload = {"title": unique("sample_title"), "priority": "low"}
    response = session.put(f"{base_url}/api/v1/tasks/{unknown_task_id}", json=payload)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]
