"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_post_game_moves_is_applied_and_read_back(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    created = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= created.status_code < 300, created.text
    game = created.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["player"] = game["next_player"]
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert 200 <= response.status_code < 300, response.text
    answer = response.json()
    assert {k: answer["last_move"][k] for k in sent} == sent
    assert answer["game_id"] == game_game_id
    fetched = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert fetched.status_code == 200, fetched.text
    stored = fetched.json()
    assert stored["game_id"] == answer["game_id"]
    assert stored["board"] == answer["board"]
    assert stored["next_player"] == answer["next_player"]
    assert stored["status"] == answer["status"]
    assert stored["winner"] == answer["winner"]


def test_post_game_reset_restores_the_created_state(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    created = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= created.status_code < 300, created.text
    game = created.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["player"] = game["next_player"]
    changed = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert 200 <= changed.status_code < 300, changed.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/reset")
    assert 200 <= response.status_code < 300, response.text
    answer = response.json()
    assert answer["board"] == game["board"]
    assert answer["next_player"] == game["next_player"]
    assert answer["status"] == game["status"]
    fetched = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert fetched.status_code == 200, fetched.text
    assert fetched.json()["board"] == game["board"]
    assert fetched.json()["next_player"] == game["next_player"]
    assert fetched.json()["status"] == game["status"]
