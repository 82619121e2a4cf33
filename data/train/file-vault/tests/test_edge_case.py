"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_file_content_unknown_id_returns_404(base_url, session):
    unknown_file_id = "00000000000000000000000000000000"
    response = session.get(f"{base_url}/api/v1/files/{unknown_file_id}/content", allow_redirects=False)
    assert response.status_code == 404, response.text
    assert {"error", "message"} <= set(response.json())
    assert response.json()["error"] == "file_not_found", response.text


def test_get_file_unknown_id_returns_404(base_url, session):
    unknown_file_id = "00000000000000000000000000000000"
    response = session.get(f"{base_url}/api/v1/files/{unknown_file_id}", allow_redirects=False)
    assert response.status_code == 404, response.text
    assert {"error", "message"} <= set(response.json())
    assert response.json()["error"] == "file_not_found", response.text


def test_list_files_uses_documented_defaults(base_url, session):
    response = session.get(f"{base_url}/api/v1/files")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["offset"] == 0
    assert body["limit"] == 50


def test_list_files_with_limit_1_returns_at_most_one(base_url, session):
    response = session.get(f"{base_url}/api/v1/files", params={"limit": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    assert len(body["items"]) <= 1
    assert body["limit"] == 1


def test_list_files_with_limit_above_range_returns_422(base_url, session):
    response = session.get(f"{base_url}/api/v1/files", params={"limit": 201})
    assert response.status_code == 422, response.text
    assert {"error", "message"} <= set(response.json())
    assert response.json()["error"] == "validation_error", response.text


def test_list_files_with_limit_below_range_returns_422(base_url, session):
    response = session.get(f"{base_url}/api/v1/files", params={"limit": 0})
    assert response.status_code == 422, response.text
    assert {"error", "message"} <= set(response.json())
    assert response.json()["error"] == "validation_error", response.text


def test_list_files_with_offset_below_range_returns_422(base_url, session):
    response = session.get(f"{base_url}/api/v1/files", params={"offset": -1})
    assert response.status_code == 422, response.text
    assert {"error", "message"} <= set(response.json())
    assert response.json()["error"] == "validation_error", response.text
