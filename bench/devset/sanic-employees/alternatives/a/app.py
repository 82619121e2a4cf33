"""Employee Management API - independent implementation on the Python
standard library (http.server). Data lives in memory; every start is empty."""

import json
import os
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FIELDS = ("first_name", "last_name", "email", "position", "salary")
STRING_FIELDS = ("first_name", "last_name", "email", "position")


class Store:
    def __init__(self):
        self._lock = threading.Lock()
        self._rows = {}
        self._next_id = 1

    def all(self):
        with self._lock:
            return [dict(self._rows[k]) for k in sorted(self._rows)]

    def get(self, emp_id):
        with self._lock:
            row = self._rows.get(emp_id)
            return dict(row) if row else None

    def create(self, data):
        with self._lock:
            emp_id = self._next_id
            self._next_id += 1
            row = {"id": emp_id}
            row.update({f: data[f] for f in FIELDS})
            self._rows[emp_id] = row
            return dict(row)

    def update(self, emp_id, data):
        with self._lock:
            row = self._rows.get(emp_id)
            if row is None:
                return None
            for f in FIELDS:
                if f in data:
                    row[f] = data[f]
            return dict(row)

    def delete(self, emp_id):
        with self._lock:
            return self._rows.pop(emp_id, None)


STORE = Store()


class ValidationError(Exception):
    pass


def validate(data, require_all):
    if not isinstance(data, dict):
        raise ValidationError("request body must be a JSON object")
    if require_all:
        missing = [f for f in FIELDS if f not in data or data[f] is None]
        if missing:
            raise ValidationError("missing required field(s): " + ", ".join(missing))
    else:
        if not any(f in data for f in FIELDS):
            raise ValidationError(
                "at least one of the fields " + ", ".join(FIELDS) + " is required")
    for f in STRING_FIELDS:
        if f in data:
            v = data[f]
            if not isinstance(v, str) or not v.strip():
                raise ValidationError(f"field '{f}' must be a non-empty string")
    if "salary" in data:
        v = data["salary"]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
            raise ValidationError("field 'salary' must be a non-negative number")
    return {f: data[f] for f in FIELDS if f in data}


COLLECTION = re.compile(r"^/employees/?$")
ITEM = re.compile(r"^/employees/([^/]+)/?$")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "EmployeeAPI/1.0"

    def log_message(self, fmt, *args):  # keep the console quiet
        pass

    # ---- helpers -------------------------------------------------------
    def _send(self, status, payload=None, extra_headers=None):
        body = b"" if payload is None else json.dumps(payload).encode("utf-8")
        self.send_response(status)
        if payload is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra_headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status, message):
        self._send(status, {"error": message})

    def _drain_body(self):
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        self._raw_body = self.rfile.read(length) if length > 0 else b""

    def _read_json(self):
        raw = self._raw_body
        if not raw.strip():
            raise ValidationError("request body must be a JSON object")
        try:
            return json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise ValidationError("request body is not valid JSON")

    def _route(self):
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if COLLECTION.match(path):
            return "collection", None
        m = ITEM.match(path)
        if m:
            raw = m.group(1)
            if raw.isdigit():
                return "item", int(raw)
            return "item", None  # non-numeric id: can never exist
        return None, None

    def _dispatch(self):
        self._drain_body()
        kind, emp_id = self._route()
        method = self.command
        if kind is None:
            return self._error(404, "not found")
        allowed = {"collection": ("GET", "POST"),
                   "item": ("GET", "PUT", "DELETE")}[kind]
        if method not in allowed:
            self._send(405, {"error": "method not allowed"},
                       {"Allow": ", ".join(allowed)})
            return
        try:
            if kind == "collection":
                if method == "GET":
                    return self._send(200, STORE.all())
                data = validate(self._read_json(), require_all=True)
                row = STORE.create(data)
                return self._send(201, row,
                                  {"Location": "/employees/%d" % row["id"]})
            # item
            if method == "GET":
                row = STORE.get(emp_id) if emp_id is not None else None
                if row is None:
                    return self._error(404, "employee not found")
                return self._send(200, row)
            if method == "PUT":
                if emp_id is None or STORE.get(emp_id) is None:
                    return self._error(404, "employee not found")
                data = validate(self._read_json(), require_all=False)
                row = STORE.update(emp_id, data)
                if row is None:
                    return self._error(404, "employee not found")
                return self._send(200, row)
            if method == "DELETE":
                row = STORE.delete(emp_id) if emp_id is not None else None
                if row is None:
                    return self._error(404, "employee not found")
                return self._send(200, {"message": "employee deleted", "id": row["id"]})
        except ValidationError as exc:
            return self._error(400, str(exc))

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _dispatch

    do_OPTIONS = _dispatch


def main():
    port = int(os.environ.get("PORT", "9213"))
    server = ThreadingHTTPServer(("0.0.0.0", port), Handler)
    server.daemon_threads = True
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
