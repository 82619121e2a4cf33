"""Task management microservice -- independent implementation.

Standard library only (http.server, ThreadingHTTPServer), in-memory state behind a lock.
Written from README.md alone; see NOTES.md for the open choices.
"""
import json
import math
import os
import re
import sys
import threading
from datetime import date, datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

VERSION = "1.0.0"
PRIORITIES = ("low", "medium", "high")
STATUSES = ("pending", "in_progress", "completed")
FIRST_ID = int(os.environ.get("TASK_FIRST_ID", "101"))

LOCK = threading.Lock()
TASKS = {}
NEXT_ID = [FIRST_ID]

TASKS_PATH = re.compile(r"^/api/v1/tasks/?$")
TASK_PATH = re.compile(r"^/api/v1/tasks/([^/]+)/?$")
HEALTH_PATH = re.compile(r"^/api/v1/health/?$")
DOCS_PATH = re.compile(r"^/api/v1/openapi\.json$")
INT_RE = re.compile(r"^[0-9]+$")


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


class ApiError(Exception):
    def __init__(self, status, code, message, details=None, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers or {}


def bad_param(message, details=None):
    return ApiError(400, "BAD_REQUEST", message, details)


def invalid(errors):
    return ApiError(422, "VALIDATION_FAILED", "Task data is invalid: " + "; ".join(
        "%s %s" % (k, v) for k, v in errors.items()), {"fields": errors})


def is_iso8601(value):
    if not isinstance(value, str) or not value.strip():
        return False
    v = value.strip()
    try:
        datetime.fromisoformat(v)
        return True
    except ValueError:
        pass
    try:
        date.fromisoformat(v)
        return True
    except ValueError:
        return False


def check_fields(data, creating):
    """Validate a create (all rules) or update (every field optional) payload."""
    errors = {}
    clean = {}

    if "title" in data:
        t = data["title"]
        if not isinstance(t, str):
            errors["title"] = "must be a string"
        elif not t.strip():
            errors["title"] = "must not be empty"
        elif len(t) > 200:
            errors["title"] = "must be at most 200 characters"
        else:
            clean["title"] = t
    elif creating:
        errors["title"] = "is required"

    if "description" in data:
        d = data["description"]
        if d is None:
            clean["description"] = ""
        elif not isinstance(d, str):
            errors["description"] = "must be a string"
        elif len(d) > 1000:
            errors["description"] = "must be at most 1000 characters"
        else:
            clean["description"] = d

    if "priority" in data:
        p = data["priority"]
        if not isinstance(p, str) or p not in PRIORITIES:
            errors["priority"] = "must be one of low, medium, high"
        else:
            clean["priority"] = p
    elif creating:
        errors["priority"] = "is required"

    if "status" in data:
        s = data["status"]
        if not isinstance(s, str) or s not in STATUSES:
            errors["status"] = "must be one of pending, in_progress, completed"
        else:
            clean["status"] = s

    if "due_date" in data:
        dd = data["due_date"]
        if dd is None:
            clean["due_date"] = None
        elif not is_iso8601(dd):
            errors["due_date"] = "must be an ISO 8601 date or date-time string"
        else:
            clean["due_date"] = dd

    if errors:
        raise invalid(errors)
    return clean


def parse_positive_int(params, name, default):
    vals = params.get(name)
    if vals is None:
        return default
    raw = vals[-1].strip()
    if not INT_RE.match(raw):
        raise bad_param("Query parameter '%s' must be a positive integer" % name,
                        {"parameter": name, "value": vals[-1]})
    n = int(raw)
    if n < 1:
        raise bad_param("Query parameter '%s' must be at least 1" % name,
                        {"parameter": name, "value": vals[-1]})
    return n


def parse_task_id(raw):
    if not INT_RE.match(raw):
        raise bad_param("task_id must be an integer", {"parameter": "task_id", "value": raw})
    return int(raw)


def get_task(tid):
    t = TASKS.get(tid)
    if t is None:
        raise ApiError(404, "TASK_NOT_FOUND", "There is no task with id %d" % tid,
                       {"task_id": tid})
    return t


OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "Task Management Microservice", "version": VERSION},
    "paths": {
        "/api/v1/tasks": {"get": {"summary": "List tasks"}, "post": {"summary": "Create task"}},
        "/api/v1/tasks/{task_id}": {"get": {"summary": "Get task"}, "put": {"summary": "Update task"},
                                    "delete": {"summary": "Delete task"}},
        "/api/v1/health": {"get": {"summary": "Health check"}},
    },
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "tasks-alt/1.0"

    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (self.log_date_time_string(), fmt % args))

    # -- plumbing ---------------------------------------------------------
    def send_json(self, status, body, headers=None):
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    def read_body(self):
        length = self.headers.get("Content-Length")
        raw = b""
        if length:
            try:
                raw = self.rfile.read(int(length))
            except ValueError:
                raise bad_param("Invalid Content-Length header")
        return raw

    def json_object(self, raw):
        if not raw.strip():
            raise bad_param("Request body must be a JSON object")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise bad_param("Request body is not valid JSON")
        if not isinstance(data, dict):
            raise bad_param("Request body must be a JSON object")
        return data

    def dispatch(self):
        raw = self.read_body()
        parts = urlsplit(self.path)
        path = parts.path
        params = parse_qs(parts.query, keep_blank_values=True)
        m = "GET" if self.command == "HEAD" else self.command
        try:
            if TASKS_PATH.match(path):
                if m == "GET":
                    return self.list_tasks(params)
                if m == "POST":
                    return self.create_task(raw)
                raise self.not_allowed("GET, POST")
            mt = TASK_PATH.match(path)
            if mt:
                if m not in ("GET", "PUT", "DELETE"):
                    raise self.not_allowed("GET, PUT, DELETE")
                tid = parse_task_id(mt.group(1))
                if m == "GET":
                    with LOCK:
                        return self.send_json(200, dict(get_task(tid)))
                if m == "PUT":
                    return self.update_task(tid, raw)
                with LOCK:
                    get_task(tid)
                    del TASKS[tid]
                return self.send_json(200, {"message": "Task %d has been deleted" % tid})
            if HEALTH_PATH.match(path):
                if m != "GET":
                    raise self.not_allowed("GET")
                return self.send_json(200, {"status": "ok", "timestamp": now_iso(),
                                            "version": VERSION})
            if DOCS_PATH.match(path) and m == "GET":
                return self.send_json(200, OPENAPI)
            raise ApiError(404, "NOT_FOUND", "No resource at %s" % path)
        except ApiError as e:
            err = {"code": e.code, "message": e.message}
            if e.details is not None:
                err["details"] = e.details
            return self.send_json(e.status, {"error": err}, e.headers)
        except Exception as e:  # pragma: no cover
            self.log_message("internal error: %r", e)
            return self.send_json(500, {"error": {"code": "INTERNAL_ERROR",
                                                  "message": "Unexpected server error"}})

    def not_allowed(self, allow):
        return ApiError(405, "METHOD_NOT_ALLOWED",
                        "Method %s is not allowed here" % self.command, headers={"Allow": allow})

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = dispatch

    def do_HEAD(self):
        self.dispatch()

    # -- handlers ---------------------------------------------------------
    def list_tasks(self, params):
        page = parse_positive_int(params, "page", 1)
        limit = parse_positive_int(params, "limit", 10)
        if limit > 100:
            raise bad_param("Query parameter 'limit' must be at most 100",
                            {"parameter": "limit", "value": params["limit"][-1]})
        status = params.get("status", [None])[-1]
        priority = params.get("priority", [None])[-1]
        if status is not None and status not in STATUSES:
            raise bad_param("Query parameter 'status' must be one of pending, in_progress, completed",
                            {"parameter": "status", "value": status})
        if priority is not None and priority not in PRIORITIES:
            raise bad_param("Query parameter 'priority' must be one of low, medium, high",
                            {"parameter": "priority", "value": priority})
        with LOCK:
            rows = [dict(t) for t in TASKS.values()
                    if (status is None or t["status"] == status)
                    and (priority is None or t["priority"] == priority)]
        rows.sort(key=lambda t: t["id"], reverse=True)  # newest first
        total = len(rows)
        start = (page - 1) * limit
        self.send_json(200, {
            "tasks": rows[start:start + limit],
            "pagination": {"page": page, "limit": limit, "total": total,
                           "pages": math.ceil(total / limit)},
        })

    def create_task(self, raw):
        data = self.json_object(raw)
        clean = check_fields(data, creating=True)
        with LOCK:
            tid = NEXT_ID[0]
            NEXT_ID[0] += 1
            ts = now_iso()
            task = {
                "id": tid,
                "title": clean["title"],
                "description": clean.get("description", ""),
                "priority": clean["priority"],
                "status": clean.get("status", "pending"),
                "due_date": clean.get("due_date"),
                "created_at": ts,
                "updated_at": ts,
            }
            TASKS[tid] = task
            out = dict(task)
        self.send_json(200, out, {"Location": "/api/v1/tasks/%d" % tid})

    def update_task(self, tid, raw):
        with LOCK:
            get_task(tid)
        data = self.json_object(raw)
        clean = check_fields(data, creating=False)
        with LOCK:
            task = get_task(tid)
            task.update(clean)
            task["updated_at"] = now_iso()
            out = dict(task)
        self.send_json(200, out)


def main():
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "8080"))
    srv = ThreadingHTTPServer((host, port), Handler)
    srv.daemon_threads = True
    sys.stderr.write("task-management alternative listening on %s:%d\n" % (host, port))
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()


if __name__ == "__main__":
    main()
