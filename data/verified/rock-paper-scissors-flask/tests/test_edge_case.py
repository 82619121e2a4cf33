"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_results_with_unlisted_choice_shows_rock(base_url, session, unique):
    response = session.get(f"{base_url}/results", params={"choice": unique("unlisted")})
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "rock", response.text[:500]


def test_get_results_without_choice_shows_rock(base_url, session):
    response = session.get(f"{base_url}/results")
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "rock", response.text[:500]


def test_post_results_with_unlisted_choice_shows_rock(base_url, session, unique):
    response = session.post(f"{base_url}/results", data={"choice": unique("unlisted")})
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "rock", response.text[:500]


def test_post_results_without_choice_shows_rock(base_url, session):
    response = session.post(f"{base_url}/results")
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "rock", response.text[:500]
