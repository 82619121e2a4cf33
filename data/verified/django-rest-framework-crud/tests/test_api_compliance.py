"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_movy_succeeds_with_record(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        assert movy["title"] == payload["title"]
        assert movy["genre"] == payload["genre"]
        assert movy["year"] == payload["year"]
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_get_movy_returns_created_movy(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
        fetched = session.get(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
        assert 200 <= fetched.status_code < 300, fetched.text
        body = fetched.json()
        assert body["id"] == movy_id
        assert body["title"] == payload["title"]
        assert body["genre"] == payload["genre"]
        assert body["year"] == payload["year"]
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)


def test_list_movies_filtered_by_genre_returns_only_matching_movy(base_url, session, unique, auth_headers):
    created = []
    try:
        wanted = unique("Action")
        other = unique("Action")
        match_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        match_payload["genre"] = wanted
        match_created = session.post(f"{base_url}/api/v1/movies/", json=match_payload, headers=auth_headers)
        assert 200 <= match_created.status_code < 300, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        other_payload["genre"] = other
        other_created = session.post(f"{base_url}/api/v1/movies/", json=other_payload, headers=auth_headers)
        assert 200 <= other_created.status_code < 300, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        listed = session.get(f"{base_url}/api/v1/movies/", params={"genre": wanted}, headers=auth_headers)
        assert 200 <= listed.status_code < 300, listed.text
        assert [record["id"] for record in [v for v in (listed.json().values() if isinstance(listed.json(), dict) else [listed.json()]) if isinstance(v, list)][0]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_list_movies_filtered_by_title_returns_only_matching_movy(base_url, session, unique, auth_headers):
    created = []
    try:
        wanted = unique("Ant Man and The Wasp")
        other = unique("Ant Man and The Wasp")
        match_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        match_payload["title"] = wanted
        match_created = session.post(f"{base_url}/api/v1/movies/", json=match_payload, headers=auth_headers)
        assert 200 <= match_created.status_code < 300, match_created.text
        match_id = match_created.json()["id"]
        created.append(match_id)
        other_payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
        other_payload["title"] = other
        other_created = session.post(f"{base_url}/api/v1/movies/", json=other_payload, headers=auth_headers)
        assert 200 <= other_created.status_code < 300, other_created.text
        other_id = other_created.json()["id"]
        created.append(other_id)
        listed = session.get(f"{base_url}/api/v1/movies/", params={"title": wanted}, headers=auth_headers)
        assert 200 <= listed.status_code < 300, listed.text
        assert [record["id"] for record in [v for v in (listed.json().values() if isinstance(listed.json(), dict) else [listed.json()]) if isinstance(v, list)][0]] == [match_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/movies/{record_id}/", headers=auth_headers)


def test_put_movy_applies_changes(base_url, session, unique, auth_headers):
    payload = {"title": unique("Ant Man and The Wasp"), "genre": "Action", "year": 2018}
    response = session.post(f"{base_url}/api/v1/movies/", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    movy = response.json()
    movy_id = movy["id"]
    try:
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
    finally:
        session.delete(f"{base_url}/api/v1/movies/{movy_id}/", headers=auth_headers)
