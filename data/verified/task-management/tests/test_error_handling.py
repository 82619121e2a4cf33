"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_task_with_description_over_1000_chars_is_refused_with_4xx(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    sent["description"] = "x" * 1001
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert 400 <= response.status_code < 500, response.text
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.status_code == 200, count_after.text
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_create_task_with_title_over_200_chars_is_refused_with_4xx(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    sent["title"] = "x" * 201
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert 400 <= response.status_code < 500, response.text
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.status_code == 200, count_after.text
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_create_task_with_unlisted_priority_is_refused_with_4xx(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    sent["priority"] = "not_" + "low" + "_at_all"
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert 400 <= response.status_code < 500, response.text
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.status_code == 200, count_after.text
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_create_task_without_priority_is_refused_with_4xx(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    del sent["priority"]
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert 400 <= response.status_code < 500, response.text
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.status_code == 200, count_after.text
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_create_task_without_title_is_refused_with_4xx(base_url, session, unique):
    sent = {"title": unique("sample_title"), "priority": "low"}
    del sent["title"]
    count_before = session.get(f"{base_url}/api/v1/tasks")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/tasks", json=sent)
    assert 400 <= response.status_code < 500, response.text
    count_after = session.get(f"{base_url}/api/v1/tasks")
    assert count_after.status_code == 200, count_after.text
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]
