"""Short-Link Service -- an independent implementation on the standard library only.

http.server (ThreadingHTTPServer) with an in-memory store behind one lock.
A fresh start is empty.
"""
import json
import os
import re
import secrets
import string
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

CODE_RE = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
RESERVED = {"health", "short-links"}
GEN_ALPHABET = string.ascii_lowercase + string.digits
GEN_LENGTH = 7
INT_RE = re.compile(r"^[+-]?\d+$")
_ABSENT = object()


class ApiError(Exception):
    def __init__(self, status, code, message, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def now_utc():
    return datetime.now(timezone.utc).replace(microsecond=0)


def ts(dt):
    return None if dt is None else dt.strftime("%Y-%m-%dT%H:%M:%SZ")


class Store:
    def __init__(self):
        self.lock = threading.Lock()
        self.links = {}   # code -> dict
        self.seq = 0


STORE = Store()


def is_expired(link, at=None):
    at = at or datetime.now(timezone.utc)
    return link["expires_at"] is not None and at >= link["expires_at"]


def link_view(link, base):
    return {
        "code": link["code"],
        "url": link["url"],
        "short_url": f"{base}/r/{link['code']}",
        "created_at": ts(link["created_at"]),
        "expires_at": ts(link["expires_at"]),
        "expired": is_expired(link),
        "hits": link["hits"],
    }


# ------------------------------------------------------------------ validation

def check_url(value):
    if not isinstance(value, str):
        raise ApiError(422, "invalid_url", "'url' must be a string holding an absolute http(s) URL")
    url = value.strip()
    if not url:
        raise ApiError(422, "invalid_url", "'url' must not be empty")
    if len(url) > 2048:
        raise ApiError(422, "invalid_url", f"'url' is {len(url)} characters long; the limit is 2048")
    if any(c.isspace() for c in url) or any(ord(c) < 32 or ord(c) == 127 for c in url):
        raise ApiError(422, "invalid_url", "'url' must not contain white space or control characters")
    try:
        parts = urlsplit(url)
        parts.port  # raises ValueError for a bad port
    except ValueError:
        raise ApiError(422, "invalid_url", "'url' could not be parsed")
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or not parts.hostname:
        raise ApiError(422, "invalid_url", "'url' must be an absolute URL starting with http:// or https://")
    return url


def check_code(value):
    if not isinstance(value, str) or not CODE_RE.match(value):
        raise ApiError(422, "invalid_code",
                       "'code' must be 4 to 32 characters drawn from A-Z, a-z, 0-9, '-' and '_'")
    if value.lower() in RESERVED:
        raise ApiError(422, "invalid_code", f"'{value}' is a reserved word and cannot be used as a code")
    return value


def check_expiry(value):
    """Returns a timedelta, or None for 'never expires'."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not (1 <= value <= 365):
        raise ApiError(422, "invalid_expiry", "'expires_in_days' must be a whole number from 1 to 365")
    return timedelta(days=value)


def need_object(raw):
    if not raw.strip():
        raise ApiError(400, "invalid_json", "the request body must be a JSON object, got nothing")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "invalid_json", "the request body could not be parsed as JSON")
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_json", "the request body must be a JSON object")
    return body


def find(code):
    link = STORE.links.get(code)
    if link is None:
        raise ApiError(404, "not_found", f"there is no short link with code '{code}'")
    return link


# ------------------------------------------------------------------ handlers

def health(ctx):
    with STORE.lock:
        n = len(STORE.links)
    return 200, {"status": "ok", "links": n}, {}


def create_link(ctx):
    body = need_object(ctx["raw"])
    url = check_url(body.get("url"))
    code = body.get("code")
    custom = code is not None
    if custom:
        check_code(code)
    delta = check_expiry(body.get("expires_in_days"))
    with STORE.lock:
        if custom:
            if code in STORE.links:
                raise ApiError(409, "code_taken", f"the code '{code}' is already taken by another link")
        else:
            while True:
                code = "".join(secrets.choice(GEN_ALPHABET) for _ in range(GEN_LENGTH))
                if code not in STORE.links:
                    break
        created = now_utc()
        STORE.seq += 1
        link = {"code": code, "url": url, "created_at": created,
                "expires_at": created + delta if delta else None,
                "hits": 0, "last_accessed_at": None, "seq": STORE.seq}
        STORE.links[code] = link
        view = link_view(link, ctx["base"])
    return 201, view, {"Location": f"/short-links/{code}"}


def list_links(ctx):
    params = {}
    for k, v in ctx["query"]:
        params.setdefault(k, v)

    def int_param(name, default, low, high):
        raw = params.get(name)
        if raw is None:
            return default
        if not INT_RE.match(raw.strip()):
            raise ApiError(400, "invalid_parameter", f"'{name}' must be an integer, got '{raw}'")
        value = int(raw.strip())
        if value < low or (high is not None and value > high):
            rng = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise ApiError(400, "invalid_parameter", f"'{name}' must be {rng}, got {value}")
        return value

    limit = int_param("limit", 50, 1, 200)
    offset = int_param("offset", 0, 0, None)
    with STORE.lock:
        links = sorted(STORE.links.values(), key=lambda l: l["seq"], reverse=True)
        items = [link_view(l, ctx["base"]) for l in links[offset:offset + limit]]
        total = len(links)
    return 200, {"items": items, "total": total, "limit": limit, "offset": offset}, {}


def get_link(ctx, code):
    with STORE.lock:
        return 200, link_view(find(code), ctx["base"]), {}


def patch_link(ctx, code):
    with STORE.lock:
        find(code)
    body = need_object(ctx["raw"])
    has_url = "url" in body
    has_exp = "expires_in_days" in body
    if not has_url and not has_exp:
        raise ApiError(422, "nothing_to_update", "send 'url', 'expires_in_days' or both")
    new_url = check_url(body["url"]) if has_url else None
    delta = check_expiry(body["expires_in_days"]) if has_exp else None
    with STORE.lock:
        link = find(code)
        if has_url:
            link["url"] = new_url
        if has_exp:
            link["expires_at"] = now_utc() + delta if delta else None
        return 200, link_view(link, ctx["base"]), {}


def delete_link(ctx, code):
    with STORE.lock:
        find(code)
        del STORE.links[code]
    return 204, None, {}


def link_stats(ctx, code):
    with STORE.lock:
        link = find(code)
        return 200, {"code": link["code"], "hits": link["hits"],
                     "last_accessed_at": ts(link["last_accessed_at"]),
                     "expired": is_expired(link)}, {}


def follow(ctx, code):
    with STORE.lock:
        link = find(code)
        if is_expired(link):
            raise ApiError(410, "expired", f"the short link '{code}' expired at {ts(link['expires_at'])}")
        if not ctx["head"]:
            link["hits"] += 1
            link["last_accessed_at"] = now_utc()
        target = link["url"]
    return 302, None, {"Location": target, "Cache-Control": "no-store"}


ROUTES = [
    (re.compile(r"^/health$"), {"GET": health}),
    (re.compile(r"^/short-links$"), {"GET": list_links, "POST": create_link}),
    (re.compile(r"^/short-links/([^/]+)$"), {"GET": get_link, "PATCH": patch_link, "DELETE": delete_link}),
    (re.compile(r"^/short-links/([^/]+)/stats$"), {"GET": link_stats}),
    (re.compile(r"^/r/([^/]+)$"), {"GET": follow}),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ShortLinks/1"

    def log_message(self, fmt, *args):
        if os.environ.get("QUIET"):
            return
        super().log_message(fmt, *args)

    def _base(self):
        proto = (self.headers.get("X-Forwarded-Proto") or "http").split(",")[0].strip() or "http"
        host = (self.headers.get("X-Forwarded-Host") or self.headers.get("Host") or "").split(",")[0].strip()
        if not host:
            h, p = self.server.server_address[:2]
            host = f"{'localhost' if h in ('0.0.0.0', '') else h}:{p}"
        return f"{proto}://{host}"

    def _send(self, status, payload, headers=None, head=False):
        headers = dict(headers or {})
        data = b"" if payload is None else json.dumps(payload, ensure_ascii=False).encode("utf-8")
        if payload is not None:
            headers.setdefault("Content-Type", "application/json")
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        if status != 204:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if data and not head:
            self.wfile.write(data)

    def _read_body(self):
        try:
            n = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            n = 0
        return self.rfile.read(n) if n > 0 else b""

    def _dispatch(self, method):
        head = method == "HEAD"
        try:
            raw = self._read_body()
            parts = urlsplit(self.path)
            path = parts.path
            for rx, methods in ROUTES:
                m = rx.match(path)
                if not m:
                    continue
                lookup = "GET" if head else method
                if lookup not in methods:
                    allowed = sorted(set(methods) | ({"HEAD"} if "GET" in methods else set()))
                    raise ApiError(405, "method_not_allowed",
                                   f"{method} cannot be used on {path}; allowed: {', '.join(allowed)}",
                                   headers={"Allow": ", ".join(allowed)})
                ctx = {"raw": raw, "query": parse_qsl(parts.query, keep_blank_values=True),
                       "base": self._base(), "head": head}
                status, payload, headers = methods[lookup](ctx, *m.groups())
                self._send(status, payload, headers, head=head)
                return
            raise ApiError(404, "not_found", f"nothing lives at {path}")
        except ApiError as e:
            self._send(e.status, {"error": {"code": e.code, "message": e.message}}, e.headers, head=head)
        except Exception as exc:  # pragma: no cover
            self._send(500, {"error": {"code": "internal_error", "message": exc.__class__.__name__}}, head=head)

    def do_GET(self):
        self._dispatch("GET")

    def do_HEAD(self):
        self._dispatch("HEAD")

    def do_POST(self):
        self._dispatch("POST")

    def do_PATCH(self):
        self._dispatch("PATCH")

    def do_DELETE(self):
        self._dispatch("DELETE")

    def do_PUT(self):
        self._dispatch("PUT")

    def do_OPTIONS(self):
        self._dispatch("OPTIONS")


def main():
    host = os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "8103"))
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    print(f"Short-Link Service listening on {host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
