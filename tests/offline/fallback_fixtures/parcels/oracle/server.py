"""Parcel locker oracle (stdlib only)."""

import json
import os
import re
import secrets
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USERS = {}
TOKENS = {}
PARCELS = {}
NEXT = {"user": 1, "parcel": 1}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, code, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if not raw:
            return {}
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def user(self):
        auth = self.headers.get("Authorization", "")
        return TOKENS.get(auth[7:]) if auth.startswith("Bearer ") else None

    def route(self, method):
        path = self.path.split("?")[0].rstrip("/")
        handler = self.ROUTES.get((method, path))
        if handler is not None:
            return handler(self)
        m = re.fullmatch(r"/api/v1/parcels/(\d+)(/pickup)?", path)
        if m and not m.group(2) and method in ("GET", "DELETE"):
            return self.parcel(method, m.group(1))
        if m and m.group(2) and method == "POST":
            return self.pickup(m.group(1))
        known = path in ("/api/v1/parcels", "/api/v1/health") or m
        return self.send(405 if known else 404, {"error": "not_found"})

    def health(self):
        return self.send(200, {"status": "ok"})

    def register(self):
        b = self.body()
        if b is None:
            return self.send(400, {"error": "invalid_json"})
        name, pw = b.get("username"), b.get("password")
        if not isinstance(name, str) or not 3 <= len(name) <= 20 or not isinstance(
                pw, str) or len(pw) < 8:
            return self.send(422, {"error": "validation_failed"})
        if name in USERS:
            return self.send(409, {"error": "username_taken"})
        USERS[name] = {"id": NEXT["user"], "password": pw}
        NEXT["user"] += 1
        return self.send(201, {"id": USERS[name]["id"], "username": name})

    def login(self):
        b = self.body()
        if b is None:
            return self.send(400, {"error": "invalid_json"})
        if not b.get("username") or not b.get("password"):
            return self.send(422, {"error": "validation_failed"})
        u = USERS.get(b["username"])
        if u is None or u["password"] != b["password"]:
            return self.send(401, {"error": "bad_credentials"})
        token = secrets.token_hex(8)
        TOKENS[token] = b["username"]
        return self.send(200, {"access_token": token, "token_type": "bearer"})

    def create_parcel(self):
        if self.user() is None:
            return self.send(401, {"error": "unauthorized"})
        b = self.body()
        if b is None:
            return self.send(400, {"error": "invalid_json"})
        r, size = b.get("recipient"), b.get("size", "small")
        if not isinstance(r, str) or not 1 <= len(r) <= 50 or size not in ("small", "large"):
            return self.send(422, {"error": "validation_failed"})
        p = {"id": NEXT["parcel"], "recipient": r, "size": size, "status": "waiting"}
        NEXT["parcel"] += 1
        PARCELS[p["id"]] = p
        return self.send(201, p)

    def list_parcels(self):
        items = list(PARCELS.values())
        return self.send(200, {"items": items, "total": len(items)})

    def parcel(self, method, parcel_id):
        if method == "DELETE" and self.user() is None:
            return self.send(401, {"error": "unauthorized"})
        p = PARCELS.get(int(parcel_id))
        if p is None:
            return self.send(404, {"error": "not_found"})
        if method == "DELETE":
            del PARCELS[p["id"]]
            return self.send(200, {"message": "removed"})
        return self.send(200, p)

    def pickup(self, parcel_id):
        p = PARCELS.get(int(parcel_id))
        if p is None:
            return self.send(404, {"error": "not_found"})
        p["status"] = "picked_up"
        return self.send(200, p)

    ROUTES = {
        ("GET", "/api/v1/health"): health,
        ("POST", "/api/v1/auth/register"): register,
        ("POST", "/api/v1/auth/login"): login,
        ("POST", "/api/v1/parcels"): create_parcel,
        ("GET", "/api/v1/parcels"): list_parcels,
    }

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def do_PATCH(self):
        self.route("PATCH")

    def do_DELETE(self):
        self.route("DELETE")


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8193"))
    ThreadingHTTPServer(("0.0.0.0", port), Handler).serve_forever()
