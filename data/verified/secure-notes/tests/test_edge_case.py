"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_delete_note_twice_returns_404(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        first = session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert first.status_code == 204, first.text
        second = session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert second.status_code == 404, second.text
        assert {"code", "message"} <= set(second.json())
        assert second.json()["code"] == "NOTE_NOT_FOUND", second.text
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_get_note_unknown_id_returns_404(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        known = session.get(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert known.status_code == 200, known.text
        assert known.json()["id"] == note_id
        unknown_note_id = 999999999
        response = session.get(f"{base_url}/notes/{unknown_note_id}", allow_redirects=False, headers=auth_headers)
        assert response.status_code == 404, response.text
        assert {"code", "message"} <= set(response.json())
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_search_notes_without_match_returns_empty_list(base_url, session, unique, auth_headers):
    response = session.get(f"{base_url}/notes", params={"q": unique("nomatch")}, headers=auth_headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["items"] == []
    assert body["total"] == 0
