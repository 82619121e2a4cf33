"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_note_returns_201_with_record(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        assert {"id", "title", "content", "tags", "created_at", "updated_at"} <= set(note)
        assert isinstance(note["id"], int)
        assert isinstance(note["title"], str)
        assert isinstance(note["content"], str)
        assert isinstance(note["tags"], list)
        assert isinstance(note["created_at"], str)
        assert isinstance(note["updated_at"], (str, type(None)))
        assert note["title"] == payload["title"]
        assert note["content"] == payload["content"]
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_delete_note_returns_204(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        deleted = session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert deleted.status_code == 204, deleted.text
        assert deleted.content == b""
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_get_health_returns_200_with_documented_fields(base_url, session):
    response = session.get(f"{base_url}/health")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"status"} <= set(body)
    assert isinstance(body["status"], str)
    assert body["status"] == "ok"


def test_get_note_returns_created_note(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        fetched = session.get(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert fetched.status_code == 200, fetched.text
        body = fetched.json()
        assert body["id"] == note_id
        assert {"id", "title", "content", "tags", "created_at", "updated_at"} <= set(body)
        assert isinstance(body["id"], int)
        assert isinstance(body["title"], str)
        assert isinstance(body["content"], str)
        assert isinstance(body["tags"], list)
        assert isinstance(body["created_at"], str)
        assert isinstance(body["updated_at"], (str, type(None)))
        assert body["title"] == payload["title"]
        assert body["content"] == payload["content"]
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_get_notes_returns_200_with_documented_fields(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        response = session.get(f"{base_url}/notes", headers=auth_headers)
        assert response.status_code == 200, response.text
        body = response.json()
        assert {"items", "total"} <= set(body)
        assert isinstance(body["items"], list)
        assert isinstance(body["total"], int)
        assert len(body["items"]) >= 1
        assert body["total"] >= len(body["items"])
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_list_notes_filtered_by_tag_returns_only_matching_note(base_url, session, unique, auth_headers):
    created = []
    try:
        wanted = unique("reading")
        other = unique("reading")
        match_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        match_payload["tags"] = [wanted]
        match_created = session.post(f"{base_url}/notes", json=match_payload, headers=auth_headers)
        assert match_created.status_code == 201, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        other_payload["tags"] = [other]
        other_created = session.post(f"{base_url}/notes", json=other_payload, headers=auth_headers)
        assert other_created.status_code == 201, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        listed = session.get(f"{base_url}/notes", params={"tag": wanted}, headers=auth_headers)
        assert listed.status_code == 200, listed.text
        assert [record["id"] for record in listed.json()["items"]] == [match_id]
        upper = session.get(f"{base_url}/notes", params={"tag": wanted.upper()}, headers=auth_headers)
        assert upper.status_code == 200, upper.text
        assert [record["id"] for record in upper.json()["items"]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/notes/{record_id}", headers=auth_headers)


def test_put_note_applies_changes(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        changes = {
            "title": unique("读书清单 (updated)"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        updated = session.put(f"{base_url}/notes/{note_id}", json=changes, headers=auth_headers)
        assert updated.status_code == 200, updated.text
        after = updated.json()
        assert after["title"] == changes["title"]
        assert after["content"] == changes["content"]
        reread = session.get(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert reread.status_code == 200, reread.text
        stored = reread.json()
        assert stored["title"] == changes["title"]
        assert stored["content"] == changes["content"]
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_search_notes_by_q_finds_only_matching_note(base_url, session, unique, auth_headers):
    created = []
    try:
        marker = unique("读书清单")
        match_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        match_payload["title"] = marker
        match_created = session.post(f"{base_url}/notes", json=match_payload, headers=auth_headers)
        assert match_created.status_code == 201, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        other_created = session.post(f"{base_url}/notes", json=other_payload, headers=auth_headers)
        assert other_created.status_code == 201, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        found = session.get(f"{base_url}/notes", params={"q": marker[1:-1]}, headers=auth_headers)
        assert found.status_code == 200, found.text
        assert [record["id"] for record in found.json()["items"]] == [match_id]
        found_upper = session.get(f"{base_url}/notes", params={"q": marker[1:-1].upper()}, headers=auth_headers)
        assert found_upper.status_code == 200, found_upper.text
        assert [record["id"] for record in found_upper.json()["items"]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/notes/{record_id}", headers=auth_headers)
