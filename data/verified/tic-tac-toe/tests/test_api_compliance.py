"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_post_games_item_moves_documented_success(base_url, session, unique):
    """Make Move: the documented success (200, 201)."""
    created = session.post(f"{base_url}/api/v1/games", json={'player_x': unique('sample_player_x'), 'player_o': unique('sample_player_o')})
    assert created.status_code in (200, 201), created.text
    record = created.json()
    if isinstance(record, dict) and isinstance(record.get("data"), dict):
        record = record["data"]
    game_id = next(record[k] for k in ('game_id', 'id') if k in record)
    response = session.post(f"{base_url}/api/v1/games/{game_id}/moves", json={'player': 'X', 'row': 0, 'col': 0})
    assert response.status_code in (200, 201), response.text
    assert response.json()["game_id"] == game_id
    body = response.json()
    assert set(['board', 'game_id', 'last_move', 'next_player', 'status', 'updated_at', 'winner']) <= set(body), body


def test_post_games_item_reset_documented_success(base_url, session, unique):
    """Reset Game: the documented success (200, 201)."""
    created = session.post(f"{base_url}/api/v1/games", json={'player_x': unique('sample_player_x'), 'player_o': unique('sample_player_o')})
    assert created.status_code in (200, 201), created.text
    record = created.json()
    if isinstance(record, dict) and isinstance(record.get("data"), dict):
        record = record["data"]
    game_id = next(record[k] for k in ('game_id', 'id') if k in record)
    response = session.post(f"{base_url}/api/v1/games/{game_id}/reset")
    assert response.status_code in (200, 201), response.text
    assert response.json()["game_id"] == game_id
    body = response.json()
    assert set(['board', 'game_id', 'next_player', 'status', 'updated_at']) <= set(body), body
