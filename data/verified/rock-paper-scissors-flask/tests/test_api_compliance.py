"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_results_documented_success(base_url, session):
    """Results page (query parameters): the documented success (200)."""
    response = session.get(f"{base_url}/results?choice=paper")
    assert response.status_code == 200, response.text
    assert 'You chose:' in response.text, response.text[:500]
    shown = re.search('You\\ chose:\\s*([\\w.@-]+)', response.text)
    assert shown is not None and shown.group(1) == 'paper', response.text[:500]
    assert 'The computer chose:' in response.text, response.text[:500]
    assert 'Results:' in response.text, response.text[:500]
