"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_delete_task_twice_returns_404(base_url, session, unique):
    payload = {"title": unique("sample_title"), "priority": "low"}
    response = session.post(f"{base_url}/api/v1/tasks", json=payload)
    assert 200 <= response.status_code < 300, response.text
    task = response.json()
    task_id = task["id"]
    try:
        first = session.delete(f"{base_url}/api/v1/tasks/{task_id}")
        assert 200 <= first.status_code < 300, first.text
        second = session.delete(f"{base_url}/api/v1/tasks/{task_id}")
        assert second.status_code == 404, second.text
        assert {"error"} <= set(second.json())
    finally:
        session.delete(f"{base_url}/api/v1/tasks/{task_id}")


def test_get_task_unknown_id_returns_404(base_url, session, unique):
    payload = {"title": unique("sample_title"), "priority": "low"}
    response = session.post(f"{base_url}/api/v1/tasks", json=payload)
    assert 200 <= response.status_code < 300, response.text
    task = response.json()
    task_id = task["id"]
    try:
        known = session.get(f"{base_url}/api/v1/tasks/{task_id}")
        assert known.status_code == 200, known.text
        assert known.json()["id"] == task_id
        unknown_task_id = 999999999
        response = session.get(f"{base_url}/api/v1/tasks/{unknown_task_id}", allow_redirects=False)
        assert response.status_code == 404, response.text
        assert {"error"} <= set(response.json())
    finally:
        session.delete(f"{base_url}/api/v1/tasks/{task_id}")


def test_list_tasks_default_limit_is_10(base_url, session, unique):
    created = []
    try:
        codes = []
        for _ in range(11):
            rec_payload = {"title": unique("sample_title"), "priority": "low"}
            rec_created = session.post(f"{base_url}/api/v1/tasks", json=rec_payload)
            rec_id = rec_created.json()["id"]
            created.append(rec_id)
            codes.append(rec_created.status_code)
        assert len(codes) == 11
        assert all(200 <= code < 300 for code in codes), codes
        listed = session.get(f"{base_url}/api/v1/tasks", params={})
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert len(listed_body["tasks"]) == 10
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/tasks/{record_id}")


def test_list_tasks_limit_and_page_split_the_list(base_url, session, unique):
    created = []
    try:
        rec0_payload = {"title": unique("sample_title"), "priority": "low"}
        rec0_created = session.post(f"{base_url}/api/v1/tasks", json=rec0_payload)
        assert 200 <= rec0_created.status_code < 300, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {"title": unique("sample_title"), "priority": "low"}
        rec1_created = session.post(f"{base_url}/api/v1/tasks", json=rec1_payload)
        assert 200 <= rec1_created.status_code < 300, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        first = session.get(f"{base_url}/api/v1/tasks", params={"limit": 1, "page": 1})
        assert first.status_code == 200, first.text
        first_body = first.json()
        second = session.get(f"{base_url}/api/v1/tasks", params={"limit": 1, "page": 2})
        assert second.status_code == 200, second.text
        second_body = second.json()
        unpaged = session.get(f"{base_url}/api/v1/tasks", params={"limit": 1})
        assert unpaged.status_code == 200, unpaged.text
        unpaged_body = unpaged.json()
        assert len(first_body["tasks"]) == 1 and len(second_body["tasks"]) == 1
        assert [record["id"] for record in first_body["tasks"]] != [record["id"] for record in second_body["tasks"]]
        assert [record["id"] for record in unpaged_body["tasks"]] == [record["id"] for record in first_body["tasks"]]
        assert first_body["pagination"]["total"] >= 2
        over = session.get(f"{base_url}/api/v1/tasks", params={"limit": 101})
        assert over.status_code < 500, over.text
        if over.status_code < 300:
            assert len(over.json()["tasks"]) <= 100
        else:
            assert 400 <= over.status_code < 500, over.text
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/tasks/{record_id}")
