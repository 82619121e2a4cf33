"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_history_with_unlisted_action_is_refused_with_4xx(base_url, session, auth_headers):
    sent = {"action": "view"}
    sent["action"] = "not_" + "view" + "_at_all"
    count_before = session.get(f"{base_url}/api/v1/history", headers=auth_headers)
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/history", json=sent, headers=auth_headers)
    assert 400 <= response.status_code < 500, response.text
    count_after = session.get(f"{base_url}/api/v1/history", headers=auth_headers)
    assert count_after.status_code == 200, count_after.text
    assert count_after.json()["pagination"]["total"] == count_before.json()["pagination"]["total"]


def test_delete_history_without_token(base_url, session, auth_headers):
    """Called without credentials, it is refused and changes nothing."""
    created = session.post(f"{base_url}/api/v1/history", json={'action': 'view'}, headers=auth_headers)
    assert created.status_code in (200, 201), created.text
    listed_before = session.get(f"{base_url}/api/v1/history", headers=auth_headers)
    assert listed_before.status_code == 200, listed_before.text
    response = session.delete(f"{base_url}/api/v1/history")
    assert response.status_code in (400, 401, 403), response.text
    listed_after = session.get(f"{base_url}/api/v1/history", headers=auth_headers)
    assert listed_after.status_code == 200, listed_after.text
    assert listed_after.json() == listed_before.json()


def test_get_favorites_without_token_is_refused(base_url, session, auth_headers):
    payload = {"content_id": "sample_content_id", "content_type": "post"}
    response = session.post(f"{base_url}/api/v1/favorites", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    favorite = response.json()
    favorite_id = favorite["id"]
    try:
        response = session.get(f"{base_url}/api/v1/favorites")
        assert response.status_code in (401, 403), response.text
        assert payload["content_id"] not in response.text
        assert ascii(payload["content_id"])[1:-1] not in response.text
    finally:
        session.delete(f"{base_url}/api/v1/favorites/{favorite_id}", headers=auth_headers)


def test_get_history_without_token_is_refused(base_url, session, auth_headers):
    payload = {"action": "view"}
    response = session.post(f"{base_url}/api/v1/history", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    history = response.json()
    history_id = history["id"]
    try:
        response = session.get(f"{base_url}/api/v1/history")
        assert response.status_code in (401, 403), response.text
        assert payload["action"] not in response.text
        assert ascii(payload["action"])[1:-1] not in response.text
    finally:
        session.delete(f"{base_url}/api/v1/history/{history_id}", headers=auth_headers)


def test_post_favorites_without_token(base_url, session, unique, auth_headers):
    """Called without credentials, it is refused and changes nothing."""
    listed_before = session.get(f"{base_url}/api/v1/favorites", headers=auth_headers)
    assert listed_before.status_code == 200, listed_before.text
    sent = {'content_id': unique('sample_content_id'), 'content_type': 'post'}
    response = session.post(f"{base_url}/api/v1/favorites", json=sent)
    assert response.status_code in (400, 401, 403), response.text
    listed_after = session.get(f"{base_url}/api/v1/favorites", headers=auth_headers)
    assert listed_after.json() == listed_before.json()
    control = session.post(f"{base_url}/api/v1/favorites", json=sent, headers=auth_headers)
    assert control.status_code in (200, 201), control.text
    assert control.json()['content_id'] == sent['content_id'], control.text
    assert control.json()['content_type'] == sent['content_type'], control.text


def test_post_history_without_token(base_url, session, auth_headers):
    """Called without credentials, it is refused and changes nothing."""
    listed_before = session.get(f"{base_url}/api/v1/history", headers=auth_headers)
    assert listed_before.status_code == 200, listed_before.text
    sent = {'action': 'view'}
    response = session.post(f"{base_url}/api/v1/history", json=sent)
    assert response.status_code in (400, 401, 403), response.text
    listed_after = session.get(f"{base_url}/api/v1/history", headers=auth_headers)
    assert listed_after.json() == listed_before.json()
    control = session.post(f"{base_url}/api/v1/history", json=sent, headers=auth_headers)
    assert control.status_code in (200, 201), control.text
    assert control.json()['action'] == sent['action'], control.text


def test_post_likes_without_token(base_url, session, unique, auth_headers):
    """Called without credentials, it is refused and changes nothing."""
    sent = {'content_id': unique('sample_content_id'), 'content_type': 'post', 'action': 'like'}
    response = session.post(f"{base_url}/api/v1/likes", json=sent)
    assert response.status_code in (400, 401, 403), response.text
    control = session.post(f"{base_url}/api/v1/likes", json=sent, headers=auth_headers)
    assert control.status_code in (200, 201), control.text
    assert control.json()['content_id'] == sent['content_id'], control.text
    assert control.json()['content_type'] == sent['content_type'], control.text
    assert control.json()['action'] == sent['action'], control.text
