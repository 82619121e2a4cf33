"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_created_note_appears_in_list(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        listed = session.get(f"{base_url}/notes", params={"q": payload["title"]}, headers=auth_headers)
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert note_id in [record["id"] for record in listed_body["items"]]
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_deleted_note_leaves_the_notes_list(base_url, session, unique, auth_headers):
    created = []
    try:
        gone_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        gone_created = session.post(f"{base_url}/notes", json=gone_payload, headers=auth_headers)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        kept_created = session.post(f"{base_url}/notes", json=kept_payload, headers=auth_headers)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        before = session.get(f"{base_url}/notes", params={}, headers=auth_headers)
        assert before.status_code == 200, before.text
        before_body = before.json()
        assert gone_id in [record["id"] for record in before_body["items"]] and kept_id in [record["id"] for record in before_body["items"]]
        removed = session.delete(f"{base_url}/notes/{gone_id}", headers=auth_headers)
        assert removed.status_code == 204, removed.text
        after = session.get(f"{base_url}/notes", params={}, headers=auth_headers)
        assert after.status_code == 200, after.text
        after_body = after.json()
        assert gone_id not in [record["id"] for record in after_body["items"]]
        assert kept_id in [record["id"] for record in after_body["items"]]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/notes/{record_id}", headers=auth_headers)


def test_list_notes_grows_by_one_after_create(base_url, session, unique, auth_headers):
    created = []
    try:
        before = session.get(f"{base_url}/notes", headers=auth_headers)
        assert before.status_code == 200, before.text
        marker = unique("reading")
        new_payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
        new_payload["tags"] = [marker]
        new_created = session.post(f"{base_url}/notes", json=new_payload, headers=auth_headers)
        assert new_created.status_code == 201, new_created.text
        new_id = new_created.json()["id"]
        created.append(new_id)
        after = session.get(f"{base_url}/notes", headers=auth_headers)
        assert after.status_code == 200, after.text
        assert after.json()["total"] == before.json()["total"] + 1
        found = session.get(f"{base_url}/notes", params={"tag": marker}, headers=auth_headers)
        assert found.status_code == 200, found.text
        assert [record["id"] for record in found.json()["items"]] == [new_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/notes/{record_id}", headers=auth_headers)


def test_note_ids_are_not_reused_after_a_delete(base_url, session, unique, auth_headers):
    created = []
    try:
        gone_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        gone_created = session.post(f"{base_url}/notes", json=gone_payload, headers=auth_headers)
        assert gone_created.status_code == 201, gone_created.text
        gone_id = gone_created.json()["id"]
        created.append(gone_id)
        kept_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        kept_created = session.post(f"{base_url}/notes", json=kept_payload, headers=auth_headers)
        assert kept_created.status_code == 201, kept_created.text
        kept_id = kept_created.json()["id"]
        created.append(kept_id)
        removed = session.delete(f"{base_url}/notes/{gone_id}", headers=auth_headers)
        assert removed.status_code == 204, removed.text
        third_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        third_created = session.post(f"{base_url}/notes", json=third_payload, headers=auth_headers)
        assert third_created.status_code == 201, third_created.text
        third_id = third_created.json()["id"]
        created.append(third_id)
        assert third_id != kept_id
        kept_read = session.get(f"{base_url}/notes/{kept_id}", headers=auth_headers)
        assert kept_read.status_code == 200, kept_read.text
        kept_body = kept_read.json()
        assert kept_body["title"] == kept_payload["title"]
        assert kept_body["content"] == kept_payload["content"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/notes/{record_id}", headers=auth_headers)


def test_note_lifecycle_create_read_update_delete(base_url, session, unique, auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        fetched = session.get(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert fetched.status_code == 200, fetched.text
        assert fetched.json()["id"] == note_id
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
        deleted = session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert deleted.status_code == 204, deleted.text
        gone = session.get(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert gone.status_code == 404, gone.text
        assert {"code", "message"} <= set(gone.json())
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_other_user_cannot_change_or_delete_note(base_url, session, unique, auth_headers, other_auth_headers):
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
        changed = session.put(f"{base_url}/notes/{note_id}", json=changes, headers=other_auth_headers)
        assert changed.status_code == 404, changed.text
        refused = session.delete(f"{base_url}/notes/{note_id}", headers=other_auth_headers)
        assert refused.status_code == 404, refused.text
        assert {"code", "message"} <= set(refused.json())
        assert refused.json()["code"] == "NOTE_NOT_FOUND", refused.text
        still = session.get(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert still.status_code == 200, still.text
        assert still.json()["id"] == note_id
        assert still.json()["title"] == payload["title"]
        assert still.json()["content"] == payload["content"]
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_other_user_cannot_read_note(base_url, session, unique, auth_headers, other_auth_headers):
    payload = {"title": unique("读书清单"), "content": "《三体》《活着》", "tags": ["Reading", "books"]}
    response = session.post(f"{base_url}/notes", json=payload, headers=auth_headers)
    assert response.status_code == 201, response.text
    note = response.json()
    note_id = note["id"]
    try:
        response = session.get(f"{base_url}/notes/{note_id}", headers=other_auth_headers)
        assert response.status_code == 404, response.text
        assert {"code", "message"} <= set(response.json())
        mine = session.get(f"{base_url}/notes/{note_id}", headers=auth_headers)
        assert mine.status_code == 200, mine.text
        kept = mine.json()
        assert kept["title"] == payload["title"]
        assert kept["content"] == payload["content"]
    finally:
        session.delete(f"{base_url}/notes/{note_id}", headers=auth_headers)


def test_register_login_use_token_then_logout_revokes_it(base_url, session, unique):
    credentials = {"username": unique("zhang_san"), "password": "s3cret-pass"}
    registered = session.post(f"{base_url}/auth/register", json=credentials)
    assert 200 <= registered.status_code < 300, registered.text
    assert credentials["password"] not in registered.text, registered.text
    login = session.post(f"{base_url}/auth/login", json={"username": credentials["username"], "password": credentials["password"]})
    assert login.status_code == 200, login.text
    token = login.json()["access_token"]
    assert isinstance(token, str) and token
    headers = {"Authorization": f"Bearer {token}"}
    me = session.get(f"{base_url}/users/me", headers=headers)
    assert me.status_code == 200, me.text
    assert me.json()["username"] == credentials["username"]
    out = session.post(f"{base_url}/auth/logout", headers=headers)
    assert out.status_code == 204, out.text
    again = session.post(f"{base_url}/auth/logout", headers=headers)
    assert again.status_code == 401, again.text
    assert {"code", "message"} <= set(again.json())


def test_two_notes_read_back_each_as_itself(base_url, session, unique, auth_headers):
    created = []
    try:
        first_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        first_created = session.post(f"{base_url}/notes", json=first_payload, headers=auth_headers)
        assert first_created.status_code == 201, first_created.text
        first_id = first_created.json()["id"]
        created.append(first_id)
        second_payload = {
            "title": unique("读书清单"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        second_created = session.post(f"{base_url}/notes", json=second_payload, headers=auth_headers)
        assert second_created.status_code == 201, second_created.text
        second_id = second_created.json()["id"]
        created.append(second_id)
        first_read = session.get(f"{base_url}/notes/{first_id}", headers=auth_headers)
        assert first_read.status_code == 200, first_read.text
        first_read_body = first_read.json()
        assert first_read_body["id"] == first_id
        assert first_read_body["title"] == first_payload["title"]
        assert first_read_body["content"] == first_payload["content"]
        second_read = session.get(f"{base_url}/notes/{second_id}", headers=auth_headers)
        assert second_read.status_code == 200, second_read.text
        second_read_body = second_read.json()
        assert second_read_body["id"] == second_id
        assert second_read_body["title"] == second_payload["title"]
        assert second_read_body["content"] == second_payload["content"]
        changes = {
            "title": unique("读书清单 (updated)"),
            "content": "《三体》《活着》",
            "tags": ["Reading", "books"],
        }
        updated = session.put(f"{base_url}/notes/{second_id}", json=changes, headers=auth_headers)
        assert updated.status_code == 200, updated.text
        first_again = session.get(f"{base_url}/notes/{first_id}", headers=auth_headers)
        assert first_again.status_code == 200, first_again.text
        first_again_body = first_again.json()
        assert first_again_body["id"] == first_id
        second_again = session.get(f"{base_url}/notes/{second_id}", headers=auth_headers)
        assert second_again.status_code == 200, second_again.text
        second_again_body = second_again.json()
        assert second_again_body["id"] == second_id
        assert first_again_body["title"] == first_payload["title"]
        assert first_again_body["content"] == first_payload["content"]
        assert second_again_body["title"] == changes["title"]
        assert second_again_body["content"] == changes["content"]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/notes/{record_id}", headers=auth_headers)
