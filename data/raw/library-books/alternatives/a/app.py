"""Library Catalogue Service -- independent implementation on the standard library's http.server.

State lives in memory behind a lock; a fresh start has an empty catalogue.
"""
import json
import math
import os
import re
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.RLock()
BOOKS = {}  # id -> dict (internal record)
LOANS = {}  # book_id -> active loan dict
NEXT_ID = [1]


def now_utc():
    return datetime.now(timezone.utc).replace(microsecond=0)


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


class ApiError(Exception):
    def __init__(self, status, code, message, fields=None, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.headers = headers or {}

    def body(self):
        err = {"code": self.code, "message": self.message}
        if self.code == "validation_error":
            err["fields"] = self.fields or {}
        return {"error": err}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


# ---------------------------------------------------------------- validation

def validate_book(body):
    fields = {}
    out = {}

    def text(name, maxlen):
        v = body.get(name)
        if v is None:
            fields[name] = "this field is required"
            return
        if not isinstance(v, str):
            fields[name] = "must be a string"
            return
        v = v.strip()
        if not 1 <= len(v) <= maxlen:
            fields[name] = f"must hold 1 to {maxlen} characters once trimmed"
            return
        out[name] = v

    text("title", 200)
    text("author", 120)

    isbn = body.get("isbn")
    if isbn is None:
        fields["isbn"] = "this field is required"
    elif not isinstance(isbn, str):
        fields["isbn"] = "must be a string of 10 or 13 digits (hyphens allowed)"
    else:
        digits = isbn.replace("-", "")
        if not re.fullmatch(r"[0-9]{10}|[0-9]{13}", digits):
            fields["isbn"] = "must be a string of 10 or 13 digits (hyphens allowed)"
        else:
            out["isbn"] = digits

    year = body.get("year")
    if year is None:
        fields["year"] = "this field is required"
    elif not is_int(year):
        fields["year"] = "must be an integer"
    elif not 1450 <= year <= 2100:
        fields["year"] = "must be between 1450 and 2100"
    else:
        out["year"] = year

    tags = body.get("tags")
    if tags is None:
        out["tags"] = []
    elif not isinstance(tags, list):
        fields["tags"] = "must be an array of strings"
    elif len(tags) > 10:
        fields["tags"] = "at most 10 tags are allowed"
    else:
        clean = set()
        for t in tags:
            if not isinstance(t, str) or not t.strip():
                fields["tags"] = "every tag must be a non-empty string"
                break
            clean.add(t.strip().lower())
        else:
            out["tags"] = sorted(clean)

    if fields:
        raise ApiError(422, "validation_error", "The book did not pass validation", fields)
    return out


def validate_loan(body):
    fields = {}
    member = body.get("member")
    if member is None:
        fields["member"] = "this field is required"
    elif not isinstance(member, str) or not member.strip():
        fields["member"] = "must be a non-empty string"
    days = body.get("days")
    if days is None:
        days = 14
    elif not is_int(days):
        fields["days"] = "must be an integer"
    elif not 1 <= days <= 60:
        fields["days"] = "must be between 1 and 60"
    if fields:
        raise ApiError(422, "validation_error", "The loan request did not pass validation", fields)
    return member, days


def public_book(rec):
    return {
        "id": rec["id"],
        "title": rec["title"],
        "author": rec["author"],
        "isbn": rec["isbn"],
        "year": rec["year"],
        "tags": list(rec["tags"]),
        "available": rec["id"] not in LOANS,
        "created_at": rec["created_at"],
    }


def isbn_taken(isbn, except_id=None):
    return any(b["isbn"] == isbn and b["id"] != except_id for b in BOOKS.values())


# ---------------------------------------------------------------- query params

def single(params, name):
    vals = params.get(name)
    if not vals:
        return None
    return vals[-1]


def int_param(params, name, default, lo, hi):
    raw = single(params, name)
    if raw is None:
        return default
    raw = raw.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", raw):
        raise ApiError(400, "invalid_parameter", f"query parameter '{name}' must be an integer")
    v = int(raw)
    if v < lo or (hi is not None and v > hi):
        rng = f"at least {lo}" if hi is None else f"between {lo} and {hi}"
        raise ApiError(400, "invalid_parameter", f"query parameter '{name}' must be {rng}")
    return v


# ---------------------------------------------------------------- handlers

def h_health(req, params):
    with LOCK:
        return 200, {"status": "ok", "books": len(BOOKS)}, {}


def h_list_books(req, params):
    page = int_param(params, "page", 1, 1, None)
    per_page = int_param(params, "per_page", 20, 1, 100)
    avail_raw = single(params, "available")
    avail = None
    if avail_raw is not None:
        low = avail_raw.strip().lower()
        if low == "true":
            avail = True
        elif low == "false":
            avail = False
        else:
            raise ApiError(400, "invalid_parameter", "query parameter 'available' must be 'true' or 'false'")
    q = single(params, "q")
    author = single(params, "author")
    tag = single(params, "tag")
    with LOCK:
        found = []
        for bid in sorted(BOOKS):
            b = BOOKS[bid]
            if q and q.lower() not in b["title"].lower() and q.lower() not in b["author"].lower():
                continue
            if author and author.lower() not in b["author"].lower():
                continue
            if tag and tag.strip().lower() not in b["tags"]:
                continue
            if avail is not None and (bid not in LOANS) != avail:
                continue
            found.append(public_book(b))
    total = len(found)
    start = (page - 1) * per_page
    return 200, {
        "items": found[start:start + per_page],
        "page": page,
        "per_page": per_page,
        "total": total,
        "pages": math.ceil(total / per_page) if total else 0,
    }, {}


def h_create_book(req, params):
    body = req.json_object()
    data = validate_book(body)
    with LOCK:
        if isbn_taken(data["isbn"]):
            raise ApiError(409, "duplicate_isbn", f"ISBN {data['isbn']} is already in the catalogue")
        bid = NEXT_ID[0]
        NEXT_ID[0] += 1
        rec = dict(data, id=bid, created_at=iso(now_utc()))
        BOOKS[bid] = rec
        return 201, public_book(rec), {"Location": f"/api/books/{bid}"}


def get_book(bid):
    rec = BOOKS.get(bid)
    if rec is None:
        raise ApiError(404, "not_found", f"no book with id {bid}")
    return rec


def h_get_book(req, params, bid):
    with LOCK:
        return 200, public_book(get_book(bid)), {}


def h_put_book(req, params, bid):
    with LOCK:
        get_book(bid)
    body = req.json_object()
    data = validate_book(body)
    with LOCK:
        rec = get_book(bid)
        if isbn_taken(data["isbn"], except_id=bid):
            raise ApiError(409, "duplicate_isbn", f"ISBN {data['isbn']} belongs to another book")
        rec.update(data)
        return 200, public_book(rec), {}


def h_delete_book(req, params, bid):
    with LOCK:
        get_book(bid)
        if bid in LOANS:
            raise ApiError(409, "book_on_loan", "the book is out on loan and cannot be removed")
        del BOOKS[bid]
        return 204, None, {}


def h_lend(req, params, bid):
    with LOCK:
        get_book(bid)
    body = req.json_object()
    member, days = validate_loan(body)
    with LOCK:
        get_book(bid)
        if bid in LOANS:
            raise ApiError(409, "already_on_loan", "the book is already out on loan")
        now = now_utc()
        loan = {
            "book_id": bid,
            "member": member,
            "borrowed_at": iso(now),
            "due_date": (now.date() + timedelta(days=days)).isoformat(),
        }
        LOANS[bid] = loan
        return 201, dict(loan), {"Location": f"/api/books/{bid}/loan"}


def h_return(req, params, bid):
    with LOCK:
        get_book(bid)
        loan = LOANS.pop(bid, None)
        if loan is None:
            raise ApiError(409, "not_on_loan", "the book is not out on loan")
        return 200, dict(loan, returned_at=iso(now_utc())), {}


def h_loans(req, params):
    member = params.get("member")
    with LOCK:
        items = [dict(LOANS[k]) for k in sorted(LOANS)]
    if member is not None:
        want = member[-1]
        items = [l for l in items if l["member"] == want]
    return 200, {"items": items, "total": len(items)}, {}


ROUTES = [
    (re.compile(r"/api/health"), {"GET": h_health}),
    (re.compile(r"/api/books"), {"GET": h_list_books, "POST": h_create_book}),
    (re.compile(r"/api/books/([0-9]+)"), {"GET": h_get_book, "PUT": h_put_book, "DELETE": h_delete_book}),
    (re.compile(r"/api/books/([0-9]+)/loan"), {"POST": h_lend, "DELETE": h_return}),
    (re.compile(r"/api/loans"), {"GET": h_loans}),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "LibraryCatalogue/alt-a"

    def log_message(self, fmt, *args):  # keep the console quiet
        pass

    def read_body(self):
        if hasattr(self, "_body"):
            return self._body
        data = b""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            while True:
                line = self.rfile.readline().strip()
                size = int(line.split(b";")[0] or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
        else:
            n = int(self.headers.get("Content-Length") or 0)
            if n > 0:
                data = self.rfile.read(n)
        self._body = data
        return data

    def json_object(self):
        raw = self.read_body()
        if not raw.strip():
            raise ApiError(400, "invalid_json", "a JSON object body is required")
        try:
            val = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise ApiError(400, "invalid_json", "the body is not valid JSON")
        if not isinstance(val, dict):
            raise ApiError(400, "invalid_json", "the body must be a JSON object")
        return val

    def send(self, status, payload, headers):
        body = b"" if payload is None else json.dumps(payload).encode("utf-8")
        self.send_response(status)
        if payload is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def dispatch(self):
        self.__dict__.pop("_body", None)  # one handler serves every request of a keep-alive connection
        try:
            parts = urlsplit(self.path)
            path = parts.path
            params = parse_qs(parts.query, keep_blank_values=True)
            for rx, methods in ROUTES:
                m = rx.fullmatch(path)
                if not m:
                    continue
                method = "GET" if self.command == "HEAD" else self.command
                fn = methods.get(method)
                if fn is None:
                    allow = ", ".join(sorted(methods))
                    raise ApiError(405, "method_not_allowed",
                                   f"{self.command} is not supported on {path}", headers={"Allow": allow})
                args = [int(g) for g in m.groups()]
                status, payload, headers = fn(self, params, *args)
                break
            else:
                raise ApiError(404, "not_found", f"nothing lives at {path}")
        except ApiError as e:
            status, payload, headers = e.status, e.body(), e.headers
        except Exception:  # pragma: no cover - last resort
            status, payload, headers = 500, {"error": {"code": "internal_error", "message": "unexpected failure"}}, {}
        try:
            self.read_body()  # drain whatever the client sent, keep-alive stays sane
        except Exception:
            self.close_connection = True
        self.send(status, payload, headers)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = dispatch


def main():
    port = int(os.environ.get("PORT", "8101"))
    host = os.environ.get("HOST", "0.0.0.0")
    srv = ThreadingHTTPServer((host, port), Handler)
    srv.daemon_threads = True
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()


if __name__ == "__main__":
    main()
