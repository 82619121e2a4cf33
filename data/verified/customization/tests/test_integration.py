"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_deleted_favorite_leaves_the_favorites_list(base_url, session, unique, auth_headers):
    created = []
    try:
        gone_payload = {"content_id": "sample_content_id", "content_type": "post"}
        gone_payload["content_id"] = unique("sample_content_id")
        gone_created = session.post(f"{base_url}/api/v1/favorites", json=gone_payload, headers=auth_headers)
        assert 200 <= gone_created.status_code < 300, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {"content_id": "sample_content_id", "content_type": "post"}
        kept_payload["content_id"] = unique("sample_content_id")
        kept_created = session.post(f"{base_url}/api/v1/favorites", json=kept_payload, headers=auth_headers)
        assert 200 <= kept_created.status_code < 300, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/api/v1/favorites", params={"limit": 100}, headers=auth_headers)
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in before_body["favorites"]] and kept_id in [record["id"] for record in before_body["favorites"]]
        removed = session.delete(f"{base_url}/api/v1/favorites/{gone_id}", headers=auth_headers)
        assert 200 <= removed.status_code < 300, removed.text
        after = session.get(f"{base_url}/api/v1/favorites", params={"limit": 100}, headers=auth_headers)
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in after_body["favorites"]]
        assert kept_id in [record["id"] for record in after_body["favorites"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/favorites/{record_id}", headers=auth_headers)


def test_deleted_history_leaves_the_history_list(base_url, session, auth_headers):
    created = []
    try:
        gone_payload = {"action": "view"}
        gone_created = session.post(f"{base_url}/api/v1/history", json=gone_payload, headers=auth_headers)
        assert 200 <= gone_created.status_code < 300, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {"action": "view"}
        kept_created = session.post(f"{base_url}/api/v1/history", json=kept_payload, headers=auth_headers)
        assert 200 <= kept_created.status_code < 300, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/api/v1/history", params={"limit": 100}, headers=auth_headers)
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in before_body["history"]] and kept_id in [record["id"] for record in before_body["history"]]
        removed = session.delete(f"{base_url}/api/v1/history/{gone_id}", headers=auth_headers)
        assert 200 <= removed.status_code < 300, removed.text
        after = session.get(f"{base_url}/api/v1/history", params={"limit": 100}, headers=auth_headers)
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in after_body["history"]]
        assert kept_id in [record["id"] for record in after_body["history"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/history/{record_id}", headers=auth_headers)
