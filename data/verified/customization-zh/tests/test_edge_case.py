"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_list_favorites_default_limit_is_10(base_url, session, unique, auth_headers):
    created = []
    try:
        codes = []
        for _ in range(11):
            rec_payload = {"content_id": "sample_content_id", "content_type": "post"}
            rec_payload["content_id"] = unique("sample_content_id")
            rec_created = session.post(f"{base_url}/api/v1/favorites", json=rec_payload, headers=auth_headers)
            rec_id = rec_created.json()["id"]
            created.append(rec_id)
            codes.append(rec_created.status_code)
        assert len(codes) == 11
        assert all(200 <= code < 300 for code in codes), codes
        listed = session.get(f"{base_url}/api/v1/favorites", params={}, headers=auth_headers)
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert len(listed_body["favorites"]) == 10
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/favorites/{record_id}", headers=auth_headers)


def test_list_favorites_limit_above_100_is_capped_or_refused(base_url, session, auth_headers):
    over = session.get(f"{base_url}/api/v1/favorites", params={"limit": 101}, headers=auth_headers)
    assert over.status_code < 500, over.text
    if over.status_code < 300:
        assert over.json()["pagination"]["limit"] <= 100
    else:
        assert 400 <= over.status_code < 500, over.text


def test_list_favorites_limit_and_page_split_the_list(base_url, session, unique, auth_headers):
    created = []
    try:
        rec0_payload = {"content_id": "sample_content_id", "content_type": "post"}
        rec0_payload["content_id"] = unique("sample_content_id")
        rec0_created = session.post(f"{base_url}/api/v1/favorites", json=rec0_payload, headers=auth_headers)
        assert 200 <= rec0_created.status_code < 300, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {"content_id": "sample_content_id", "content_type": "post"}
        rec1_payload["content_id"] = unique("sample_content_id")
        rec1_created = session.post(f"{base_url}/api/v1/favorites", json=rec1_payload, headers=auth_headers)
        assert 200 <= rec1_created.status_code < 300, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        first = session.get(f"{base_url}/api/v1/favorites", params={"limit": 1, "page": 1}, headers=auth_headers)
        assert first.status_code == 200, first.text
        first_body = first.json()
        second = session.get(f"{base_url}/api/v1/favorites", params={"limit": 1, "page": 2}, headers=auth_headers)
        assert second.status_code == 200, second.text
        second_body = second.json()
        unpaged = session.get(f"{base_url}/api/v1/favorites", params={"limit": 1}, headers=auth_headers)
        assert unpaged.status_code == 200, unpaged.text
        unpaged_body = unpaged.json()
        assert len(first_body["favorites"]) == 1 and len(second_body["favorites"]) == 1
        assert [record["id"] for record in first_body["favorites"]] != [record["id"] for record in second_body["favorites"]]
        assert [record["id"] for record in unpaged_body["favorites"]] == [record["id"] for record in first_body["favorites"]]
        assert first_body["pagination"]["total"] >= 2
        over = session.get(f"{base_url}/api/v1/favorites", params={"limit": 101}, headers=auth_headers)
        assert over.status_code < 500, over.text
        if over.status_code < 300:
            assert len(over.json()["favorites"]) <= 100
        else:
            assert 400 <= over.status_code < 500, over.text
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/favorites/{record_id}", headers=auth_headers)


def test_list_history_default_limit_is_20(base_url, session, auth_headers):
    created = []
    try:
        codes = []
        for _ in range(21):
            rec_payload = {"action": "view"}
            rec_created = session.post(f"{base_url}/api/v1/history", json=rec_payload, headers=auth_headers)
            rec_id = rec_created.json()["id"]
            created.append(rec_id)
            codes.append(rec_created.status_code)
        assert len(codes) == 21
        assert all(200 <= code < 300 for code in codes), codes
        listed = session.get(f"{base_url}/api/v1/history", params={}, headers=auth_headers)
        assert listed.status_code == 200, listed.text
        listed_body = listed.json()
        assert len(listed_body["history"]) == 20
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/history/{record_id}", headers=auth_headers)


def test_list_history_limit_above_100_is_capped_or_refused(base_url, session, auth_headers):
    over = session.get(f"{base_url}/api/v1/history", params={"limit": 101}, headers=auth_headers)
    assert over.status_code < 500, over.text
    if over.status_code < 300:
        assert over.json()["pagination"]["limit"] <= 100
    else:
        assert 400 <= over.status_code < 500, over.text


def test_list_history_limit_and_page_split_the_list(base_url, session, auth_headers):
    created = []
    try:
        rec0_payload = {"action": "view"}
        rec0_created = session.post(f"{base_url}/api/v1/history", json=rec0_payload, headers=auth_headers)
        assert 200 <= rec0_created.status_code < 300, rec0_created.text
        rec0_id = rec0_created.json()["id"]
        created.append(rec0_id)
        rec1_payload = {"action": "view"}
        rec1_created = session.post(f"{base_url}/api/v1/history", json=rec1_payload, headers=auth_headers)
        assert 200 <= rec1_created.status_code < 300, rec1_created.text
        rec1_id = rec1_created.json()["id"]
        created.append(rec1_id)
        first = session.get(f"{base_url}/api/v1/history", params={"limit": 1, "page": 1}, headers=auth_headers)
        assert first.status_code == 200, first.text
        first_body = first.json()
        second = session.get(f"{base_url}/api/v1/history", params={"limit": 1, "page": 2}, headers=auth_headers)
        assert second.status_code == 200, second.text
        second_body = second.json()
        unpaged = session.get(f"{base_url}/api/v1/history", params={"limit": 1}, headers=auth_headers)
        assert unpaged.status_code == 200, unpaged.text
        unpaged_body = unpaged.json()
        assert len(first_body["history"]) == 1 and len(second_body["history"]) == 1
        assert [record["id"] for record in first_body["history"]] != [record["id"] for record in second_body["history"]]
        assert [record["id"] for record in unpaged_body["history"]] == [record["id"] for record in first_body["history"]]
        assert first_body["pagination"]["total"] >= 2
        over = session.get(f"{base_url}/api/v1/history", params={"limit": 101}, headers=auth_headers)
        assert over.status_code < 500, over.text
        if over.status_code < 300:
            assert len(over.json()["history"]) <= 100
        else:
            assert 400 <= over.status_code < 500, over.text
    finally:
        for record_id in created:
            session.delete(f"{base_url}/api/v1/history/{record_id}", headers=auth_headers)


def test_list_likes_history_limit_above_50_is_capped_or_refused(base_url, session, auth_headers):
    over = session.get(f"{base_url}/api/v1/likes/history", params={"limit": 51}, headers=auth_headers)
    assert over.status_code < 500, over.text
    if over.status_code < 300:
        assert over.json()["pagination"]["limit"] <= 50
    else:
        assert 400 <= over.status_code < 500, over.text
