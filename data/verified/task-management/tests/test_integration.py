"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_deleted_task_leaves_the_tasks_list(base_url, session, unique):
    created = []
    try:
        gone_payload = {"title": unique("sample_title"), "priority": "low"}
        gone_created = session.post(f"{base_url}/api/v1/tasks", json=gone_payload)
        assert 200 <= gone_created.status_code < 300, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {"title": unique("sample_title"), "priority": "low"}
        kept_created = session.post(f"{base_url}/api/v1/tasks", json=kept_payload)
        assert 200 <= kept_created.status_code < 300, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/api/v1/tasks", params={"limit": 100})
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in before_body["tasks"]] and kept_id in [record["id"] for record in before_body["tasks"]]
        removed = session.delete(f"{base_url}/api/v1/tasks/{gone_id}")
        assert 200 <= removed.status_code < 300, removed.text
        after = session.get(f"{base_url}/api/v1/tasks", params={"limit": 100})
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in after_body["tasks"]]
        assert kept_id in [record["id"] for record in after_body["tasks"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/tasks/{record_id}")


def test_task_ids_are_not_reused_after_a_delete(base_url, session, unique):
    created = []
    try:
        gone_payload = {"title": unique("sample_title"), "priority": "low"}
        gone_created = session.post(f"{base_url}/api/v1/tasks", json=gone_payload)
        assert 200 <= gone_created.status_code < 300, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {"title": unique("sample_title"), "priority": "low"}
        kept_created = session.post(f"{base_url}/api/v1/tasks", json=kept_payload)
        assert 200 <= kept_created.status_code < 300, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        removed = session.delete(f"{base_url}/api/v1/tasks/{gone_id}")
        assert 200 <= removed.status_code < 300, removed.text
        third_payload = {"title": unique("sample_title"), "priority": "low"}
        third_created = session.post(f"{base_url}/api/v1/tasks", json=third_payload)
        assert 200 <= third_created.status_code < 300, third_created.text
        third_id = third_created.json()["id"]
        created.append(third_id)
        assert third_id != kept_id
        kept_read = session.get(f"{base_url}/api/v1/tasks/{kept_id}")
        assert kept_read.status_code == 200, kept_read.text
        kept_body = kept_read.json()
        assert kept_body["title"] == kept_payload["title"]
        assert kept_body["priority"] == kept_payload["priority"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/tasks/{record_id}")


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


def test_two_tasks_read_back_each_as_itself(base_url, session, unique):
    created = []
    try:
        first_payload = {"title": unique("sample_title"), "priority": "low"}
        first_created = session.post(f"{base_url}/api/v1/tasks", json=first_payload)
        assert 200 <= first_created.status_code < 300, first_created.text
        first_id = first_created.json()["id"]
        created.append(first_id)
        second_payload = {"title": unique("sample_title"), "priority": "low"}
        second_created = session.post(f"{base_url}/api/v1/tasks", json=second_payload)
        assert 200 <= second_created.status_code < 300, second_created.text
        second_id = second_created.json()["id"]
        created.append(second_id)
        first_read = session.get(f"{base_url}/api/v1/tasks/{first_id}")
        assert first_read.status_code == 200, first_read.text
        first_read_body = first_read.json()
        assert first_read_body["id"] == first_id
        assert first_read_body["title"] == first_payload["title"]
        assert first_read_body["priority"] == first_payload["priority"]
        second_read = session.get(f"{base_url}/api/v1/tasks/{second_id}")
        assert second_read.status_code == 200, second_read.text
        second_read_body = second_read.json()
        assert second_read_body["id"] == second_id
        assert second_read_body["title"] == second_payload["title"]
        assert second_read_body["priority"] == second_payload["priority"]
        changes = {"title": unique("sample_title (updated)"), "priority": "low"}
        updated = session.put(f"{base_url}/api/v1/tasks/{second_id}", json=changes)
        assert 200 <= updated.status_code < 300, updated.text
        first_again = session.get(f"{base_url}/api/v1/tasks/{first_id}")
        assert first_again.status_code == 200, first_again.text
        first_again_body = first_again.json()
        assert first_again_body["id"] == first_id
        second_again = session.get(f"{base_url}/api/v1/tasks/{second_id}")
        assert second_again.status_code == 200, second_again.text
        second_again_body = second_again.json()
        assert second_again_body["id"] == second_id
        assert first_again_body["title"] == first_payload["title"]
        assert first_again_body["priority"] == first_payload["priority"]
        assert second_again_body["title"] == changes["title"]
        assert second_again_body["priority"] == changes["priority"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/tasks/{record_id}")
