"""Movies CRUD API with user registration and JWT (HS256) access/refresh tokens.

Written from the requirement document: DRF-style bodies (`{"detail": ...}` and per-field
error lists), page-number pagination (`count`, `next`, `previous`, `results`), filters on the
movie attributes, and only a movie's creator may change or delete it. State is in memory.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from typing import Any
from urllib.parse import urlencode

from flask import Flask, Response, jsonify, request

ACCESS_TTL_S = 5 * 60
REFRESH_TTL_S = 24 * 3600
DEFAULT_PAGE_SIZE = 10
MAX_PAGE_SIZE = 100
SECRET = secrets.token_bytes(32)

app = Flask(__name__)
app.json.sort_keys = False
_lock = threading.Lock()
_users: dict[str, dict[str, Any]] = {}  # username -> user
_movies: dict[int, dict[str, Any]] = {}
_next_movie_id = 1
_next_user_id = 1


# --- tokens ---------------------------------------------------------------------------------

def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def make_token(user_id: int, kind: str, ttl_s: int) -> str:
    header = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = _b64(json.dumps({"token_type": kind, "exp": int(time.time()) + ttl_s,
                               "jti": secrets.token_hex(16), "user_id": user_id}).encode())
    signature = hmac.new(SECRET, f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{_b64(signature)}"


def read_token(token: str, kind: str) -> dict[str, Any] | None:
    """The token's claims when it is ours, unexpired and of `kind`; otherwise None."""
    try:
        header, payload, signature = token.split(".")
        expected = hmac.new(SECRET, f"{header}.{payload}".encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(expected, _unb64(signature)):
            return None
        claims = json.loads(_unb64(payload))
    except (ValueError, json.JSONDecodeError):
        return None
    if claims.get("token_type") != kind or claims.get("exp", 0) < time.time():
        return None
    return claims


# --- helpers --------------------------------------------------------------------------------

def error(status: int, body: dict[str, Any], **headers: str) -> Response:
    response = jsonify(body)
    response.status_code = status
    response.headers.update(headers)
    return response


def body() -> dict[str, Any] | Response:
    """The request's fields, from JSON or a form; a DRF-style 400 for a malformed JSON body."""
    if request.is_json:
        data = request.get_json(silent=True)
        if data is None and request.get_data():
            return error(400, {"detail": "JSON parse error - the request body is not valid JSON."})
        if data is not None and not isinstance(data, dict):
            return error(400, {"non_field_errors": ["Invalid data. Expected a dictionary."]})
        return data or {}
    return request.form.to_dict()


def hash_password(password: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 20_000)


def current_user() -> dict[str, Any] | Response:
    auth = request.headers.get("Authorization", "")
    if not auth:
        return error(401, {"detail": "Authentication credentials were not provided."},
                     **{"WWW-Authenticate": 'Bearer realm="api"'})
    scheme, _, token = auth.partition(" ")
    claims = read_token(token.strip(), "access") if scheme.lower() == "bearer" else None
    user = next((u for u in _users.values() if claims and u["id"] == claims["user_id"]), None)
    if user is None:
        return error(401, {"detail": "Given token not valid for any token type",
                           "code": "token_not_valid"},
                     **{"WWW-Authenticate": 'Bearer realm="api"'})
    return user


# --- auth -----------------------------------------------------------------------------------

REGISTER_FIELDS = ("username", "password", "password2", "email", "first_name", "last_name")


@app.post("/api/v1/auth/register/")
def register() -> Response:
    global _next_user_id
    data = body()
    if isinstance(data, Response):
        return data
    errors: dict[str, list[str]] = {}
    for name in REGISTER_FIELDS:
        if not str(data.get(name) or "").strip():
            errors[name] = ["This field is required."]
    email = str(data.get("email") or "").strip()
    if email and ("@" not in email or "." not in email.rsplit("@", 1)[-1]):
        errors["email"] = ["Enter a valid email address."]
    if "password" not in errors and "password2" not in errors \
            and data["password"] != data["password2"]:
        errors["password"] = ["Password fields didn't match."]
    with _lock:
        username = str(data.get("username") or "").strip()
        if username in _users:
            errors["username"] = ["A user with that username already exists."]
        if email and any(u["email"].lower() == email.lower() for u in _users.values()):
            errors["email"] = ["This field must be unique."]
        if errors:
            return error(400, errors)
        salt = secrets.token_bytes(16)
        _users[username] = {
            "id": _next_user_id, "username": username, "email": email,
            "first_name": str(data["first_name"]), "last_name": str(data["last_name"]),
            "salt": salt, "password": hash_password(str(data["password"]), salt),
        }
        _next_user_id += 1
    user = _users[username]
    return error(201, {k: user[k] for k in ("username", "email", "first_name", "last_name")})


@app.post("/api/v1/auth/token/")
def obtain_token() -> Response:
    data = body()
    if isinstance(data, Response):
        return data
    missing = {n: ["This field is required."] for n in ("username", "password")
               if not str(data.get(n) or "")}
    if missing:
        return error(400, missing)
    user = _users.get(str(data["username"]))
    if user is None or not hmac.compare_digest(
            user["password"], hash_password(str(data["password"]), user["salt"])):
        return error(401, {"detail": "No active account found with the given credentials"})
    return jsonify({"refresh": make_token(user["id"], "refresh", REFRESH_TTL_S),
                    "access": make_token(user["id"], "access", ACCESS_TTL_S)})


@app.post("/api/v1/auth/token/refresh/")
def refresh_token() -> Response:
    data = body()
    if isinstance(data, Response):
        return data
    if not str(data.get("refresh") or ""):
        return error(400, {"refresh": ["This field is required."]})
    claims = read_token(str(data["refresh"]), "refresh")
    if claims is None or not any(u["id"] == claims["user_id"] for u in _users.values()):
        return error(401, {"detail": "Token is invalid or expired", "code": "token_not_valid"})
    return jsonify({"access": make_token(claims["user_id"], "access", ACCESS_TTL_S)})


# --- movies ---------------------------------------------------------------------------------

def movie_json(movie: dict[str, Any]) -> dict[str, Any]:
    return {k: movie[k] for k in ("id", "title", "genre", "year", "creator")}


def validate_movie(data: dict[str, Any], partial: bool) -> tuple[dict[str, Any], dict]:
    clean: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for name, limit in (("title", 100), ("genre", 100)):
        if name not in data:
            if not partial:
                errors[name] = ["This field is required."]
            continue
        value = str(data[name] if data[name] is not None else "").strip()
        if not value:
            errors[name] = ["This field may not be blank."]
        elif len(value) > limit:
            errors[name] = [f"Ensure this field has no more than {limit} characters."]
        else:
            clean[name] = value
    if "year" in data:
        year = data["year"]
        try:
            if isinstance(year, bool) or (isinstance(year, float) and not year.is_integer()):
                raise ValueError
            clean["year"] = int(str(year).strip()) if not isinstance(year, int) else year
        except (TypeError, ValueError):
            errors["year"] = ["A valid integer is required."]
    elif not partial:
        errors["year"] = ["This field is required."]
    return clean, errors


def int_param(name: str, default: int) -> int | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        return None


def matches(movie: dict[str, Any]) -> bool:
    args = request.args
    for name, key in (("title", "title"), ("genre", "genre"),
                      ("creator__username", "creator")):
        wanted = args.get(name, "").strip().strip('"').lower()
        if wanted and wanted not in movie[key].lower():
            return False
    for name, test in (("year", lambda y, v: y == v), ("year__gt", lambda y, v: y > v),
                       ("year__lt", lambda y, v: y < v)):
        raw = args.get(name, "").strip().strip('"')
        if raw:
            try:
                if not test(movie["year"], int(raw)):
                    return False
            except ValueError:
                return False
    return True


def page_link(page: int) -> str:
    query = request.args.to_dict()
    query["page"] = str(page)
    return f"{request.base_url}?{urlencode(query)}"


@app.get("/api/v1/movies/")
def list_movies() -> Response:
    user = current_user()
    if isinstance(user, Response):
        return user
    page, size = int_param("page", 1), int_param("page_size", DEFAULT_PAGE_SIZE)
    if page is None or page < 1:
        return error(404, {"detail": "Invalid page."})
    size = DEFAULT_PAGE_SIZE if size is None or size < 1 else min(size, MAX_PAGE_SIZE)
    with _lock:
        found = [movie_json(m) for _, m in sorted(_movies.items()) if matches(m)]
    pages = max(1, -(-len(found) // size))
    if page > pages:
        return error(404, {"detail": "Invalid page."})
    return jsonify({
        "count": len(found),
        "next": page_link(page + 1) if page < pages else None,
        "previous": page_link(page - 1) if page > 1 else None,
        "results": found[(page - 1) * size: page * size],
    })


@app.post("/api/v1/movies/")
def create_movie() -> Response:
    global _next_movie_id
    user = current_user()
    if isinstance(user, Response):
        return user
    data = body()
    if isinstance(data, Response):
        return data
    clean, errors = validate_movie(data, partial=False)
    if errors:
        return error(400, errors)
    with _lock:
        movie = {"id": _next_movie_id, **clean, "creator": user["username"]}
        _movies[_next_movie_id] = movie
        _next_movie_id += 1
    return error(201, movie_json(movie))


def owned_movie(movie_id: int, user: dict[str, Any], write: bool) -> dict[str, Any] | Response:
    movie = _movies.get(movie_id)
    if movie is None:
        return error(404, {"detail": "Not found."})
    if write and movie["creator"] != user["username"]:
        return error(403, {"detail": "You do not have permission to perform this action."})
    return movie


@app.route("/api/v1/movies/<int:movie_id>/", methods=["GET", "PUT", "PATCH", "DELETE"])
def one_movie(movie_id: int) -> Response:
    user = current_user()
    if isinstance(user, Response):
        return user
    with _lock:
        movie = owned_movie(movie_id, user, write=request.method != "GET")
        if isinstance(movie, Response):
            return movie
        if request.method == "GET":
            return jsonify(movie_json(movie))
        if request.method == "DELETE":
            del _movies[movie_id]
            return Response(status=204)
        data = body()
        if isinstance(data, Response):
            return data
        clean, errors = validate_movie(data, partial=request.method == "PATCH")
        if errors:
            return error(400, errors)
        movie.update(clean)
        return jsonify(movie_json(movie))


@app.errorhandler(404)
def not_found(_exc: Exception) -> Response:
    return error(404, {"detail": "Not found."})


@app.errorhandler(405)
def not_allowed(_exc: Exception) -> Response:
    return error(405, {"detail": f'Method "{request.method}" not allowed.'})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8000")), threaded=True)
