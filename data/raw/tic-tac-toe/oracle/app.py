"""Tic-Tac-Toe web game microservice: the golden implementation, written from the task's README.

Games and the win tally live in memory (one process, guarded by a lock), so every start is a
fresh store. All routes sit under the documented base path `/api/v1`; every error uses the
README's unified body `{"error": {"code", "message", "details"}}`.
"""

import json
import os
import threading
import uuid
from datetime import datetime, timezone

from flask import Flask, Response, request

BASE = "/api/v1"
VERSION = "1.0.0"
MARKS = ("X", "O")
NAME_MAX = 50
DEFAULT_LIMIT = 10
MAX_LIMIT = 100
LINES = ([[(r, c) for c in range(3)] for r in range(3)]
         + [[(r, c) for r in range(3)] for c in range(3)]
         + [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]])

app = Flask(__name__)
_lock = threading.Lock()
_games: dict[str, dict] = {}
_wins: dict[str, int] = {}


class ApiError(Exception):
    """An error answered with the README's unified error body."""

    def __init__(self, status: int, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def reply(status: int, body: dict) -> Response:
    return Response(json.dumps(body, ensure_ascii=False), status=status,
                    mimetype="application/json")


@app.errorhandler(ApiError)
def api_error(exc: ApiError) -> Response:
    error = {"code": exc.code, "message": exc.message}
    if exc.details:
        error["details"] = exc.details
    return reply(exc.status, {"error": error})


@app.errorhandler(404)
def not_found(_exc) -> Response:
    return reply(404, {"error": {"code": "not_found", "message": "Resource not found"}})


@app.errorhandler(405)
def not_allowed(_exc) -> Response:
    return reply(405, {"error": {"code": "method_not_allowed",
                                 "message": f"Method {request.method} not allowed"}})


@app.errorhandler(500)
def internal(_exc) -> Response:
    return reply(500, {"error": {"code": "internal_error", "message": "Internal server error"}})


def invalid(field: str, message: str) -> ApiError:
    return ApiError(422, "validation_error", "Data validation failed", {field: message})


def json_body() -> dict:
    """The request body as a JSON object; any media type is read as JSON (the only one served)."""
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw) if raw.strip() else None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "invalid_json", f"Malformed JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_json", "Request body must be a JSON object")
    return body


def player_name(body: dict, field: str) -> str:
    value = body.get(field)
    if not isinstance(value, str) or not value.strip():
        raise invalid(field, f"{field} is required: a non-empty string")
    if len(value) > NAME_MAX:
        raise invalid(field, f"{field} must be at most {NAME_MAX} characters")
    return value


def cell_index(body: dict, field: str) -> int:
    value = body.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 2:
        raise invalid(field, f"{field} is required: an integer from 0 to 2")
    return value


def lookup(game_id: str) -> dict:
    game = _games.get(game_id)
    if game is None:
        raise ApiError(404, "not_found", f"Game {game_id} not found")
    return game


def empty_board() -> list[list[None]]:
    return [[None] * 3 for _ in range(3)]


def state(game: dict) -> dict:
    return {key: game[key] for key in ("game_id", "board", "next_player", "status", "winner",
                                       "players", "created_at", "updated_at")}


@app.get(f"{BASE}/health")
def health() -> Response:
    return reply(200, {"status": "healthy", "timestamp": now(), "version": VERSION})


@app.post(f"{BASE}/games")
def start_game() -> Response:
    body = json_body()
    players = {"X": player_name(body, "player_x"), "O": player_name(body, "player_o")}
    stamp = now()
    game = {"game_id": uuid.uuid4().hex, "board": empty_board(), "next_player": "X",
            "status": "in_progress", "winner": None, "players": players,
            "created_at": stamp, "updated_at": stamp}
    with _lock:
        _games[game["game_id"]] = game
        body = state(game)
    del body["winner"]
    return reply(201, body)


@app.get(f"{BASE}/games/<game_id>")
def get_game(game_id: str) -> Response:
    with _lock:
        return reply(200, state(lookup(game_id)))


def outcome(board: list[list[str | None]]) -> tuple[str, str | None]:
    """(status, winner) after a move: a full line wins, a full board without one is a draw."""
    for line in LINES:
        marks = {board[r][c] for r, c in line}
        if len(marks) == 1 and None not in marks:
            return "finished", marks.pop()
    if all(cell is not None for row in board for cell in row):
        return "draw", None
    return "in_progress", None


@app.post(f"{BASE}/games/<game_id>/moves")
def make_move(game_id: str) -> Response:
    with _lock:
        lookup(game_id)
    body = json_body()
    player = body.get("player")
    if player not in MARKS:
        raise invalid("player", "player is required: X or O")
    row, col = cell_index(body, "row"), cell_index(body, "col")
    with _lock:
        game = lookup(game_id)
        if game["status"] != "in_progress":
            raise ApiError(409, "game_over", f"Game is {game['status']}; no more moves")
        if player != game["next_player"]:
            raise ApiError(409, "not_your_turn", f"It is {game['next_player']}'s turn")
        if game["board"][row][col] is not None:
            raise ApiError(409, "cell_occupied", f"Cell ({row}, {col}) is already taken")
        game["board"][row][col] = player
        game["status"], game["winner"] = outcome(game["board"])
        game["next_player"] = ("O" if player == "X" else "X") \
            if game["status"] == "in_progress" else None
        if game["winner"]:
            name = game["players"][game["winner"]]
            _wins[name] = _wins.get(name, 0) + 1
        game["updated_at"] = now()
        return reply(200, {"game_id": game_id, "board": game["board"],
                           "next_player": game["next_player"], "status": game["status"],
                           "winner": game["winner"],
                           "last_move": {"player": player, "row": row, "col": col},
                           "updated_at": game["updated_at"]})


@app.post(f"{BASE}/games/<game_id>/reset")
def reset_game(game_id: str) -> Response:
    with _lock:
        game = lookup(game_id)
        game.update(board=empty_board(), next_player="X", status="in_progress", winner=None,
                    updated_at=now())
        return reply(200, {key: game[key] for key in ("game_id", "board", "next_player",
                                                      "status", "updated_at")})


@app.get(f"{BASE}/leaderboard")
def leaderboard() -> Response:
    raw = request.args.get("limit")
    limit = DEFAULT_LIMIT
    if raw is not None:
        try:
            limit = int(raw)
        except ValueError:
            raise invalid("limit", "limit must be an integer") from None
        if limit < 1:
            raise invalid("limit", "limit must be at least 1")
        limit = min(limit, MAX_LIMIT)
    with _lock:
        ranked = sorted(_wins.items(), key=lambda item: (-item[1], item[0]))
    return reply(200, {"items": [{"player": p, "wins": w} for p, w in ranked[:limit]],
                       "pagination": {"limit": limit, "total": len(ranked)}})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8082")), threaded=True)
