"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_game_succeeds_with_record(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    response = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= response.status_code < 300, response.text
    game = response.json()
    game_game_id = game["game_id"]
    assert {
        "game_id", "board", "next_player", "status", "players", "created_at",
        "updated_at",
    } <= set(game)
    assert isinstance(game["board"], list)
    assert isinstance(game["players"], dict)
    assert game["status"] == "in_progress"


def test_get_game_returns_created_game(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    response = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= response.status_code < 300, response.text
    game = response.json()
    game_game_id = game["game_id"]
    fetched = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert fetched.status_code == 200, fetched.text
    body = fetched.json()
    assert body["game_id"] == game_game_id
    assert {
        "game_id", "board", "next_player", "status", "players", "created_at",
        "updated_at",
    } <= set(body)
    assert isinstance(body["board"], list)
    assert isinstance(body["players"], dict)


def test_get_health_returns_200_with_documented_fields(base_url, session):
    response = session.get(f"{base_url}/api/v1/health")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"status", "timestamp", "version"} <= set(body)
    assert re.match('^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}', body["timestamp"]), body
