"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_short_link_twice_returns_409(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        count_before = session.get(f"{base_url}/short-links")
        assert count_before.status_code == 200, count_before.text
        again = session.post(f"{base_url}/short-links", json=payload)
        assert again.status_code == 409, again.text
        assert {"error"} <= set(again.json())
        assert again.json()["error"]["code"] == "code_taken", again.text
        count_after = session.get(f"{base_url}/short-links")
        assert count_after.json()["total"] == count_before.json()["total"]
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_create_short_link_with_empty_body_returns_422(base_url, session):
    count_before = session.get(f"{base_url}/short-links")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/short-links", json={})
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] in ("invalid_url", "invalid_code", "invalid_expiry"), response.text
    count_after = session.get(f"{base_url}/short-links")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_short_link_with_expires_in_days_above_range_returns_422(base_url, session, unique):
    sent = {"url": unique("https://example.com/a/very/long/path"), "code": unique("docs-home")}
    sent["expires_in_days"] = 366
    count_before = session.get(f"{base_url}/short-links")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/short-links", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] in ("invalid_url", "invalid_code", "invalid_expiry"), response.text
    count_after = session.get(f"{base_url}/short-links")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_short_link_with_expires_in_days_below_range_returns_422(base_url, session, unique):
    sent = {"url": unique("https://example.com/a/very/long/path"), "code": unique("docs-home")}
    sent["expires_in_days"] = 0
    count_before = session.get(f"{base_url}/short-links")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/short-links", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] in ("invalid_url", "invalid_code", "invalid_expiry"), response.text
    count_after = session.get(f"{base_url}/short-links")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_short_link_with_malformed_json_returns_400(base_url, session):
    response = session.post(f"{base_url}/short-links", data="{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_json", response.text


def test_create_short_link_with_url_over_2048_chars_returns_422(base_url, session, unique):
    sent = {"url": unique("https://example.com/a/very/long/path"), "code": unique("docs-home")}
    sent["url"] = "x" * 2049
    count_before = session.get(f"{base_url}/short-links")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/short-links", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] in ("invalid_url", "invalid_code", "invalid_expiry"), response.text
    count_after = session.get(f"{base_url}/short-links")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_create_short_link_without_url_returns_422(base_url, session, unique):
    sent = {"url": unique("https://example.com/a/very/long/path"), "code": unique("docs-home")}
    del sent["url"]
    count_before = session.get(f"{base_url}/short-links")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/short-links", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] in ("invalid_url", "invalid_code", "invalid_expiry"), response.text
    count_after = session.get(f"{base_url}/short-links")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_delete_short_link_unknown_id_returns_404(base_url, session, unique):
    count_before = session.get(f"{base_url}/short-links")
    assert count_before.status_code == 200, count_before.text
    unknown_code = unique("spring24")
    response = session.delete(f"{base_url}/short-links/{unknown_code}")
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/short-links")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_list_short_links_with_text_limit_returns_400(base_url, session):
    response = session.get(f"{base_url}/short-links", params={"limit": "abc"})
    assert response.status_code == 400, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "invalid_parameter", response.text


def test_patch_short_link_unknown_id_returns_404(base_url, session, unique):
    count_before = session.get(f"{base_url}/short-links")
    assert count_before.status_code == 200, count_before.text
    unknown_code = unique("spring24")
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.patch(f"{base_url}/short-links/{unknown_code}", json=payload)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    assert response.json()["error"]["code"] == "not_found", response.text
    count_after = session.get(f"{base_url}/short-links")
    assert count_after.json()["total"] == count_before.json()["total"]
