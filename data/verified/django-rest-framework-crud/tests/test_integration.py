"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_delete_movies_then_read_and_delete_again_return_404(base_url, session, unique, auth_headers):
    created = []
    try:
        rec_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        rec_created = session.post(f"{base_url}/api/v1/movies/", json=rec_payload, headers=auth_headers)
        assert 200 <= rec_created.status_code < 300, rec_created.text
        rec_id = rec_created.json()["id"]
        created.append(rec_id)
        removed = session.delete(f"{base_url}/api/v1/movies/{rec_id}/", headers=auth_headers)
        assert 200 <= removed.status_code < 300, removed.text
        read = session.get(f"{base_url}/api/v1/movies/{rec_id}/", headers=auth_headers)
        assert read.status_code == 404, read.text
        again = session.delete(f"{base_url}/api/v1/movies/{rec_id}/", headers=auth_headers)
        assert again.status_code == 404, again.text
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_movy_lifecycle_create_read_update_delete(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        fetched = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= fetched.status_code < 300, fetched.text
        assert fetched.json()["id"] == movy_id
        changes = {"title": unique("AntMan and The Wasp"), "genre": "Action", "year": 2018}
        updated = session.put(f"{base_url}/api/v1/movies/{movy_id}/", json=changes, headers=auth_headers)
        assert 200 <= updated.status_code < 300, updated.text
        after = updated.json()
        assert after["title"] == changes["title"]
        assert after["genre"] == changes["genre"]
        assert after["year"] == changes["year"]
        reread = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= reread.status_code < 300, reread.text
        stored = reread.json()
        assert stored["title"] == changes["title"]
        assert stored["genre"] == changes["genre"]
        assert stored["year"] == changes["year"]
        deleted = session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= deleted.status_code < 300, deleted.text
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
