"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_favorite_succeeds_with_record(base_url, session, auth_headers):
    payload = {"content_id": "sample_content_id", "content_type": "post"}
    response = session.post(f"{base_url}/api/v1/favorites", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    favorite = response.json()
    favorite_id = favorite["id"]
    try:
        assert {
            "id", "user_id", "content_id", "content_type", "category", "created_at",
            "updated_at",
        } <= set(favorite)
        assert favorite["content_id"] == payload["content_id"]
        assert favorite["content_type"] == payload["content_type"]
    finally:
        session.delete(f"{base_url}/api/v1/favorites/{favorite_id}", headers=auth_headers)


def test_create_history_succeeds_with_record(base_url, session, auth_headers):
    payload = {"action": "view"}
    response = session.post(f"{base_url}/api/v1/history", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    history = response.json()
    history_id = history["id"]
    try:
        assert {
            "id", "user_id", "action", "content_id", "content_type", "metadata",
            "session_id", "created_at", "ip_address", "user_agent",
        } <= set(history)
        assert isinstance(history["metadata"], dict)
        assert history["action"] == payload["action"]
    finally:
        session.delete(f"{base_url}/api/v1/history/{history_id}", headers=auth_headers)


def test_list_favorites_enum_filter_content_type_lists_created_favorite_only_under_its_value(base_url, session, unique, auth_headers):
    created = []
    try:
        rec_payload = {"content_id": "sample_content_id", "content_type": "post"}
        rec_payload["content_id"] = unique("sample_content_id")
        rec_payload["content_type"] = "post"
        rec_created = session.post(f"{base_url}/api/v1/favorites", json=rec_payload, headers=auth_headers)
        assert 200 <= rec_created.status_code < 300, rec_created.text
        rec_id = rec_created.json()["id"]
        created.append(rec_id)
        matching = session.get(f"{base_url}/api/v1/favorites", params={"content_type": "post", "limit": 100}, headers=auth_headers)
        assert matching.status_code == 200, matching.text
        matching_body = matching.json()
        assert rec_id in [record["id"] for record in matching_body["favorites"]]
        assert {record["content_type"] for record in matching_body["favorites"]} == {"post"}
        others = session.get(f"{base_url}/api/v1/favorites", params={"content_type": "article", "limit": 100}, headers=auth_headers)
        assert others.status_code == 200, others.text
        others_body = others.json()
        assert rec_id not in [record["id"] for record in others_body["favorites"]]
        assert "post" not in {record["content_type"] for record in others_body["favorites"]}
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/favorites/{record_id}", headers=auth_headers)


def test_list_history_enum_filter_action_lists_created_history_only_under_its_value(base_url, session, auth_headers):
    created = []
    try:
        rec_payload = {"action": "view"}
        rec_payload["action"] = "view"
        rec_created = session.post(f"{base_url}/api/v1/history", json=rec_payload, headers=auth_headers)
        assert 200 <= rec_created.status_code < 300, rec_created.text
        rec_id = rec_created.json()["id"]
        created.append(rec_id)
        matching = session.get(f"{base_url}/api/v1/history", params={"action": "view", "limit": 100}, headers=auth_headers)
        assert matching.status_code == 200, matching.text
        matching_body = matching.json()
        assert rec_id in [record["id"] for record in matching_body["history"]]
        assert {record["action"] for record in matching_body["history"]} == {"view"}
        others = session.get(f"{base_url}/api/v1/history", params={"action": "search", "limit": 100}, headers=auth_headers)
        assert others.status_code == 200, others.text
        others_body = others.json()
        assert rec_id not in [record["id"] for record in others_body["history"]]
        assert "view" not in {record["action"] for record in others_body["history"]}
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/history/{record_id}", headers=auth_headers)
