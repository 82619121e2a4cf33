"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_deleted_short_link_leaves_the_short_links_list(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        gone_created = session.post(f"{base_url}/short-links", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["code"]
        created.append(gone_id)
        kept_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        kept_created = session.post(f"{base_url}/short-links", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["code"]
        created.append(kept_id)
        before = session.get(f"{base_url}/short-links", params={"limit": 100})
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["code"] for record in before_body["items"]] and kept_id in [record["code"] for record in before_body["items"]]
        removed = session.delete(f"{base_url}/short-links/{gone_id}")
        assert removed.status_code == 204, removed.text
        after = session.get(f"{base_url}/short-links", params={"limit": 100})
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["code"] for record in after_body["items"]]
        assert kept_id in [record["code"] for record in after_body["items"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/short-links/{record_id}")


def test_list_short_links_grows_by_one_after_create(base_url, session, unique):
    created = []
    try:
        before = session.get(f"{base_url}/short-links")
        assert before.status_code == 200, before.text
        new_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        new_created = session.post(f"{base_url}/short-links", json=new_payload)
        assert new_created.status_code == 201, new_created.text
        new_id = new_created.json()["code"]
        created.append(new_id)
        after = session.get(f"{base_url}/short-links")
        assert after.status_code == 200, after.text
        assert after.json()["total"] == before.json()["total"] + 1
    finally:
        for record_id in created:
            session.delete(f"{base_url}/short-links/{record_id}")


def test_short_link_ids_are_not_reused_after_a_delete(base_url, session, unique):
    created = []
    try:
        gone_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        gone_created = session.post(f"{base_url}/short-links", json=gone_payload)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["code"]
        created.append(gone_id)
        kept_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        kept_created = session.post(f"{base_url}/short-links", json=kept_payload)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["code"]
        created.append(kept_id)
        removed = session.delete(f"{base_url}/short-links/{gone_id}")
        assert removed.status_code == 204, removed.text
        third_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        third_created = session.post(f"{base_url}/short-links", json=third_payload)
        assert third_created.status_code == 201, third_created.text
        third_id = third_created.json()["code"]
        created.append(third_id)
        assert third_id != kept_id
        kept_read = session.get(f"{base_url}/short-links/{kept_id}")
        assert kept_read.status_code == 200, kept_read.text
        kept_body = kept_read.json()
        assert kept_body["url"] == kept_payload["url"]
        assert kept_body["code"] == kept_payload["code"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/short-links/{record_id}")


def test_short_link_lifecycle_create_read_update_delete(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        fetched = session.get(f"{base_url}/short-links/{short_link_code}")
        assert fetched.status_code == 200, fetched.text
        assert fetched.json()["code"] == short_link_code
        changes = {"url": unique("https://example.com/a/very/long/path/updated")}
        updated = session.patch(f"{base_url}/short-links/{short_link_code}", json=changes)
        assert updated.status_code == 200, updated.text
        after = updated.json()
        assert after["url"] == changes["url"]
        reread = session.get(f"{base_url}/short-links/{short_link_code}")
        assert reread.status_code == 200, reread.text
        stored = reread.json()
        assert stored["url"] == changes["url"]
        assert stored["code"] == payload["code"]
        deleted = session.delete(f"{base_url}/short-links/{short_link_code}")
        assert deleted.status_code == 204, deleted.text
        gone = session.get(f"{base_url}/short-links/{short_link_code}")
        assert gone.status_code == 404, gone.text
        assert {"error"} <= set(gone.json())
        assert gone.json()["error"]["code"] == "not_found", gone.text
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_two_short_links_read_back_each_as_itself(base_url, session, unique):
    created = []
    try:
        first_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        first_created = session.post(f"{base_url}/short-links", json=first_payload)
        assert first_created.status_code == 201, first_created.text
        first_id = first_created.json()["code"]
        created.append(first_id)
        second_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        second_created = session.post(f"{base_url}/short-links", json=second_payload)
        assert second_created.status_code == 201, second_created.text
        second_id = second_created.json()["code"]
        created.append(second_id)
        first_read = session.get(f"{base_url}/short-links/{first_id}")
        assert first_read.status_code == 200, first_read.text
        first_read_body = first_read.json()
        assert first_read_body["code"] == first_id
        assert first_read_body["url"] == first_payload["url"]
        assert first_read_body["code"] == first_payload["code"]
        second_read = session.get(f"{base_url}/short-links/{second_id}")
        assert second_read.status_code == 200, second_read.text
        second_read_body = second_read.json()
        assert second_read_body["code"] == second_id
        assert second_read_body["url"] == second_payload["url"]
        assert second_read_body["code"] == second_payload["code"]
        changes = {"url": unique("https://example.com/a/very/long/path/updated")}
        updated = session.patch(f"{base_url}/short-links/{second_id}", json=changes)
        assert updated.status_code == 200, updated.text
        first_again = session.get(f"{base_url}/short-links/{first_id}")
        assert first_again.status_code == 200, first_again.text
        first_again_body = first_again.json()
        assert first_again_body["code"] == first_id
        second_again = session.get(f"{base_url}/short-links/{second_id}")
        assert second_again.status_code == 200, second_again.text
        second_again_body = second_again.json()
        assert second_again_body["code"] == second_id
        assert first_again_body["url"] == first_payload["url"]
        assert first_again_body["code"] == first_payload["code"]
        assert second_again_body["url"] == changes["url"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/short-links/{record_id}")
