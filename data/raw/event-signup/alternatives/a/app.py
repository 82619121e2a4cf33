"""Event Sign-up API (v2) -- an independent implementation on the standard library only.

http.server (ThreadingHTTPServer) with an in-memory store behind one lock.
A fresh start is empty.
"""
import json
import math
import os
import re
import threading
from datetime import datetime, timezone
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit, unquote

BASE = "/api/v2"
EVENT_ID_START = 1001
REGISTRATION_ID_START = 5001

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)*\.[^@\s.]+$")
INT_RE = re.compile(r"^[+-]?\d+$")

TITLES = {
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Payload Too Large",
    422: "Unprocessable Entity",
    500: "Internal Server Error",
}


class Problem(Exception):
    def __init__(self, status, detail, headers=None, invalid=None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers or {}
        self.invalid = invalid


def utc_text(dt):
    return dt.astimezone(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def now_utc():
    return datetime.now(timezone.utc).replace(microsecond=0)


class Store:
    def __init__(self):
        self.lock = threading.Lock()
        self.events = {}          # id -> dict (starts_at as aware datetime)
        self.registrations = {}   # event id -> list of registration dicts (registration order)
        self.next_event = EVENT_ID_START
        self.next_registration = REGISTRATION_ID_START


STORE = Store()


def event_view(ev):
    registered = len(STORE.registrations.get(ev["id"], []))
    return {
        "id": ev["id"],
        "title": ev["title"],
        "location": ev["location"],
        "starts_at": utc_text(ev["starts_at"]),
        "capacity": ev["capacity"],
        "registered": registered,
        "seats_left": ev["capacity"] - registered,
        "created_at": utc_text(ev["created_at"]),
    }


def registration_view(reg):
    return {
        "id": reg["id"],
        "event_id": reg["event_id"],
        "name": reg["name"],
        "email": reg["email"],
        "registered_at": utc_text(reg["registered_at"]),
    }


# ---------------------------------------------------------------- validation helpers

def need_text(body, field, low, high, problems):
    if field not in body or body[field] is None:
        problems.append({"name": field, "reason": "is required"})
        return None
    value = body[field]
    if not isinstance(value, str):
        problems.append({"name": field, "reason": "must be a string"})
        return None
    if not (low <= len(value) <= high):
        problems.append({"name": field, "reason": f"must be {low} to {high} characters long"})
        return None
    return value


def parse_starts_at(body, problems):
    if "starts_at" not in body or body["starts_at"] is None:
        problems.append({"name": "starts_at", "reason": "is required"})
        return None
    value = body["starts_at"]
    if not isinstance(value, str):
        problems.append({"name": "starts_at", "reason": "must be an ISO-8601 date-time string"})
        return None
    try:
        dt = datetime.fromisoformat(value.strip())
    except ValueError:
        problems.append({"name": "starts_at", "reason": "is not an ISO-8601 date-time"})
        return None
    if dt.tzinfo is None or dt.utcoffset() is None:
        problems.append({"name": "starts_at", "reason": "needs a time-zone offset"})
        return None
    if not re.search(r"\d[T ]\d", value):
        problems.append({"name": "starts_at", "reason": "needs a time of day"})
        return None
    try:
        return dt.astimezone(timezone.utc).replace(microsecond=0)
    except (OverflowError, ValueError):
        problems.append({"name": "starts_at", "reason": "is out of range"})
        return None


def parse_capacity(body, problems):
    if "capacity" not in body or body["capacity"] is None:
        problems.append({"name": "capacity", "reason": "is required"})
        return None
    value = body["capacity"]
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append({"name": "capacity", "reason": "must be an integer"})
        return None
    if not (1 <= value <= 10000):
        problems.append({"name": "capacity", "reason": "must be between 1 and 10000"})
        return None
    return value


def fail_if(problems, what):
    if problems:
        names = ", ".join(p["name"] for p in problems)
        raise Problem(422, f"{what} is not valid ({names})", invalid=problems)


def path_int(text, name):
    if not INT_RE.match(text):
        raise Problem(422, f"path parameter {name} must be an integer, got {text!r}",
                      invalid=[{"name": name, "reason": "must be an integer"}])
    return int(text)


# ---------------------------------------------------------------- handlers

def list_events(query, body):
    problems = []
    params = {}
    for k, v in query:
        params.setdefault(k, v)   # first occurrence wins

    q = params.get("q")
    if q is not None and len(q) > 100:
        problems.append({"name": "q", "reason": "at most 100 characters"})

    upcoming = False
    raw = params.get("upcoming")
    if raw is not None:
        low = raw.lower()
        if low == "true":
            upcoming = True
        elif low == "false":
            upcoming = False
        else:
            problems.append({"name": "upcoming", "reason": "must be true or false"})

    def int_param(name, default, low, high):
        raw_value = params.get(name)
        if raw_value is None:
            return default
        if not INT_RE.match(raw_value.strip()):
            problems.append({"name": name, "reason": "must be an integer"})
            return default
        value = int(raw_value.strip())
        if value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f"at least {low}"
            problems.append({"name": name, "reason": f"must be {bound}"})
            return default
        return value

    page = int_param("page", 1, 1, None)
    size = int_param("size", 10, 1, 50)
    if problems:
        raise Problem(422, "invalid query parameters: " + ", ".join(p["name"] for p in problems),
                      invalid=problems)

    with STORE.lock:
        current = now_utc()
        evs = list(STORE.events.values())
        if q:
            needle = q.casefold()
            evs = [e for e in evs if needle in e["title"].casefold() or needle in e["location"].casefold()]
        if upcoming:
            evs = [e for e in evs if e["starts_at"] > current]
        evs.sort(key=lambda e: (e["starts_at"], e["id"]))
        total = len(evs)
        start = (page - 1) * size
        items = [event_view(e) for e in evs[start:start + size]]
    total_pages = max(1, math.ceil(total / size))
    return 200, {"items": items, "page": page, "size": size, "total": total,
                 "total_pages": total_pages}, {}


def create_event(query, body):
    body = need_object(body)
    problems = []
    title = need_text(body, "title", 1, 120, problems)
    location = need_text(body, "location", 1, 120, problems)
    starts_at = parse_starts_at(body, problems)
    capacity = parse_capacity(body, problems)
    fail_if(problems, "event")
    with STORE.lock:
        eid = STORE.next_event
        STORE.next_event += 1
        ev = {"id": eid, "title": title, "location": location, "starts_at": starts_at,
              "capacity": capacity, "created_at": now_utc()}
        STORE.events[eid] = ev
        STORE.registrations[eid] = []
        view = event_view(ev)
    return 201, view, {"Location": f"{BASE}/events/{eid}"}


def get_event_or_404(eid):
    ev = STORE.events.get(eid)
    if ev is None:
        raise Problem(404, f"there is no event with id {eid}")
    return ev


def get_event(query, body, eid):
    with STORE.lock:
        return 200, event_view(get_event_or_404(eid)), {}


def delete_event(query, body, eid):
    with STORE.lock:
        get_event_or_404(eid)
        del STORE.events[eid]
        STORE.registrations.pop(eid, None)
    return 204, None, {}


def register(query, body, eid):
    with STORE.lock:
        get_event_or_404(eid)
    body = need_object(body)
    problems = []
    name = need_text(body, "name", 1, 100, problems)
    email = None
    if "email" not in body or body["email"] is None:
        problems.append({"name": "email", "reason": "is required"})
    elif not isinstance(body["email"], str):
        problems.append({"name": "email", "reason": "must be a string"})
    else:
        raw = body["email"].strip()
        if len(raw) > 254 or not EMAIL_RE.match(raw):
            problems.append({"name": "email", "reason": "must look like local@domain.tld (max 254 characters)"})
        else:
            email = raw.lower()
    fail_if(problems, "registration")
    with STORE.lock:
        ev = get_event_or_404(eid)
        regs = STORE.registrations.setdefault(eid, [])
        if len(regs) >= ev["capacity"]:
            raise Problem(409, f"no seats left: all {ev['capacity']} seats of event {eid} are taken")
        if any(r["email"] == email for r in regs):
            raise Problem(409, f"{email} already holds a seat for event {eid}")
        rid = STORE.next_registration
        STORE.next_registration += 1
        reg = {"id": rid, "event_id": eid, "name": name, "email": email,
               "registered_at": now_utc()}
        regs.append(reg)
        view = registration_view(reg)
    return 201, view, {"Location": f"{BASE}/events/{eid}/registrations/{rid}"}


def list_registrations(query, body, eid):
    with STORE.lock:
        get_event_or_404(eid)
        return 200, [registration_view(r) for r in STORE.registrations.get(eid, [])], {}


def cancel_registration(query, body, eid, rid):
    with STORE.lock:
        get_event_or_404(eid)
        regs = STORE.registrations.get(eid, [])
        for i, r in enumerate(regs):
            if r["id"] == rid:
                del regs[i]
                return 204, None, {}
    raise Problem(404, f"event {eid} has no registration with id {rid}")


def need_object(body):
    if body is _MALFORMED:
        raise Problem(422, "request body is not valid JSON")
    if not isinstance(body, dict):
        raise Problem(422, "request body must be a JSON object")
    return body


_MALFORMED = object()

# (regex, {method: (handler, [path param names])})
ROUTES = [
    (re.compile(r"^/events$"), {"GET": list_events, "POST": create_event}, []),
    (re.compile(r"^/events/([^/]+)$"), {"GET": get_event, "DELETE": delete_event}, ["eventId"]),
    (re.compile(r"^/events/([^/]+)/registrations$"),
     {"GET": list_registrations, "POST": register}, ["eventId"]),
    (re.compile(r"^/events/([^/]+)/registrations/([^/]+)$"),
     {"DELETE": cancel_registration}, ["eventId", "registrationId"]),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "EventSignup/2"

    def log_message(self, fmt, *args):  # quieter log
        if os.environ.get("QUIET"):
            return
        super().log_message(fmt, *args)

    def _send(self, status, payload, headers=None, problem=False, head=False):
        headers = dict(headers or {})
        if payload is None:
            data = b""
        else:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            headers.setdefault("Content-Type",
                               "application/problem+json" if problem else "application/json")
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        if status != 204:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if data and not head and status != 204:
            self.wfile.write(data)

    def _problem(self, p, head=False):
        body = {"type": "about:blank", "title": TITLES.get(p.status, HTTPStatus(p.status).phrase),
                "status": p.status, "detail": p.detail}
        if p.invalid:
            body["invalid_params"] = p.invalid
        self._send(p.status, body, p.headers, problem=True, head=head)

    def _read_body(self):
        length = self.headers.get("Content-Length")
        if not length:
            return b""
        try:
            n = int(length)
        except ValueError:
            return b""
        return self.rfile.read(n) if n > 0 else b""

    def _dispatch(self, method):
        raw = b""
        head = method == "HEAD"
        try:
            raw = self._read_body()
            parts = urlsplit(self.path)
            path = unquote(parts.path)
            query = parse_qsl(parts.query, keep_blank_values=True)
            if not path.startswith(BASE + "/"):
                raise Problem(404, f"no resource at {path}")
            rel = path[len(BASE):]
            for rx, methods, names in ROUTES:
                m = rx.match(rel)
                if not m:
                    continue
                lookup = "GET" if head else method
                if lookup not in methods:
                    allowed = sorted(set(methods) | ({"HEAD"} if "GET" in methods else set()))
                    raise Problem(405, f"{method} is not supported on {path}",
                                  headers={"Allow": ", ".join(allowed)})
                args = [path_int(v, n) for v, n in zip(m.groups(), names)]
                body = None
                if lookup == "POST":
                    try:
                        body = json.loads(raw.decode("utf-8")) if raw.strip() else _MALFORMED
                    except (ValueError, UnicodeDecodeError):
                        body = _MALFORMED
                status, payload, headers = methods[lookup](query, body, *args)
                self._send(status, payload, headers, head=head)
                return
            raise Problem(404, f"no resource at {path}")
        except Problem as p:
            self._problem(p, head=head)
        except Exception as exc:  # pragma: no cover
            self._problem(Problem(500, f"unexpected error: {exc.__class__.__name__}"), head=head)

    def do_GET(self):
        self._dispatch("GET")

    def do_HEAD(self):
        self._dispatch("HEAD")

    def do_POST(self):
        self._dispatch("POST")

    def do_DELETE(self):
        self._dispatch("DELETE")

    def do_PUT(self):
        self._dispatch("PUT")

    def do_PATCH(self):
        self._dispatch("PATCH")

    def do_OPTIONS(self):
        self._dispatch("OPTIONS")


def main():
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "8108"))
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    print(f"Event Sign-up API listening on {host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
