"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_order_unknown_id_returns_404(base_url, session):
    unknown_order_id = 999999999
    response = session.get(f"{base_url}/orders/{unknown_order_id}", allow_redirects=False)
    assert response.status_code == 404, response.text
    assert {"status", "error", "message", "path"} <= set(response.json())
    assert response.json()["status"] == 404
