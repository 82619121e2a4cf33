"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_task_succeeds_with_record(base_url, session, unique):
    payload = {"title": unique("sample_title"), "priority": "low"}
    response = session.post(f"{base_url}/api/v1/tasks", json=payload)
    assert 200 <= response.status_code < 300, response.text
    task = response.json()
    task_id = task["id"]
    try:
        assert {
            "id", "title", "description", "priority", "status", "due_date", "created_at",
            "updated_at",
        } <= set(task)
        assert isinstance(task["id"], int)
        assert task["title"] == payload["title"]
        assert task["priority"] == payload["priority"]
    finally:
        session.delete(f"{base_url}/api/v1/tasks/{task_id}")


def test_get_task_returns_created_task(base_url, session, unique):
    payload = {"title": unique("sample_title"), "priority": "low"}
    response = session.post(f"{base_url}/api/v1/tasks", json=payload)
    assert 200 <= response.status_code < 300, response.text
    task = response.json()
    task_id = task["id"]
    try:
        fetched = session.get(f"{base_url}/api/v1/tasks/{task_id}")
        assert fetched.status_code == 200, fetched.text
        body = fetched.json()
        assert body["id"] == task_id
        assert {
            "id", "title", "description", "priority", "status", "due_date", "created_at",
            "updated_at",
        } <= set(body)
        assert isinstance(body["id"], int)
        assert body["title"] == payload["title"]
        assert body["priority"] == payload["priority"]
    finally:
        session.delete(f"{base_url}/api/v1/tasks/{task_id}")


def test_list_tasks_enum_filter_priority_lists_created_task_only_under_its_value(base_url, session, unique):
    created = []
    try:
        rec_payload = {"title": unique("sample_title"), "priority": "low"}
        rec_payload["priority"] = "low"
        rec_created = session.post(f"{base_url}/api/v1/tasks", json=rec_payload)
        assert 200 <= rec_created.status_code < 300, rec_created.text
        rec_id = rec_created.json()["id"]
        created.append(rec_id)
        matching = session.get(f"{base_url}/api/v1/tasks", params={"priority": "low", "limit": 100})
        assert matching.status_code == 200, matching.text
        matching_body = matching.json()
        assert rec_id in [record["id"] for record in matching_body["tasks"]]
        assert {record["priority"] for record in matching_body["tasks"]} == {"low"}
        others = session.get(f"{base_url}/api/v1/tasks", params={"priority": "medium", "limit": 100})
        assert others.status_code == 200, others.text
        others_body = others.json()
        assert rec_id not in [record["id"] for record in others_body["tasks"]]
        assert "low" not in {record["priority"] for record in others_body["tasks"]}
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/tasks/{record_id}")


def test_list_tasks_enum_filter_status_lists_created_task_only_under_its_value(base_url, session, unique):
    created = []
    try:
        rec_payload = {"title": unique("sample_title"), "priority": "low"}
        rec_created = session.post(f"{base_url}/api/v1/tasks", json=rec_payload)
        assert 200 <= rec_created.status_code < 300, rec_created.text
        rec_id = rec_created.json()["id"]
        created.append(rec_id)
        change = {"status": "completed"}
        changed = session.put(f"{base_url}/api/v1/tasks/{rec_id}", json=change)
        assert 200 <= changed.status_code < 300, changed.text
        matching = session.get(f"{base_url}/api/v1/tasks", params={"status": "completed", "limit": 100})
        assert matching.status_code == 200, matching.text
        matching_body = matching.json()
        assert rec_id in [record["id"] for record in matching_body["tasks"]]
        assert {record["status"] for record in matching_body["tasks"]} == {"completed"}
        others = session.get(f"{base_url}/api/v1/tasks", params={"status": "pending", "limit": 100})
        assert others.status_code == 200, others.text
        others_body = others.json()
        assert rec_id not in [record["id"] for record in others_body["tasks"]]
        assert "completed" not in {record["status"] for record in others_body["tasks"]}
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/tasks/{record_id}")


def test_put_task_applies_changes(base_url, session, unique):
    payload = {"title": unique("sample_title"), "priority": "low"}
    response = session.post(f"{base_url}/api/v1/tasks", json=payload)
    assert 200 <= response.status_code < 300, response.text
    task = response.json()
    task_id = task["id"]
    try:
        changes = {"title": unique("sample_title (updated)"), "priority": "low"}
        updated = session.put(f"{base_url}/api/v1/tasks/{task_id}", json=changes)
        assert 200 <= updated.status_code < 300, updated.text
        after = updated.json()
        assert after["title"] == changes["title"]
        assert after["priority"] == changes["priority"]
        reread = session.get(f"{base_url}/api/v1/tasks/{task_id}")
        assert reread.status_code == 200, reread.text
        stored = reread.json()
        assert stored["title"] == changes["title"]
        assert stored["priority"] == changes["priority"]
    finally:
        session.delete(f"{base_url}/api/v1/tasks/{task_id}")
