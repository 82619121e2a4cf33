"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_health_returns_200_with_documented_fields(base_url, session):
    response = session.get(f"{base_url}/api/v1/health")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"status"} <= set(body)
    assert isinstance(body["status"], str)
    assert body["status"] == "ok"
