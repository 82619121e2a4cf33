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
        assert body["title"] == payload["title"]
        assert body["priority"] == payload["priority"]
    finally:
        session.delete(f"{base_url}/api/v1/tasks/{task_id}")
