"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_file_with_empty_body_returns_422(base_url, session):
    count_before = session.get(f"{base_url}/api/v1/files")
    assert count_before.status_code == 200, count_before.text
    response = session.post(f"{base_url}/api/v1/files", json={})
    assert response.status_code == 422, response.text
    assert {"error", "message"} <= set(response.json())
    assert response.json()["error"] in ("validation_error", "invalid_folder", "invalid_filename", "empty_file"), response.text
    count_after = session.get(f"{base_url}/api/v1/files")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_delete_file_unknown_id_returns_404(base_url, session):
    count_before = session.get(f"{base_url}/api/v1/files")
    assert count_before.status_code == 200, count_before.text
    unknown_file_id = "00000000000000000000000000000000"
    response = session.delete(f"{base_url}/api/v1/files/{unknown_file_id}")
    assert response.status_code == 404, response.text
    assert {"error", "message"} <= set(response.json())
    assert response.json()["error"] == "file_not_found", response.text
    count_after = session.get(f"{base_url}/api/v1/files")
    assert count_after.json()["total"] == count_before.json()["total"]


def test_list_files_with_text_limit_returns_422(base_url, session):
    response = session.get(f"{base_url}/api/v1/files", params={"limit": "abc"})
    assert response.status_code == 422, response.text
    assert {"error", "message"} <= set(response.json())
    assert response.json()["error"] == "validation_error", response.text
