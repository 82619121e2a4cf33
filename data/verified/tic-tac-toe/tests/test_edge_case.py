"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_get_game_unknown_id_returns_404(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    response = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= response.status_code < 300, response.text
    game = response.json()
    game_game_id = game["game_id"]
    known = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert known.status_code == 200, known.text
    assert known.json()["game_id"] == game_game_id
    unknown_game_id = 999999999
    response = session.get(f"{base_url}/api/v1/games/{unknown_game_id}", allow_redirects=False)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
