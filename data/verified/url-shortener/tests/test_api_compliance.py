"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_short_link_returns_201_with_record(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        assert {
            "code", "url", "short_url", "created_at", "expires_at", "expired", "hits",
        } <= set(short_link)
        assert isinstance(short_link["code"], str)
        assert isinstance(short_link["url"], str)
        assert isinstance(short_link["short_url"], str)
        assert isinstance(short_link["created_at"], str)
        assert isinstance(short_link["expired"], bool)
        assert isinstance(short_link["hits"], int)
        assert short_link["url"] == payload["url"]
        assert short_link["code"] == payload["code"]
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_delete_short_link_returns_204(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        deleted = session.delete(f"{base_url}/short-links/{short_link_code}")
        assert deleted.status_code == 204, deleted.text
        assert deleted.content == b""
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_get_health_returns_200_with_documented_fields(base_url, session, unique):
    response = session.get(f"{base_url}/health")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"status", "links"} <= set(body)
    assert isinstance(body["status"], str)
    assert isinstance(body["links"], int)
    assert body["status"] == "ok"
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    created = session.post(f"{base_url}/short-links", json=payload)
    assert created.status_code == 201, created.text
    short_link = created.json()
    short_link_code = short_link["code"]
    try:
        recount = session.get(f"{base_url}/health")
        assert recount.status_code == 200, recount.text
        assert recount.json()["links"] == body["links"] + 1
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_get_r_returns_302(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        result = session.get(f"{base_url}/r/{short_link_code}", allow_redirects=False)
        assert result.status_code == 302, result.text
        assert result.headers["Location"] == payload["url"]
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_get_short_link_returns_created_short_link(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        fetched = session.get(f"{base_url}/short-links/{short_link_code}")
        assert fetched.status_code == 200, fetched.text
        body = fetched.json()
        assert body["code"] == short_link_code
        assert {
            "code", "url", "short_url", "created_at", "expires_at", "expired", "hits",
        } <= set(body)
        assert isinstance(body["code"], str)
        assert isinstance(body["url"], str)
        assert isinstance(body["short_url"], str)
        assert isinstance(body["created_at"], str)
        assert isinstance(body["expired"], bool)
        assert isinstance(body["hits"], int)
        assert body["url"] == payload["url"]
        assert body["code"] == payload["code"]
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_get_short_links_returns_200_with_documented_fields(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        response = session.get(f"{base_url}/short-links")
        assert response.status_code == 200, response.text
        body = response.json()
        assert {"items", "total", "limit", "offset"} <= set(body)
        assert isinstance(body["items"], list)
        assert isinstance(body["total"], int)
        assert isinstance(body["limit"], int)
        assert isinstance(body["offset"], int)
        assert len(body["items"]) >= 1
        assert body["total"] >= len(body["items"])
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")


def test_patch_short_link_applies_changes(base_url, session, unique):
    payload = {
        "url": unique("https://example.com/a/very/long/path"),
        "code": unique("docs-home"),
    }
    response = session.post(f"{base_url}/short-links", json=payload)
    assert response.status_code == 201, response.text
    short_link = response.json()
    short_link_code = short_link["code"]
    try:
        changes = {"url": unique("https://example.com/a/very/long/path/updated")}
        updated = session.patch(f"{base_url}/short-links/{short_link_code}", json=changes)
        assert updated.status_code == 200, updated.text
        after = updated.json()
        assert after["url"] == changes["url"]
        reread = session.get(f"{base_url}/short-links/{short_link_code}")
        assert reread.status_code == 200, reread.text
        stored = reread.json()
        assert stored["url"] == changes["url"]
        assert stored["code"] == payload["code"]
    finally:
        session.delete(f"{base_url}/short-links/{short_link_code}")
