"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_history_succeeds_with_record(base_url, session, auth_headers):
    payload = {"action": "view"}
    response = session.post(f"{base_url}/api/v1/history", json=payload, headers=auth_headers)
    assert 200 <= response.status_code < 300, response.text
    history = response.json()
    history_id = history["id"]
    try:
        assert history["action"] == payload["action"]
    finally:
        session.delete(f"{base_url}/api/v1/history/{history_id}", headers=auth_headers)
