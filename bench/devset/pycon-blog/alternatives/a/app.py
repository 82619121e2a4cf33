"""Independent implementation of the simple blog REST API described in README.md.

Standard library only (http.server), in-memory state behind a lock.
"""
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

FIRST_ID = 1001

_lock = threading.Lock()
_posts = {}  # id -> dict
_next_id = FIRST_ID


class ApiError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


def _public(post):
    return {
        "id": post["id"],
        "title": post["title"],
        "text": post["text"],
        "owner": post["owner"],
        "editor": post["editor"],
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "BlogAlt/1.0"

    def log_message(self, fmt, *args):  # quieter, stderr only
        sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    # ---- helpers -------------------------------------------------------
    def _send(self, status, payload=None, content_type="application/json; charset=utf-8", extra=None):
        if payload is None:
            body = b""
        elif isinstance(payload, (bytes, bytearray)):
            body = bytes(payload)
        elif isinstance(payload, str):
            body = payload.encode("utf-8")
        else:
            body = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        if status != 204:
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if status != 204 and self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status, message, extra=None):
        self._send(status, {"error": message, "code": status}, extra=extra)

    def _read_body(self):
        length = self.headers.get("Content-Length")
        if not length:
            return b""
        try:
            n = int(length)
        except ValueError:
            raise ApiError(400, "invalid Content-Length header")
        return self.rfile.read(n) if n > 0 else b""

    def _arguments(self):
        """Arguments from a JSON object body, or from a form-encoded body."""
        raw = self._read_body()
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype == "application/x-www-form-urlencoded":
            try:
                form = parse_qs(raw.decode("utf-8"), keep_blank_values=True)
            except UnicodeDecodeError:
                raise ApiError(400, "body is not valid UTF-8")
            return {k: v[-1] for k, v in form.items()}
        if not raw.strip():
            raise ApiError(400, "a JSON object body is required")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise ApiError(400, "body is not valid JSON")
        if not isinstance(data, dict):
            raise ApiError(400, "body must be a JSON object")
        return data

    def _route(self):
        path = urlsplit(self.path).path
        if path == "/":
            return ("root", None)
        parts = [p for p in path.split("/") if p != ""]
        if parts and parts[0] == "api":
            if len(parts) == 1:
                return ("collection", None)
            if len(parts) == 2:
                return ("item", parts[1])
        return (None, None)

    def _dispatch(self, method):
        kind, arg = self._route()
        allowed = {
            "root": ("GET", "HEAD"),
            "collection": ("GET", "HEAD", "POST"),
            "item": ("GET", "HEAD", "PATCH", "DELETE"),
        }
        try:
            if kind is None:
                raise ApiError(404, "no such resource")
            if method not in allowed[kind]:
                self._error(405, "method %s not allowed here" % method,
                            extra={"Allow": ", ".join(allowed[kind])})
                return
            if kind == "root":
                self._send(200, "Hello world", content_type="text/plain; charset=utf-8")
            elif kind == "collection":
                if method in ("GET", "HEAD"):
                    self._list()
                else:
                    self._create()
            else:
                post_id = self._post_id(arg)
                if method in ("GET", "HEAD"):
                    self._get(post_id)
                elif method == "PATCH":
                    self._patch(post_id)
                else:
                    self._delete(post_id)
        except ApiError as exc:
            self._error(exc.status, exc.message)
        except Exception as exc:  # pragma: no cover
            self._error(500, "internal error: %s" % exc.__class__.__name__)

    @staticmethod
    def _post_id(raw):
        try:
            if not raw.isdigit():
                raise ValueError
            return int(raw)
        except ValueError:
            raise ApiError(400, "post id must be a positive integer")

    @staticmethod
    def _string(data, name, allow_empty):
        value = data[name]
        if not isinstance(value, str):
            raise ApiError(422, "field '%s' must be a string" % name)
        if not allow_empty and value.strip() == "":
            raise ApiError(422, "field '%s' must not be empty" % name)
        return value

    # ---- endpoints -----------------------------------------------------
    def _list(self):
        with _lock:
            items = [_public(p) for p in sorted(_posts.values(), key=lambda p: p["id"], reverse=True)]
        self._send(200, items)

    def _create(self):
        global _next_id
        data = self._arguments()
        missing = [f for f in ("title", "text", "owner") if f not in data or data[f] is None]
        if missing:
            raise ApiError(422, "missing required field(s): %s" % ", ".join(missing))
        title = self._string(data, "title", allow_empty=False)
        text = self._string(data, "text", allow_empty=True)
        owner = self._string(data, "owner", allow_empty=False)
        with _lock:
            post_id = _next_id
            _next_id += 1
            post = {"id": post_id, "title": title, "text": text, "owner": owner, "editor": owner}
            _posts[post_id] = post
            body = _public(post)
        body["new_post"] = post_id
        self._send(201, body, extra={"Location": "/api/%d" % post_id})

    def _get(self, post_id):
        with _lock:
            post = _posts.get(post_id)
            body = _public(post) if post else None
        if body is None:
            raise ApiError(404, "post %d not found" % post_id)
        self._send(200, body)

    def _patch(self, post_id):
        with _lock:
            exists = post_id in _posts
        if not exists:
            raise ApiError(404, "post %d not found" % post_id)
        data = self._arguments()
        changes = {}
        for name, allow_empty in (("title", False), ("text", True), ("editor", False)):
            if name in data and data[name] is not None:
                changes[name] = self._string(data, name, allow_empty)
        with _lock:
            post = _posts.get(post_id)
            if post is None:
                raise ApiError(404, "post %d not found" % post_id)
            if not changes:
                raise ApiError(422, "nothing to change: give at least one of title, text, editor")
            post.update(changes)
            body = _public(post)
        self._send(200, body)

    def _delete(self, post_id):
        with _lock:
            if _posts.pop(post_id, None) is None:
                raise ApiError(404, "post %d not found" % post_id)
        self._send(204)

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
    port = int(os.environ.get("PORT", "9208"))
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    print("======== Running on http://%s:%d ========" % (host, port), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
