"""Task Management microservice: the golden implementation, written from the task's README.

Tasks live in memory (one process, guarded by a lock), so every start is a fresh store.
All routes sit under the documented base path `/api/v1`; every error uses the README's
unified body `{"error": {"code", "message", "details"}}`.
"""

import json
import math
import os
import threading
from datetime import date, datetime, timezone

from flask import Flask, Response, request

BASE = "/api/v1"
VERSION = "1.0.0"
PRIORITIES = ("low", "medium", "high")
STATUSES = ("pending", "in_progress", "completed")
TITLE_MAX = 200
DESCRIPTION_MAX = 1000
DEFAULT_LIMIT = 10
MAX_LIMIT = 100

app = Flask(__name__)
_lock = threading.Lock()
_tasks: dict[int, dict] = {}
_next_id = [1]


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
    if not raw.strip():
        raise ApiError(400, "bad_request", "Request body must be a JSON object")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "bad_request", f"Malformed JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "Request body must be a JSON object")
    return body


def check_title(value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise invalid("title", "title must be a non-empty string")
    if len(value) > TITLE_MAX:
        raise invalid("title", f"title must be at most {TITLE_MAX} characters")
    return value


def check_description(value) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise invalid("description", "description must be a string")
    if len(value) > DESCRIPTION_MAX:
        raise invalid("description", f"description must be at most {DESCRIPTION_MAX} characters")
    return value


def check_enum(field: str, value, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise invalid(field, f"{field} must be one of {', '.join(allowed)}")
    return value


def check_due_date(value) -> str | None:
    """ISO 8601 date or date-time (a trailing Z means UTC); stored as sent."""
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise invalid("due_date", "due_date must be an ISO 8601 date or date-time")
    text = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
    try:
        if "T" in text or " " in text:
            datetime.fromisoformat(text)
        else:
            date.fromisoformat(text)
    except ValueError:
        raise invalid("due_date", "due_date must be an ISO 8601 date or date-time") from None
    return value


@app.get(f"{BASE}/health")
def health() -> Response:
    return reply(200, {"status": "healthy", "timestamp": now(), "version": VERSION})


@app.post(f"{BASE}/tasks")
def create_task() -> Response:
    body = json_body()
    if "title" not in body:
        raise invalid("title", "title is required")
    if "priority" not in body:
        raise invalid("priority", "priority is required")
    task = {
        "title": check_title(body["title"]),
        "description": check_description(body.get("description")),
        "priority": check_enum("priority", body["priority"], PRIORITIES),
        "status": "pending",
        "due_date": check_due_date(body.get("due_date")),
    }
    with _lock:
        task_id = _next_id[0]
        _next_id[0] += 1
        stamp = now()
        task = {"id": task_id, **task, "created_at": stamp, "updated_at": stamp}
        _tasks[task_id] = task
        return reply(201, dict(task))


def query_int(name: str, default: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise invalid(name, f"{name} must be an integer") from None
    if value < 1:
        raise invalid(name, f"{name} must be at least 1")
    return value


@app.get(f"{BASE}/tasks")
def list_tasks() -> Response:
    page = query_int("page", 1)
    limit = min(query_int("limit", DEFAULT_LIMIT), MAX_LIMIT)
    status = request.args.get("status")
    priority = request.args.get("priority")
    if status is not None:
        check_enum("status", status, STATUSES)
    if priority is not None:
        check_enum("priority", priority, PRIORITIES)
    with _lock:
        matching = [dict(t) for _, t in sorted(_tasks.items())
                    if (status is None or t["status"] == status)
                    and (priority is None or t["priority"] == priority)]
    total = len(matching)
    start = (page - 1) * limit
    return reply(200, {
        "tasks": matching[start:start + limit],
        "pagination": {"page": page, "limit": limit, "total": total,
                       "pages": math.ceil(total / limit)},
    })


def lookup(task_id: int) -> dict:
    task = _tasks.get(task_id)
    if task is None:
        raise ApiError(404, "not_found", f"Task {task_id} not found")
    return task


@app.get(f"{BASE}/tasks/<int:task_id>")
def get_task(task_id: int) -> Response:
    with _lock:
        return reply(200, dict(lookup(task_id)))


@app.put(f"{BASE}/tasks/<int:task_id>")
def update_task(task_id: int) -> Response:
    with _lock:
        lookup(task_id)
    body = json_body()
    changes = {}
    if "title" in body:
        changes["title"] = check_title(body["title"])
    if "description" in body:
        changes["description"] = check_description(body["description"])
    if "priority" in body:
        changes["priority"] = check_enum("priority", body["priority"], PRIORITIES)
    if "status" in body:
        changes["status"] = check_enum("status", body["status"], STATUSES)
    if "due_date" in body:
        changes["due_date"] = check_due_date(body["due_date"])
    with _lock:
        task = lookup(task_id)
        task.update(changes)
        task["updated_at"] = now()
        return reply(200, dict(task))


@app.delete(f"{BASE}/tasks/<int:task_id>")
def delete_task(task_id: int) -> Response:
    with _lock:
        lookup(task_id)
        del _tasks[task_id]
    return reply(200, {"message": f"Task {task_id} deleted successfully"})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8080")), threaded=True)
