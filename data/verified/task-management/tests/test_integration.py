"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_task_lifecycle_create_read_update_delete(base_url, session, unique):
    payload = {"title": unique("sample_title"), "priority": "low"}
    response = session.post(f"{base_url}/api/v1/tasks", json=payload)
    assert 200 <= response.status_code < 300, response.text
    task = response.json()
    task_id = task["id"]
    try:
        fetched = session.get(f"{base_url}/api/v1/tasks/{task_id}")
        assert fetched.status_code == 200, fetched.text
        assert fetched.json()["id"] == task_id
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
        deleted = session.delete(f"{base_url}/api/v1/tasks/{task_id}")
        assert 200 <= deleted.status_code < 300, deleted.text
        gone = session.get(f"{base_url}/api/v1/tasks/{task_id}")
        assert gone.status_code == 404, gone.text
        assert {"error"} <= set(gone.json())
    finally:
        session.delete(f"{base_url}/api/v1/tasks/{task_id}")
