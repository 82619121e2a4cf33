"""Tic-Tac-Toe microservice -- independent implementation on Starlette + uvicorn.

Games and the leaderboard live in memory behind a lock; a fresh start has no games.
"""
import json
import os
import secrets
import threading
from datetime import datetime, timezone

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

VERSION = "2.0.0-alt"
LOCK = threading.Lock()
GAMES = {}   # game_id -> dict
WINS = {}    # player name -> wins

LINES = (
    [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)],
)


def stamp():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class ApiError(Exception):
    def __init__(self, status, code, message, details=None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def error_response(status, code, message, details=None, headers=None):
    err = {"code": code, "message": message}
    if details is not None:
        err["details"] = details
    return JSONResponse({"error": err}, status_code=status, headers=headers)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def empty_board():
    return [[None, None, None] for _ in range(3)]


def game_view(g, with_last_move=True):
    out = {
        "game_id": g["game_id"],
        "board": [list(r) for r in g["board"]],
        "next_player": g["next_player"],
        "status": g["status"],
        "winner": g["winner"],
        "players": dict(g["players"]),
        "move_count": g["move_count"],
        "created_at": g["created_at"],
        "updated_at": g["updated_at"],
    }
    if with_last_move:
        out["last_move"] = dict(g["last_move"]) if g["last_move"] else None
    return out


async def json_object(request):
    raw = await request.body()
    if not raw.strip():
        raise ApiError(400, "bad_request", "a JSON object body is required")
    try:
        val = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_request", "the request body is not valid JSON")
    if not isinstance(val, dict):
        raise ApiError(400, "bad_request", "the request body must be a JSON object")
    return val


def find_game(game_id):
    g = GAMES.get(game_id)
    if g is None:
        raise ApiError(404, "game_not_found", f"there is no game with id '{game_id}'")
    return g


# ------------------------------------------------------------------ endpoints

async def health(request):
    return JSONResponse({"status": "healthy", "timestamp": stamp(), "version": VERSION})


async def create_game(request):
    body = await json_object(request)
    problems = {}
    names = {}
    for field in ("player_x", "player_o"):
        v = body.get(field)
        if v is None:
            problems[field] = "required"
        elif not isinstance(v, str):
            problems[field] = "must be a string"
        elif not 1 <= len(v.strip()) <= 50:
            problems[field] = "must be 1 to 50 characters (surrounding spaces are not counted)"
        else:
            names[field] = v.strip()
    if problems:
        raise ApiError(422, "validation_failed", "the game could not be created", problems)
    now = stamp()
    with LOCK:
        gid = "ttt-" + secrets.token_hex(6)
        while gid in GAMES:
            gid = "ttt-" + secrets.token_hex(6)
        g = {
            "game_id": gid,
            "board": empty_board(),
            "next_player": "X",
            "status": "in_progress",
            "winner": None,
            "players": {"X": names["player_x"], "O": names["player_o"]},
            "move_count": 0,
            "last_move": None,
            "created_at": now,
            "updated_at": now,
        }
        GAMES[gid] = g
        view = game_view(g)
    return JSONResponse(view, status_code=201, headers={"Location": f"/api/v1/games/{gid}"})


async def get_game(request):
    with LOCK:
        return JSONResponse(game_view(find_game(request.path_params["game_id"])))


def outcome(board):
    for line in LINES:
        a, b, c = (board[r][k] for r, k in line)
        if a is not None and a == b == c:
            return a
    return None


async def make_move(request):
    gid = request.path_params["game_id"]
    with LOCK:
        find_game(gid)
    body = await json_object(request)
    problems = {}
    player = body.get("player")
    if player is not None and player not in ("X", "O"):
        problems["player"] = "must be 'X' or 'O'"
    for field in ("row", "col"):
        v = body.get(field)
        if v is None:
            problems[field] = "required"
        elif not is_int(v):
            problems[field] = "must be an integer"
        elif not 0 <= v <= 2:
            problems[field] = "must be between 0 and 2"
    if problems:
        raise ApiError(422, "validation_failed", "the move is not valid", problems)
    row, col = body["row"], body["col"]
    with LOCK:
        g = find_game(gid)
        if g["status"] != "in_progress":
            raise ApiError(409, "game_over", f"the game is over (status '{g['status']}')",
                           {"status": g["status"], "winner": g["winner"]})
        if player is None:
            player = g["next_player"]
        if player != g["next_player"]:
            raise ApiError(409, "not_your_turn", f"it is {g['next_player']}'s turn, not {player}'s",
                           {"next_player": g["next_player"]})
        if g["board"][row][col] is not None:
            raise ApiError(409, "cell_occupied", f"cell ({row}, {col}) is already taken",
                           {"row": row, "col": col, "occupied_by": g["board"][row][col]})
        g["board"][row][col] = player
        g["move_count"] += 1
        g["last_move"] = {"player": player, "row": row, "col": col}
        won = outcome(g["board"])
        if won:
            g["status"], g["winner"], g["next_player"] = "finished", won, None
            name = g["players"][won]
            WINS[name] = WINS.get(name, 0) + 1
        elif g["move_count"] == 9:
            g["status"], g["winner"], g["next_player"] = "draw", None, None
        else:
            g["next_player"] = "O" if player == "X" else "X"
        g["updated_at"] = stamp()
        view = game_view(g)
    return JSONResponse(view)


async def reset_game(request):
    with LOCK:
        g = find_game(request.path_params["game_id"])
        g.update(board=empty_board(), next_player="X", status="in_progress", winner=None,
                 move_count=0, last_move=None, updated_at=stamp())
        return JSONResponse(game_view(g))


async def leaderboard(request):
    raw = request.query_params.get("limit")
    limit = 10
    if raw is not None:
        try:
            limit = int(raw.strip())
        except ValueError:
            raise ApiError(400, "invalid_parameter", "'limit' must be an integer",
                           {"limit": raw})
        if limit < 1:
            raise ApiError(400, "invalid_parameter", "'limit' must be at least 1", {"limit": raw})
        limit = min(limit, 100)
    with LOCK:
        ranked = sorted(WINS.items(), key=lambda kv: (-kv[1], kv[0].lower(), kv[0]))
    items = [{"player": p, "wins": w} for p, w in ranked[:limit]]
    return JSONResponse({"items": items, "pagination": {"limit": limit, "total": len(ranked)}})


# ------------------------------------------------------------------ errors

async def on_api_error(request, exc):
    return error_response(exc.status, exc.code, exc.message, exc.details)


async def on_http_error(request, exc):
    if exc.status_code == 404:
        return error_response(404, "route_not_found", f"no route for {request.url.path}")
    if exc.status_code == 405:
        return error_response(405, "method_not_allowed",
                              f"{request.method} is not allowed on {request.url.path}",
                              headers=exc.headers)
    return error_response(exc.status_code, "http_error", str(exc.detail))


async def on_crash(request, exc):
    return error_response(500, "internal_error", "unexpected server failure")


app = Starlette(
    routes=[
        Route("/api/v1/health", health, methods=["GET"]),
        Route("/api/v1/games", create_game, methods=["POST"]),
        Route("/api/v1/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/v1/games/{game_id}/moves", make_move, methods=["POST"]),
        Route("/api/v1/games/{game_id}/reset", reset_game, methods=["POST"]),
        Route("/api/v1/leaderboard", leaderboard, methods=["GET"]),
    ],
    exception_handlers={ApiError: on_api_error, HTTPException: on_http_error, Exception: on_crash},
)


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host=os.environ.get("HOST", "0.0.0.0"), port=int(os.environ.get("PORT", "8082")),
                log_level="info")
