"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_note_with_empty_body_returns_422(base_url, session, auth_headers):
    count_before = session.get(f"{base_url}/notes", headers=auth_headers)
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/notes", json={}, headers=auth_headers)
    assert response.status_code == 422, response.text
    assert {"code", "message"} <= set(response.json())
    count_after = session.get(f"{base_url}/notes", headers=auth_headers)
    assert count_after.json()["total"] == count_before.json()["total"]


def test_delete_note_unknown_id_returns_404(base_url, session, auth_headers):
    count_before = session.get(f"{base_url}/notes", headers=auth_headers)
    assert count_before.status_code == 200, count_before.text
    unknown_note_id = 999999999
    response = session.delete(f"{base_url}/notes/{unknown_note_id}", headers=auth_headers)
    assert response.status_code == 404, response.text
    assert {"code", "message"} <= set(response.json())
    assert response.json()["code"] == "NOTE_NOT_FOUND", response.text
    count_after = session.get(f"{base_url}/notes", headers=auth_headers)
    assert count_after.json()["total"] == count_before.json()["total"]


def test_delete_notes_item_without_token(base_url, session, unique, auth_headers):
    """Called without credentials, it is refused and changes nothing."""
    created = session.post(f"{base_url}/notes", json={'title': unique('读书清单'), 'content': '《三体》《活着》', 'tags': ['Reading', 'books']}, headers=auth_headers)
    assert created.status_code == 201, created.text
    record = created.json()
    if isinstance(record, dict) and isinstance(record.get("data"), dict):
        record = record["data"]
    note_id = next(record[k] for k in ('note_id', 'id') if k in record)
    response = session.delete(f"{base_url}/notes/{note_id}")
    assert response.status_code == 401, response.text
    control = session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)
    assert control.status_code == 204, control.text


def test_get_notes_with_unknown_token_returns_401(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    headers = None
    try:
        headers = {"Authorization": "Bearer " + unique("notatoken12345")}
        response = session.get(f"{base_url}/notes", headers=headers)
        assert response.status_code == 401, response.text
        assert {"code", "message"} <= set(response.json())
        assert payload["title"] not in response.text
        assert ascii(payload["title"])[1:-1] not in response.text
    finally:
        if headers is not None:
            session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_get_notes_without_token_returns_401(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        response = session.get(f"{base_url}/notes")
        assert response.status_code == 401, response.text
        assert {"code", "message"} <= set(response.json())
        assert payload["title"] not in response.text
        assert ascii(payload["title"])[1:-1] not in response.text
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_login_with_a_wrong_password_is_refused(base_url, session, unique):
    credentials = {"username": unique("zhang_san"), "password": "s3cret-pass"}
    registered = session.post(f"{base_url}/auth/register", json=credentials)
    assert 200 <= registered.status_code < 300, registered.text
    assert credentials["password"] not in registered.text, registered.text
    login = session.post(f"{base_url}/auth/login", json={"username": credentials["username"], "password": credentials["password"]})
    assert login.status_code == 200, login.text
    token = login.json()["access_token"]
    assert isinstance(token, str) and token
    headers = {"Authorization": f"Bearer {token}"}
    refused = session.post(f"{base_url}/auth/login", json={"username": credentials["username"], "password": credentials["password"] + "-wrong"})
    assert refused.status_code == 401, refused.text
    assert "access_token" not in refused.text


def test_post_auth_login_malformed_json(base_url, session, unique):
    """A body that is not JSON is rejected with a 4xx; the same call with the documented body is accepted, and the token its account gets opens a protected endpoint."""
    response = session.post(f"{base_url}/auth/login", data='{not json', headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text
    refused = session.get(f"{base_url}/users/me")
    assert refused.status_code in (400, 401, 403), refused.text
    # the same call with a valid body is accepted: the account's token opens it
    account = {'username': unique('zhang_san'), 'password': 's3cret-pass'}
    registered = session.post(f"{base_url}/auth/register", json=account)
    assert registered.status_code == 201, registered.text
    credentials = {k: account[k] for k in ['username', 'password']}
    logged_in = session.post(f"{base_url}/auth/login", json=credentials)
    assert logged_in.status_code in (200, 201), logged_in.text
    token = logged_in.json()['access_token']
    allowed = session.get(f"{base_url}/users/me", headers={"Authorization": f"Bearer {token}"})
    assert allowed.status_code == 200, allowed.text


def test_post_auth_register_malformed_json(base_url, session, unique):
    """A body that is not JSON is rejected with a 4xx; the same call with the documented body is accepted, and the token its account gets opens a protected endpoint."""
    response = session.post(f"{base_url}/auth/register", data='{not json', headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text
    refused = session.get(f"{base_url}/users/me")
    assert refused.status_code in (400, 401, 403), refused.text
    # the same call with a valid body is accepted: the account's token opens it
    account = {'username': unique('zhang_san'), 'password': 's3cret-pass'}
    registered = session.post(f"{base_url}/auth/register", json=account)
    assert registered.status_code == 201, registered.text
    credentials = {k: account[k] for k in ['username', 'password']}
    logged_in = session.post(f"{base_url}/auth/login", json=credentials)
    assert logged_in.status_code in (200, 201), logged_in.text
    token = logged_in.json()['access_token']
    allowed = session.get(f"{base_url}/users/me", headers={"Authorization": f"Bearer {token}"})
    assert allowed.status_code == 200, allowed.text


def test_post_notes_without_token_returns_401(base_url, session, unique, auth_headers):
    count_before = session.get(f"{base_url}/notes", headers=auth_headers)
    assert count_before.status_code == 200, count_before.text
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload)
    assert response.status_code == 401, response.text
    assert {"code", "message"} <= set(response.json())
    count_after = session.get(f"{base_url}/notes", headers=auth_headers)
    assert count_after.json()["total"] == count_before.json()["total"]


def test_put_note_unknown_id_returns_404(base_url, session, unique, auth_headers):
    count_before = session.get(f"{base_url}/notes", headers=auth_headers)
    assert count_before.status_code == 200, count_before.text
    unknown_note_id = 999999999
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.put(f"{base_url}/notes/{unknown_note_id}", json=payload, headers=auth_headers)
    assert response.status_code == 404, response.text
    assert {"code", "message"} <= set(response.json())
    assert response.json()["code"] == "NOTE_NOT_FOUND", response.text
    count_after = session.get(f"{base_url}/notes", headers=auth_headers)
    assert count_after.json()["total"] == count_before.json()["total"]
