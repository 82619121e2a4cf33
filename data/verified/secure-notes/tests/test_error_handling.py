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
    try:
        headers = {"Authorization": "Bearer " + unique("notatoken12345")}
        response = session.get(f"{base_url}/notes", headers=headers)
        assert response.status_code == 401, response.text
        assert {"code", "message"} <= set(response.json())
        assert payload["title"] not in response.text
        assert ascii(payload["title"])[1:-1] not in response.text
    finally:
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
