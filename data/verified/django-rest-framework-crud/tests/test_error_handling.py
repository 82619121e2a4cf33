"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_patch_movies_item_malformed_json(base_url, session):
    """A body that is not JSON is rejected with a 4xx."""
    response = session.patch(f"{base_url}/api/v1/movies/{'999999'}/", data='{not json', headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text


def test_post_movies_malformed_json(base_url, session):
    """A body that is not JSON is rejected with a 4xx."""
    response = session.post(f"{base_url}/api/v1/movies/", data='{not json', headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text


def test_put_movies_item_malformed_json(base_url, session):
    """A body that is not JSON is rejected with a 4xx."""
    response = session.put(f"{base_url}/api/v1/movies/{'999999'}/", data='{not json', headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text
