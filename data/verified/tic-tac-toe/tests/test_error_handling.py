"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401


def test_create_game_with_empty_body_returns_422(base_url, session):
    response = session.post(f"{base_url}/api/v1/games", json={})
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    # the same create with a valid body is accepted
    valid = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    accepted = session.post(f"{base_url}/api/v1/games", json=valid)
    assert 200 <= accepted.status_code < 300, accepted.text
    accepted_record = accepted.json()
    assert accepted_record["status"] == "in_progress"
    accepted_id = accepted_record["game_id"]
    fetched = session.get(f"{base_url}/api/v1/games/{accepted_id}")
    assert fetched.status_code == 200, fetched.text
    assert fetched.json()["board"] == accepted_record["board"]
    assert fetched.json()["next_player"] == accepted_record["next_player"]
    assert fetched.json()["status"] == accepted_record["status"]
    assert fetched.json()["players"] == accepted_record["players"]


def test_create_game_with_player_o_over_50_chars_returns_422(base_url, session, unique):
    sent = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    sent["player_o"] = "x" * 51
    response = session.post(f"{base_url}/api/v1/games", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    # the same create with a valid body is accepted
    valid = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    valid["player_o"] = unique("x" * 50)
    accepted = session.post(f"{base_url}/api/v1/games", json=valid)
    assert 200 <= accepted.status_code < 300, accepted.text
    accepted_record = accepted.json()
    assert accepted_record["status"] == "in_progress"
    accepted_id = accepted_record["game_id"]
    fetched = session.get(f"{base_url}/api/v1/games/{accepted_id}")
    assert fetched.status_code == 200, fetched.text
    assert fetched.json()["board"] == accepted_record["board"]
    assert fetched.json()["next_player"] == accepted_record["next_player"]
    assert fetched.json()["status"] == accepted_record["status"]
    assert fetched.json()["players"] == accepted_record["players"]


def test_create_game_with_player_x_over_50_chars_returns_422(base_url, session, unique):
    sent = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    sent["player_x"] = "x" * 51
    response = session.post(f"{base_url}/api/v1/games", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    # the same create with a valid body is accepted
    valid = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    valid["player_x"] = unique("x" * 50)
    accepted = session.post(f"{base_url}/api/v1/games", json=valid)
    assert 200 <= accepted.status_code < 300, accepted.text
    accepted_record = accepted.json()
    assert accepted_record["status"] == "in_progress"
    accepted_id = accepted_record["game_id"]
    fetched = session.get(f"{base_url}/api/v1/games/{accepted_id}")
    assert fetched.status_code == 200, fetched.text
    assert fetched.json()["board"] == accepted_record["board"]
    assert fetched.json()["next_player"] == accepted_record["next_player"]
    assert fetched.json()["status"] == accepted_record["status"]
    assert fetched.json()["players"] == accepted_record["players"]


def test_create_game_without_player_o_returns_422(base_url, session):
    sent = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    del sent["player_o"]
    response = session.post(f"{base_url}/api/v1/games", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    # the same create with a valid body is accepted
    valid = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    accepted = session.post(f"{base_url}/api/v1/games", json=valid)
    assert 200 <= accepted.status_code < 300, accepted.text
    accepted_record = accepted.json()
    assert accepted_record["status"] == "in_progress"
    accepted_id = accepted_record["game_id"]
    fetched = session.get(f"{base_url}/api/v1/games/{accepted_id}")
    assert fetched.status_code == 200, fetched.text
    assert fetched.json()["board"] == accepted_record["board"]
    assert fetched.json()["next_player"] == accepted_record["next_player"]
    assert fetched.json()["status"] == accepted_record["status"]
    assert fetched.json()["players"] == accepted_record["players"]


def test_create_game_without_player_x_returns_422(base_url, session):
    sent = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    del sent["player_x"]
    response = session.post(f"{base_url}/api/v1/games", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    # the same create with a valid body is accepted
    valid = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    accepted = session.post(f"{base_url}/api/v1/games", json=valid)
    assert 200 <= accepted.status_code < 300, accepted.text
    accepted_record = accepted.json()
    assert accepted_record["status"] == "in_progress"
    accepted_id = accepted_record["game_id"]
    fetched = session.get(f"{base_url}/api/v1/games/{accepted_id}")
    assert fetched.status_code == 200, fetched.text
    assert fetched.json()["board"] == accepted_record["board"]
    assert fetched.json()["next_player"] == accepted_record["next_player"]
    assert fetched.json()["status"] == accepted_record["status"]
    assert fetched.json()["players"] == accepted_record["players"]


def test_post_game_moves_by_non_current_player_returns_409(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    created = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= created.status_code < 300, created.text
    game = created.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["player"] = next(v for v in ["X", "O"] if v != game["next_player"])
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert response.status_code == 409, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_moves_on_a_taken_target_returns_409(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    created = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= created.status_code < 300, created.text
    game = created.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["player"] = game["next_player"]
    first = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert 200 <= first.status_code < 300, first.text
    now = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert now.status_code == 200, now.text
    again = dict(sent)
    again["player"] = now.json()["next_player"]
    assert again["player"] in ["X", "O"], now.text
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=again)
    assert response.status_code == 409, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_moves_twice_returns_409(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    response = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= response.status_code < 300, response.text
    game = response.json()
    game_game_id = game["game_id"]
    body_sent = {"player": "X", "row": 0, "col": 0}
    first = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=body_sent)
    assert 200 <= first.status_code < 300, first.text
    stored_before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert stored_before.status_code == 200, stored_before.text
    second = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=body_sent)
    assert second.status_code == 409, second.text
    assert {"error"} <= set(second.json())
    stored_after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert stored_after.status_code == 200, stored_after.text
    assert stored_after.json() == stored_before.json()


def test_post_game_moves_unknown_id_returns_404(base_url, session):
    known_payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    known = session.post(f"{base_url}/api/v1/games", json=known_payload)
    assert 200 <= known.status_code < 300, known.text
    game = known.json()
    game_game_id = game["game_id"]
    unknown_game_id = 999999999
    payload = {"player": "X", "row": 0, "col": 0}
    response = session.post(f"{base_url}/api/v1/games/{unknown_game_id}/moves", json=payload)
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    # the same call on a record that exists succeeds
    sent = {"player": "X", "row": 0, "col": 0}
    sent["player"] = game["next_player"]
    done = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert 200 <= done.status_code < 300, done.text
    answer = done.json()
    assert answer["game_id"] == game_game_id
    assert {k: answer["last_move"][k] for k in sent} == sent


def test_post_game_moves_with_col_above_range_returns_422(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    owner = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= owner.status_code < 300, owner.text
    game = owner.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["col"] = 3
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_moves_with_col_below_range_returns_422(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    owner = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= owner.status_code < 300, owner.text
    game = owner.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["col"] = -1
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_moves_with_row_above_range_returns_422(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    owner = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= owner.status_code < 300, owner.text
    game = owner.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["row"] = 3
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_moves_with_row_below_range_returns_422(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    owner = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= owner.status_code < 300, owner.text
    game = owner.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["row"] = -1
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_moves_with_unlisted_player_returns_422(base_url, session, unique):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    owner = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= owner.status_code < 300, owner.text
    game = owner.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    sent["player"] = unique("unlisted")
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_moves_without_col_returns_422(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    owner = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= owner.status_code < 300, owner.text
    game = owner.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    del sent["col"]
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_moves_without_row_returns_422(base_url, session):
    payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    owner = session.post(f"{base_url}/api/v1/games", json=payload)
    assert 200 <= owner.status_code < 300, owner.text
    game = owner.json()
    game_game_id = game["game_id"]
    sent = {"player": "X", "row": 0, "col": 0}
    del sent["row"]
    before = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert before.status_code == 200, before.text
    response = session.post(f"{base_url}/api/v1/games/{game_game_id}/moves", json=sent)
    assert response.status_code == 422, response.text
    assert {"error"} <= set(response.json())
    after = session.get(f"{base_url}/api/v1/games/{game_game_id}")
    assert after.json() == before.json()


def test_post_game_reset_unknown_id_returns_404(base_url, session):
    known_payload = {"player_x": "sample_player_x", "player_o": "sample_player_o"}
    known = session.post(f"{base_url}/api/v1/games", json=known_payload)
    assert 200 <= known.status_code < 300, known.text
    game = known.json()
    game_game_id = game["game_id"]
    unknown_game_id = 999999999
    response = session.post(f"{base_url}/api/v1/games/{unknown_game_id}/reset")
    assert response.status_code == 404, response.text
    assert {"error"} <= set(response.json())
    # the same call on a record that exists succeeds
    done = session.post(f"{base_url}/api/v1/games/{game_game_id}/reset")
    assert 200 <= done.status_code < 300, done.text
    answer = done.json()
    assert answer["status"] == "in_progress"
    assert answer["game_id"] == game_game_id
