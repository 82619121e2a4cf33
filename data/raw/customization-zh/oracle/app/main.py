"""Personalization service: favorites, likes and action history per user, in memory.

Written from the requirement document. Every endpoint but the like statistics needs a bearer
token; the token identifies the user (there is no account service, so any non-empty token is
a user of its own). Errors share one body: {"error", "message", "details"}. Bodies are parsed
by hand so that malformed JSON is a 400 and a well-formed body with bad fields a 422.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import uuid
from datetime import date, datetime, timedelta, timezone
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

CONTENT_TYPES = ("post", "article", "product", "video")
LIKE_ACTIONS = ("like", "unlike")
HISTORY_ACTIONS = ("view", "search", "share", "download")
VERSION = "1.0.0"
UTC = timezone.utc  # datetime.UTC needs Python 3.11

app = FastAPI(title="Personalization API", version=VERSION)
_lock = threading.Lock()
_favorites: dict[str, dict[str, Any]] = {}
_likes: dict[str, dict[str, Any]] = {}
_history: dict[str, dict[str, Any]] = {}


class ApiError(Exception):
    def __init__(self, status: int, error: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.status, self.error, self.message, self.details = status, error, message, details


def error_body(error: str, message: str, details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"error": error, "message": message}
    if details is not None:
        body["details"] = details
    return body


@app.exception_handler(ApiError)
async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
    return JSONResponse(error_body(exc.error, exc.message, exc.details), exc.status,
                        headers=headers)


@app.exception_handler(StarletteHTTPException)
async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
    names = {404: "not_found", 405: "method_not_allowed"}
    return JSONResponse(error_body(names.get(exc.status_code, "http_error"), str(exc.detail)),
                        exc.status_code)


@app.exception_handler(RequestValidationError)
async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
    return JSONResponse(error_body("validation_error", "Request validation failed",
                                   {"errors": exc.errors()}), 422)


def now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def user_of(request: Request, required: bool = True) -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        if required:
            raise ApiError(401, "unauthorized", "A bearer token is required")
        return None
    return "user_" + hashlib.sha256(token.strip().encode()).hexdigest()[:16]


async def json_object(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        data = json.loads(raw) if raw.strip() else None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError(400, "bad_request", "Request body is not valid JSON") from exc
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "Request body must be a JSON object")
    return data


def check_fields(data: dict[str, Any], rules: dict[str, tuple[bool, tuple[str, ...] | None]],
                 ) -> dict[str, Any]:
    """rules: field -> (required, allowed values or None). Strings only; 422 listing problems."""
    problems: dict[str, str] = {}
    clean: dict[str, Any] = {}
    for name, (required, allowed) in rules.items():
        value = data.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                problems[name] = "field required"
            continue
        if not isinstance(value, str):
            problems[name] = "must be a string"
        elif len(value) > 255:
            problems[name] = "must be at most 255 characters"
        elif allowed is not None and value not in allowed:
            problems[name] = "must be one of: " + ", ".join(allowed)
        else:
            clean[name] = value
    if problems:
        raise ApiError(422, "validation_error", "Request data failed validation", problems)
    return clean


def page_args(request: Request, default_limit: int, max_limit: int) -> tuple[int, int]:
    """page >= 1 and limit >= 1; a limit above the maximum is capped to it."""
    out = []
    for name, default in (("page", 1), ("limit", default_limit)):
        raw = request.query_params.get(name)
        try:
            value = default if raw in (None, "") else int(raw)
        except ValueError:
            value = 0
        if value < 1:
            raise ApiError(422, "validation_error", f"{name} must be a positive integer",
                           {name: raw})
        out.append(value)
    return out[0], min(out[1], max_limit)


def paginate(items: list[dict[str, Any]], page: int, limit: int) -> tuple[list, dict]:
    total = len(items)
    info = {"page": page, "limit": limit, "total": total, "pages": math.ceil(total / limit)}
    return items[(page - 1) * limit: page * limit], info


def newest_first(records: dict[str, dict[str, Any]], user: str) -> list[dict[str, Any]]:
    mine = [r for r in records.values() if r["user_id"] == user]
    return sorted(mine, key=lambda r: r["_seq"], reverse=True)


_seq = iter(range(1, 1 << 62))


def public(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if not k.startswith("_")}


def content_info(content_id: str, content_type: str) -> dict[str, str]:
    """There is no content catalogue behind this service: a title derived from the ids."""
    label = content_type.capitalize() if content_type else "Content"
    return {"title": f"{label} {content_id}".strip(), "summary": ""}


@app.get("/health")
async def health() -> dict[str, str]:
    return {"status": "healthy", "timestamp": now(), "version": VERSION}


# --- favorites ------------------------------------------------------------------------------

@app.post("/api/v1/favorites", status_code=201)
async def add_favorite(request: Request) -> dict[str, Any]:
    user = user_of(request)
    data = check_fields(await json_object(request), {
        "content_id": (True, None), "content_type": (True, CONTENT_TYPES),
        "category": (False, None)})
    stamp = now()
    record = {"id": uuid.uuid4().hex, "user_id": user, "content_id": data["content_id"],
              "content_type": data["content_type"], "category": data.get("category"),
              "created_at": stamp, "updated_at": stamp, "_seq": next(_seq)}
    with _lock:
        _favorites[record["id"]] = record
    return public(record)


@app.get("/api/v1/favorites")
async def list_favorites(request: Request) -> dict[str, Any]:
    user = user_of(request)
    page, limit = page_args(request, 10, 100)
    content_type = request.query_params.get("content_type")
    category = request.query_params.get("category")
    with _lock:
        found = [r for r in newest_first(_favorites, user)
                 if (not content_type or r["content_type"] == content_type)
                 and (not category or r["category"] == category)]
    items, info = paginate(found, page, limit)
    return {"favorites": [
        {**{k: r[k] for k in ("id", "content_id", "content_type", "category", "created_at")},
         "content_info": {**content_info(r["content_id"], r["content_type"]),
                          "thumbnail": ""}}
        for r in items], "pagination": info}


@app.delete("/api/v1/favorites/{favorite_id}")
async def delete_favorite(favorite_id: str, request: Request) -> dict[str, str]:
    user = user_of(request)
    with _lock:
        record = _favorites.get(favorite_id)
        if record is None or record["user_id"] != user:
            raise ApiError(404, "not_found", f"Favorite {favorite_id} not found")
        del _favorites[favorite_id]
    return {"message": "Favorite deleted successfully"}


# --- likes ----------------------------------------------------------------------------------

@app.post("/api/v1/likes", status_code=201)
async def add_like(request: Request) -> dict[str, Any]:
    user = user_of(request)
    data = check_fields(await json_object(request), {
        "content_id": (True, None), "content_type": (True, CONTENT_TYPES),
        "action": (True, LIKE_ACTIONS)})
    stamp = now()
    record = {"id": uuid.uuid4().hex, "user_id": user, **data,
              "created_at": stamp, "updated_at": stamp, "_seq": next(_seq)}
    with _lock:
        _likes[record["id"]] = record
    return public(record)


@app.get("/api/v1/likes/stats/{content_id}")
async def like_stats(content_id: str, request: Request) -> dict[str, Any]:
    """Each user counts once, by their latest action on the content."""
    user = user_of(request, required=False)
    with _lock:
        records = sorted((r for r in _likes.values() if r["content_id"] == content_id),
                         key=lambda r: r["_seq"])
    latest = {r["user_id"]: r["action"] for r in records}
    return {
        "content_id": content_id,
        "content_type": records[-1]["content_type"] if records else None,
        "total_likes": sum(1 for a in latest.values() if a == "like"),
        "total_unlikes": sum(1 for a in latest.values() if a == "unlike"),
        "user_action": latest.get(user) if user else None,
    }


@app.get("/api/v1/likes/history")
async def like_history(request: Request) -> dict[str, Any]:
    user = user_of(request)
    page, limit = page_args(request, 10, 50)
    content_type = request.query_params.get("content_type")
    with _lock:
        found = [r for r in newest_first(_likes, user)
                 if not content_type or r["content_type"] == content_type]
    items, info = paginate(found, page, limit)
    keys = ("id", "content_id", "content_type", "action", "created_at")
    return {"likes": [{k: r[k] for k in keys} for r in items], "pagination": info}


# --- history --------------------------------------------------------------------------------

def parse_when(raw: str, name: str, end: bool) -> datetime:
    """ISO 8601 date or date-time (UTC if no offset); a bare end date covers its whole day."""
    text = raw.strip().replace("Z", "+00:00")
    try:
        if len(text) == 10:
            day = datetime.combine(date.fromisoformat(text), datetime.min.time(), UTC)
            return day + timedelta(days=1) if end else day
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise ApiError(422, "validation_error", f"{name} must be an ISO 8601 date",
                       {name: raw}) from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@app.post("/api/v1/history", status_code=201)
async def record_action(request: Request) -> dict[str, Any]:
    user = user_of(request)
    body = await json_object(request)
    data = check_fields(body, {"action": (True, HISTORY_ACTIONS), "content_id": (False, None),
                               "content_type": (False, None), "session_id": (False, None)})
    metadata = body.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise ApiError(422, "validation_error", "Request data failed validation",
                       {"metadata": "must be an object"})
    record = {"id": uuid.uuid4().hex, "user_id": user, "action": data["action"],
              "content_id": data.get("content_id", ""),
              "content_type": data.get("content_type", ""), "metadata": metadata or {},
              "session_id": data.get("session_id", ""), "created_at": now(),
              "ip_address": request.client.host if request.client else "",
              "user_agent": request.headers.get("User-Agent", ""),
              "_seq": next(_seq), "_at": datetime.now(UTC)}
    with _lock:
        _history[record["id"]] = record
    return public(record)


@app.get("/api/v1/history")
async def list_history(request: Request) -> dict[str, Any]:
    user = user_of(request)
    page, limit = page_args(request, 20, 100)
    query = request.query_params
    start = parse_when(query["start_date"], "start_date", False) if query.get("start_date") \
        else None
    end = parse_when(query["end_date"], "end_date", True) if query.get("end_date") else None
    exact = {k: query[k] for k in ("action", "content_type", "session_id") if query.get(k)}
    with _lock:
        found = [r for r in newest_first(_history, user)
                 if all(r[k] == v for k, v in exact.items())
                 and (start is None or r["_at"] >= start)
                 and (end is None or r["_at"] < end or (len(query["end_date"].strip()) > 10
                                                       and r["_at"] <= end))]
    items, info = paginate(found, page, limit)
    keys = ("id", "action", "content_id", "content_type", "metadata", "session_id", "created_at")
    return {"history": [{**{k: r[k] for k in keys},
                         "content_info": content_info(r["content_id"], r["content_type"])}
                        for r in items], "pagination": info}


@app.delete("/api/v1/history/{history_id}")
async def delete_record(history_id: str, request: Request) -> dict[str, str]:
    user = user_of(request)
    with _lock:
        record = _history.get(history_id)
        if record is None or record["user_id"] != user:
            raise ApiError(404, "not_found", f"History record {history_id} not found")
        del _history[history_id]
    return {"message": "History record deleted successfully"}


@app.delete("/api/v1/history")
async def clear_history(request: Request) -> dict[str, Any]:
    user = user_of(request)
    with _lock:
        mine = [k for k, r in _history.items() if r["user_id"] == user]
        for key in mine:
            del _history[key]
    return {"message": "History cleared successfully", "deleted_count": len(mine)}
