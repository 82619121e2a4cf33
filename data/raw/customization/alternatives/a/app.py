"""Personalization API (favorites, likes, history) -- an independent Flask implementation.

Written from the task README alone. State lives in memory behind one lock; a fresh start is empty.
"""
import base64
import hashlib
import json
import math
import os
import threading
import time
from datetime import datetime, timedelta, timezone

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

app = Flask(__name__)
app.url_map.strict_slashes = False

LOCK = threading.Lock()
CONTENT_TYPES = ("post", "article", "product", "video")
LIKE_ACTIONS = ("like", "unlike")
HISTORY_ACTIONS = ("view", "search", "share", "download")

# in-memory store: id -> record (dicts keep insertion order, i.e. chronological order)
FAVORITES = {}
LIKES = {}
HISTORY = {}
COUNTERS = {"fav": 1000, "lk": 1000, "hst": 1000}


class ApiError(Exception):
    def __init__(self, status, error, message, details=None):
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.details = details


def json_response(payload, status=200, headers=None):
    resp = Response(json.dumps(payload), status=status, mimetype="application/json")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def error_body(error, message, details=None):
    body = {"error": error, "message": message}
    if details is not None:
        body["details"] = details
    return body


@app.errorhandler(ApiError)
def handle_api_error(exc):
    headers = {}
    if exc.status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return json_response(error_body(exc.error, exc.message, exc.details), exc.status, headers)


@app.errorhandler(HTTPException)
def handle_http_exception(exc):
    names = {404: "not_found", 405: "method_not_allowed", 400: "bad_request"}
    return json_response(
        error_body(names.get(exc.code, "http_error"), exc.description or exc.name),
        exc.code,
    )


@app.errorhandler(Exception)
def handle_unexpected(exc):  # pragma: no cover - safety net
    return json_response(error_body("internal_error", "An unexpected error occurred."), 500)


# ---------------------------------------------------------------- helpers

def now_utc():
    return datetime.now(timezone.utc)


def iso(dt):
    return dt.isoformat(timespec="microseconds")


def next_id(kind):
    COUNTERS[kind] += 1
    return f"{kind}_{COUNTERS[kind]}"


def _b64json(segment):
    padded = segment + "=" * (-len(segment) % 4)
    return json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))


def user_from_token(token):
    """Any non-empty bearer token is accepted.

    A JWT-shaped token whose payload decodes is read (without signature check): an expired
    `exp` is refused and `sub` / `user_id` / `uid` / `id` becomes the user id. Any other token
    is opaque and maps to a stable id derived from it.
    """
    parts = token.split(".")
    if len(parts) == 3:
        try:
            payload = _b64json(parts[1])
        except Exception:
            payload = None
        if isinstance(payload, dict):
            exp = payload.get("exp")
            if isinstance(exp, (int, float)) and exp < time.time():
                raise ApiError(401, "unauthorized", "The access token has expired.")
            for key in ("sub", "user_id", "uid", "id", "username"):
                if payload.get(key) not in (None, ""):
                    return str(payload[key])
    return "u_" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:16]


def bearer_token():
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def require_user():
    token = bearer_token()
    if token is None:
        raise ApiError(401, "unauthorized", "A valid Bearer token is required.")
    return user_from_token(token)


def optional_user():
    token = bearer_token()
    if token is None:
        return None
    try:
        return user_from_token(token)
    except ApiError:
        return None


def read_body():
    raw = request.get_data(cache=True)
    if not raw or not raw.strip():
        raise ApiError(400, "bad_request", "A JSON object body is required.")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_request", "The request body is not valid JSON.")
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "The request body must be a JSON object.")
    return body


class Validator:
    def __init__(self, body):
        self.body = body
        self.problems = {}

    def string(self, name, required=False, choices=None):
        value = self.body.get(name)
        if value is None:
            if required:
                self.problems[name] = "field is required"
            return None
        if not isinstance(value, str):
            self.problems[name] = "must be a string"
            return None
        if required and not value.strip():
            self.problems[name] = "must not be empty"
            return None
        if choices is not None and value not in choices:
            self.problems[name] = "must be one of: " + ", ".join(choices)
            return None
        return value

    def obj(self, name):
        value = self.body.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.problems[name] = "must be a JSON object"
            return None
        return value

    def done(self):
        if self.problems:
            raise ApiError(422, "validation_error", "The request data failed validation.",
                           {"fields": self.problems})


def int_param(name, default, maximum):
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(400, "bad_request", f"Query parameter '{name}' must be an integer.")
    if value < 1:
        raise ApiError(400, "bad_request", f"Query parameter '{name}' must be at least 1.")
    if maximum is not None and value > maximum:
        value = maximum  # clamp to the documented maximum
    return value


def date_param(name, end=False):
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    text = raw.strip().replace(" ", "+") if "T" in raw else raw.strip()
    if text.endswith("Z") or text.endswith("z"):
        text = text[:-1] + "+00:00"
    try:
        if len(text) == 10:  # date only
            day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=timezone.utc)
            return day + timedelta(days=1) - timedelta(microseconds=1) if end else day
        value = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(400, "bad_request", f"Query parameter '{name}' must be an ISO 8601 date or datetime.")
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def paginate(items, page, limit):
    total = len(items)
    pages = max(1, math.ceil(total / limit))
    start = (page - 1) * limit
    return items[start:start + limit], {"page": page, "limit": limit, "total": total, "pages": pages}


def content_info(content_id, content_type, with_thumbnail):
    if not content_id:
        return None
    kind = content_type or "content"
    info = {
        "title": f"{kind.capitalize()} {content_id}",
        "summary": f"Summary of {kind} {content_id}.",
    }
    if with_thumbnail:
        info["thumbnail"] = f"/static/thumbnails/{kind}/{content_id}.jpg"
    return info


def owned_record(store, record_id, user_id, label):
    record = store.get(record_id)
    if record is None:
        raise ApiError(404, "not_found", f"{label} '{record_id}' was not found.")
    if record["user_id"] != user_id:
        raise ApiError(403, "forbidden", f"{label} '{record_id}' belongs to another user.")
    return record


# ---------------------------------------------------------------- service endpoints

@app.get("/health")
def health():
    return json_response({"status": "healthy", "service": "personalization-api", "time": iso(now_utc())})


@app.get("/")
def root():
    return json_response({"service": "Personalization API", "base_path": "/api/v1", "docs": "/docs"})


OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "Personalization API", "version": "1.0.0"},
    "paths": {
        "/api/v1/favorites": {"get": {"summary": "Get favorites list"}, "post": {"summary": "Add favorite"}},
        "/api/v1/favorites/{favorite_id}": {"delete": {"summary": "Delete favorite"}},
        "/api/v1/likes": {"post": {"summary": "Like or unlike content"}},
        "/api/v1/likes/stats/{content_id}": {"get": {"summary": "Get like stats"}},
        "/api/v1/likes/history": {"get": {"summary": "Get user like history"}},
        "/api/v1/history": {"get": {"summary": "Get history records"}, "post": {"summary": "Record user action"},
                            "delete": {"summary": "Clear history records"}},
        "/api/v1/history/{history_id}": {"delete": {"summary": "Delete history record"}},
        "/health": {"get": {"summary": "Health check"}},
    },
    "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
}


@app.get("/openapi.json")
def openapi():
    return json_response(OPENAPI)


@app.get("/docs")
def docs():
    rows = "".join(
        f"<li><code>{m.upper()} {p}</code> &mdash; {op['summary']}</li>"
        for p, ops in OPENAPI["paths"].items() for m, op in ops.items()
    )
    html = f"<!doctype html><html><head><title>Personalization API</title></head><body>" \
           f"<h1>Personalization API</h1><p>Schema: <a href='/openapi.json'>/openapi.json</a></p>" \
           f"<ul>{rows}</ul></body></html>"
    return Response(html, mimetype="text/html")


# ---------------------------------------------------------------- favorites

@app.post("/api/v1/favorites")
def add_favorite():
    user_id = require_user()
    v = Validator(read_body())
    content_id = v.string("content_id", required=True)
    content_type = v.string("content_type", required=True, choices=CONTENT_TYPES)
    category = v.string("category")
    v.done()
    with LOCK:
        for fav in FAVORITES.values():
            if fav["user_id"] == user_id and fav["content_id"] == content_id \
                    and fav["content_type"] == content_type:
                raise ApiError(409, "conflict", "This content is already in your favorites.",
                               {"favorite_id": fav["id"]})
        stamp = iso(now_utc())
        fav = {
            "id": next_id("fav"),
            "user_id": user_id,
            "content_id": content_id,
            "content_type": content_type,
            "category": category,
            "created_at": stamp,
            "updated_at": stamp,
        }
        FAVORITES[fav["id"]] = fav
        return json_response(dict(fav), 201)


@app.get("/api/v1/favorites")
def list_favorites():
    user_id = require_user()
    page = int_param("page", 1, None)
    limit = int_param("limit", 10, 100)
    content_type = request.args.get("content_type") or None
    category = request.args.get("category") or None
    with LOCK:
        items = [
            f for f in FAVORITES.values()
            if f["user_id"] == user_id
            and (content_type is None or f["content_type"] == content_type)
            and (category is None or f["category"] == category)
        ]
        chunk, pagination = paginate(items, page, limit)
        out = []
        for f in chunk:
            row = dict(f)
            row["content_info"] = content_info(f["content_id"], f["content_type"], True)
            out.append(row)
    return json_response({"favorites": out, "pagination": pagination})


@app.delete("/api/v1/favorites/<favorite_id>")
def delete_favorite(favorite_id):
    user_id = require_user()
    with LOCK:
        owned_record(FAVORITES, favorite_id, user_id, "Favorite")
        del FAVORITES[favorite_id]
    return json_response({"message": f"Favorite {favorite_id} has been removed.", "id": favorite_id})


# ---------------------------------------------------------------- likes

@app.post("/api/v1/likes")
def add_like():
    user_id = require_user()
    v = Validator(read_body())
    content_id = v.string("content_id", required=True)
    content_type = v.string("content_type", required=True, choices=CONTENT_TYPES)
    action = v.string("action", required=True, choices=LIKE_ACTIONS)
    v.done()
    with LOCK:
        stamp = iso(now_utc())
        rec = {
            "id": next_id("lk"),
            "user_id": user_id,
            "content_id": content_id,
            "content_type": content_type,
            "action": action,
            "created_at": stamp,
            "updated_at": stamp,
        }
        LIKES[rec["id"]] = rec
        return json_response(dict(rec), 201)


def latest_actions(content_id):
    """user_id -> latest like record for the content (each POST is logged; the last one counts)."""
    latest = {}
    for rec in LIKES.values():
        if rec["content_id"] == content_id:
            latest[rec["user_id"]] = rec
    return latest


@app.get("/api/v1/likes/stats/<content_id>")
def like_stats(content_id):
    user_id = optional_user()
    with LOCK:
        latest = latest_actions(content_id)
        last_any = None
        for rec in LIKES.values():
            if rec["content_id"] == content_id:
                last_any = rec
        mine = latest.get(user_id) if user_id else None
        return json_response({
            "content_id": content_id,
            "content_type": last_any["content_type"] if last_any else None,
            "total_likes": sum(1 for r in latest.values() if r["action"] == "like"),
            "total_unlikes": sum(1 for r in latest.values() if r["action"] == "unlike"),
            "user_action": mine["action"] if mine else None,
        })


@app.get("/api/v1/likes/history")
def like_history():
    user_id = require_user()
    page = int_param("page", 1, None)
    limit = int_param("limit", 10, 50)
    content_type = request.args.get("content_type") or None
    with LOCK:
        items = [
            dict(r) for r in LIKES.values()
            if r["user_id"] == user_id and (content_type is None or r["content_type"] == content_type)
        ]
    chunk, pagination = paginate(items, page, limit)
    return json_response({"likes": chunk, "pagination": pagination})


# ---------------------------------------------------------------- history

@app.post("/api/v1/history")
def record_history():
    user_id = require_user()
    v = Validator(read_body())
    action = v.string("action", required=True, choices=HISTORY_ACTIONS)
    content_id = v.string("content_id")
    content_type = v.string("content_type")
    metadata = v.obj("metadata")
    session_id = v.string("session_id")
    v.done()
    forwarded = request.headers.get("X-Forwarded-For", "")
    ip_address = forwarded.split(",")[0].strip() if forwarded else (request.remote_addr or "")
    with LOCK:
        rec = {
            "id": next_id("hst"),
            "user_id": user_id,
            "action": action,
            "content_id": content_id,
            "content_type": content_type,
            "metadata": metadata if metadata is not None else {},
            "session_id": session_id,
            "created_at": iso(now_utc()),
            "ip_address": ip_address,
            "user_agent": request.headers.get("User-Agent", ""),
        }
        rec["_ts"] = now_utc()
        HISTORY[rec["id"]] = rec
        return json_response(public_history(rec), 201)


def public_history(rec):
    return {k: v for k, v in rec.items() if not k.startswith("_")}


@app.get("/api/v1/history")
def list_history():
    user_id = require_user()
    page = int_param("page", 1, None)
    limit = int_param("limit", 20, 100)
    action = request.args.get("action") or None
    content_type = request.args.get("content_type") or None
    session_id = request.args.get("session_id") or None
    start = date_param("start_date")
    end = date_param("end_date", end=True)
    with LOCK:
        items = [
            r for r in HISTORY.values()
            if r["user_id"] == user_id
            and (action is None or r["action"] == action)
            and (content_type is None or r["content_type"] == content_type)
            and (session_id is None or r["session_id"] == session_id)
            and (start is None or r["_ts"] >= start)
            and (end is None or r["_ts"] <= end)
        ]
        chunk, pagination = paginate(items, page, limit)
        out = []
        for r in chunk:
            row = public_history(r)
            row["content_info"] = content_info(r["content_id"], r["content_type"], False)
            out.append(row)
    return json_response({"history": out, "pagination": pagination})


@app.delete("/api/v1/history/<history_id>")
def delete_history(history_id):
    user_id = require_user()
    with LOCK:
        owned_record(HISTORY, history_id, user_id, "History record")
        del HISTORY[history_id]
    return json_response({"message": f"History record {history_id} has been deleted.", "id": history_id})


@app.delete("/api/v1/history")
def clear_history():
    user_id = require_user()
    with LOCK:
        ids = [k for k, r in HISTORY.items() if r["user_id"] == user_id]
        for k in ids:
            del HISTORY[k]
    return json_response({"message": f"Cleared {len(ids)} history record(s).", "deleted_count": len(ids)})


if __name__ == "__main__":
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "8082"))
    app.run(host=host, port=port, threaded=True, debug=False, use_reloader=False)
