"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


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
