"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_list_leaderboard_limit_above_100_is_capped_or_refused(base_url, session):
    over = session.get(f"{base_url}/api/v1/leaderboard", params={"limit": 101})
    assert over.status_code < 500, over.text
    if over.status_code < 300:
        assert over.json()["pagination"]["limit"] <= 100
    else:
        assert 400 <= over.status_code < 500, over.text
