"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_results_shows_each_allowed_choice(base_url, session):
    response = session.get(f"{base_url}/results", params={"choice": "rock"})
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "rock", response.text[:500]
    other = re.search('The\\ computer\\ chose:\\s*([\\w.@-]+)', response.text)
    assert other is not None and other.group(1) in ["rock", "paper", "scissors"], response.text[:500]
    response = session.get(f"{base_url}/results", params={"choice": "paper"})
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "paper", response.text[:500]
    other = re.search('The\\ computer\\ chose:\\s*([\\w.@-]+)', response.text)
    assert other is not None and other.group(1) in ["rock", "paper", "scissors"], response.text[:500]
    response = session.get(f"{base_url}/results", params={"choice": "scissors"})
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "scissors", response.text[:500]
    other = re.search('The\\ computer\\ chose:\\s*([\\w.@-]+)', response.text)
    assert other is not None and other.group(1) in ["rock", "paper", "scissors"], response.text[:500]


def test_get_root_documented_success(base_url, session):
    """Homepage: the documented success (200)."""
    response = session.get(f"{base_url}/")
    assert response.status_code == 200, response.text
    assert 'Rock-Paper-Scissors App' in response.text, response.text[:500]


def test_post_results_shows_each_allowed_choice(base_url, session):
    response = session.post(f"{base_url}/results", data={"choice": "rock"})
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "rock", response.text[:500]
    other = re.search('The\\ computer\\ chose:\\s*([\\w.@-]+)', response.text)
    assert other is not None and other.group(1) in ["rock", "paper", "scissors"], response.text[:500]
    response = session.post(f"{base_url}/results", data={"choice": "paper"})
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "paper", response.text[:500]
    other = re.search('The\\ computer\\ chose:\\s*([\\w.@-]+)', response.text)
    assert other is not None and other.group(1) in ["rock", "paper", "scissors"], response.text[:500]
    response = session.post(f"{base_url}/results", data={"choice": "scissors"})
    assert response.status_code == 200, response.text
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None, response.text[:500]
    assert shown.group(1) == "scissors", response.text[:500]
    other = re.search('The\\ computer\\ chose:\\s*([\\w.@-]+)', response.text)
    assert other is not None and other.group(1) in ["rock", "paper", "scissors"], response.text[:500]
