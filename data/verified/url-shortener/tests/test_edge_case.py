"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_delete_short_link_twice_returns_404(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        first = session.delete(f"{base_url}/short-links/{short_link_code}")
        assert first.status_code == 204, first.text
        second = session.delete(f"{base_url}/short-links/{short_link_code}")
        assert second.status_code == 404, second.text
        assert {"error"} <= set(second.json())
        assert second.json()["error"]["code"] == "not_found", second.text
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_get_r_unknown_id_returns_404(base_url, session, unique):
    unknown_code = unique("spring24")
    response = session.get(f"{base_url}/r/{unknown_code}", allow_redirects=False)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text


def test_get_short_link_stats_unknown_id_returns_404(base_url, session, unique):
    unknown_code = unique("spring24")
    response = session.get(f"{base_url}/short-links/{unknown_code}/stats", allow_redirects=False)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text


def test_get_short_link_unknown_id_returns_404(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        known = session.get(f"{base_url}/short-links/{short_link_code}")
        assert known.status_code == 200, known.text
        assert known.json()["code"] == short_link_code
        unknown_code = unique("spring24")
        response = session.get(f"{base_url}/short-links/{unknown_code}", allow_redirects=False)
        assert response.status_code == 404, response.text
        assert {"error"} <= set(response.json())
        assert response.json()["error"]["code"] == "not_found", response.text
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_list_short_links_in_documented_order_newest_first(base_url, session, unique):
    created = []
    try:
        rec0_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        rec0_created = session.post(f"{base_url}/short-links", json=rec0_payload)
        assert rec0_created.status_code == 201, rec0_created.text
        rec0_id = rec0_created.json()["code"]
        created.append(rec0_id)
        rec1_payload = {
            "url": unique("https://example.com/a/very/long/path"),
            "code": unique("docs-home"),
        }
        rec1_created = session.post(f"{base_url}/short-links", json=rec1_payload)
        assert rec1_created.status_code == 201, rec1_created.text
        rec1_id = rec1_created.json()["code"]
        created.append(rec1_id)
        listed = session.get(f"{base_url}/short-links", params={"limit": 2, "offset": 0})
        assert listed.status_code == 200, listed.text
        assert [record["code"] for record in listed.json()["items"]] == [rec1_id, rec0_id]
    finally:
        for record_id in created:
            session.delete(f"{base_url}/short-links/{record_id}")


def test_list_short_links_limit_above_200_is_capped_or_refused(base_url, session):
    over = session.get(f"{base_url}/short-links", params={"limit": 201})
    assert over.status_code < 500, over.text
    if over.status_code < 300:
        assert over.json()["limit"] <= 200
    else:
        assert 400 <= over.status_code < 500, over.text


def test_list_short_links_with_limit_1_returns_at_most_one(base_url, session):
    response = session.get(f"{base_url}/short-links", params={"limit": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    assert len(body["items"]) <= 1
    assert body["limit"] == 1


def test_list_short_links_with_limit_above_range_returns_400(base_url, session):
    response = session.get(f"{base_url}/short-links", params={"limit": 201})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_parameter", response.text


def test_list_short_links_with_limit_below_range_returns_400(base_url, session):
    response = session.get(f"{base_url}/short-links", params={"limit": 0})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_parameter", response.text


def test_list_short_links_with_offset_below_range_returns_400(base_url, session):
    response = session.get(f"{base_url}/short-links", params={"offset": -1})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_parameter", response.text
