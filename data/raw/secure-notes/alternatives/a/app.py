"""Private notes service -- independent implementation (Flask, in-memory state).

Written from README.md alone. See NOTES.md for every open choice.
"""
import os
import re
import secrets
import threading
import time
import hashlib
from datetime import datetime, timezone

from flask import Flask, request, jsonify, Response
from werkzeug.exceptions import HTTPException, NotFound, MethodNotAllowed

app = Flask(__name__)
app.json.ensure_ascii = False
app.json.sort_keys = False

LOCK = threading.RLock()
TOKEN_TTL = 3600

USERNAME_RE = re.compile(r"^[a-z0-9_]{3,32}$")
TAG_RE = re.compile(r"^[a-z0-9_-]{1,20}$")
INT_RE = re.compile(r"^[+-]?[0-9]+$")

STATE = {
    "users": {},        # id -> user dict
    "by_name": {},      # username -> id
    "tokens": {},       # token -> (user_id, expires_at_epoch)
    "notes": {},        # id -> note dict (with owner)
    "next_user": 1001,
    "next_note": 5001,
}


def now_iso():
    return datetime.now(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def hash_pw(password, salt):
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, 20000)


class ApiError(Exception):
    def __init__(self, status, code, message, errors=None, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}


def validation_error(errors):
    return ApiError(422, "VALIDATION_ERROR", "Request validation failed", errors=errors)


def unauthorized(message="Missing, invalid or expired bearer token"):
    return ApiError(401, "UNAUTHORIZED", message, headers={"WWW-Authenticate": "Bearer"})


@app.errorhandler(ApiError)
def handle_api_error(err):
    body = {"code": err.code, "message": err.message}
    if err.errors is not None:
        body["errors"] = err.errors
    resp = jsonify(body)
    resp.status_code = err.status
    for k, v in err.headers.items():
        resp.headers[k] = v
    return resp


@app.errorhandler(NotFound)
def handle_404(err):
    resp = jsonify({"code": "NOT_FOUND", "message": "No such path: %s" % request.path})
    resp.status_code = 404
    return resp


@app.errorhandler(MethodNotAllowed)
def handle_405(err):
    resp = jsonify({"code": "METHOD_NOT_ALLOWED",
                    "message": "Method %s is not supported on %s" % (request.method, request.path)})
    resp.status_code = 405
    if err.valid_methods:
        resp.headers["Allow"] = ", ".join(err.valid_methods)
    return resp


@app.errorhandler(HTTPException)
def handle_http(err):
    resp = jsonify({"code": (err.name or "ERROR").upper().replace(" ", "_"),
                    "message": err.description or err.name})
    resp.status_code = err.code or 500
    return resp


@app.errorhandler(Exception)
def handle_any(err):  # pragma: no cover - last resort
    resp = jsonify({"code": "INTERNAL_ERROR", "message": "Internal server error"})
    resp.status_code = 500
    return resp


# ----------------------------------------------------------------- helpers

def json_body():
    raw = request.get_data(cache=True)
    if not raw or not raw.strip():
        raise validation_error([{"field": "body", "reason": "Request body is required"}])
    try:
        import json
        data = json.loads(raw.decode("utf-8"))
    except Exception:
        raise validation_error([{"field": "body", "reason": "Body is not valid JSON"}])
    if not isinstance(data, dict):
        raise validation_error([{"field": "body", "reason": "Body must be a JSON object"}])
    return data


def current_user():
    header = request.headers.get("Authorization")
    if not header:
        raise unauthorized("Authorization header is missing")
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        raise unauthorized("Authorization header must be 'Bearer <token>'")
    token = parts[1]
    with LOCK:
        entry = STATE["tokens"].get(token)
        if entry is None:
            raise unauthorized("Token is unknown or revoked")
        uid, exp = entry
        if time.time() >= exp:
            STATE["tokens"].pop(token, None)
            raise unauthorized("Token has expired")
        user = STATE["users"].get(uid)
        if user is None:
            raise unauthorized("Token is unknown or revoked")
    return user, token


def parse_note_id(raw):
    if not INT_RE.match(raw or ""):
        raise validation_error([{"field": "path.note_id", "reason": "note_id must be an integer"}])
    return int(raw)


def public_note(n):
    return {
        "id": n["id"],
        "title": n["title"],
        "content": n["content"],
        "tags": list(n["tags"]),
        "created_at": n["created_at"],
        "updated_at": n["updated_at"],
    }


def validate_note_body(data):
    errors = []
    title = data.get("title")
    clean = {}
    if "title" not in data or title is None:
        errors.append({"field": "body.title", "reason": "title is required"})
    elif not isinstance(title, str):
        errors.append({"field": "body.title", "reason": "title must be a string"})
    else:
        t = title.strip()
        if len(t) < 1:
            errors.append({"field": "body.title", "reason": "title must not be blank"})
        elif len(t) > 100:
            errors.append({"field": "body.title", "reason": "title must be at most 100 characters"})
        else:
            clean["title"] = t

    content = data.get("content")
    if content is None:
        clean["content"] = ""
    elif not isinstance(content, str):
        errors.append({"field": "body.content", "reason": "content must be a string"})
    elif len(content) > 10000:
        errors.append({"field": "body.content", "reason": "content must be at most 10000 characters"})
    else:
        clean["content"] = content

    tags = data.get("tags")
    if tags is None:
        clean["tags"] = []
    elif not isinstance(tags, list):
        errors.append({"field": "body.tags", "reason": "tags must be an array of strings"})
    else:
        norm = set()
        ok = True
        for i, tg in enumerate(tags):
            if not isinstance(tg, str):
                errors.append({"field": "body.tags.%d" % i, "reason": "tag must be a string"})
                ok = False
                continue
            low = tg.lower()
            if not TAG_RE.match(low):
                errors.append({"field": "body.tags.%d" % i,
                               "reason": "tag must match ^[a-z0-9_-]{1,20}$ after lowercasing"})
                ok = False
                continue
            norm.add(low)
        if len(norm) > 8:
            errors.append({"field": "body.tags", "reason": "at most 8 distinct tags are allowed"})
            ok = False
        if ok:
            clean["tags"] = sorted(norm)
    if errors:
        raise validation_error(errors)
    return clean


# ----------------------------------------------------------------- routes

@app.route("/health", methods=["GET"])
def health():
    return jsonify({"status": "ok"})


@app.route("/auth/register", methods=["POST"])
def register():
    data = json_body()
    errors = []
    username = data.get("username")
    password = data.get("password")
    if username is None:
        errors.append({"field": "body.username", "reason": "username is required"})
    elif not isinstance(username, str):
        errors.append({"field": "body.username", "reason": "username must be a string"})
    elif not USERNAME_RE.match(username):
        errors.append({"field": "body.username",
                       "reason": "username must match ^[a-z0-9_]{3,32}$"})
    if password is None:
        errors.append({"field": "body.password", "reason": "password is required"})
    elif not isinstance(password, str):
        errors.append({"field": "body.password", "reason": "password must be a string"})
    elif not (8 <= len(password) <= 128):
        errors.append({"field": "body.password", "reason": "password must be 8 to 128 characters"})
    if errors:
        raise validation_error(errors)
    with LOCK:
        if username in STATE["by_name"]:
            raise ApiError(409, "USERNAME_TAKEN", "Username '%s' is already registered" % username)
        uid = STATE["next_user"]
        STATE["next_user"] += 1
        salt = secrets.token_bytes(16)
        user = {"id": uid, "username": username, "created_at": now_iso(),
                "salt": salt, "pw": hash_pw(password, salt)}
        STATE["users"][uid] = user
        STATE["by_name"][username] = uid
    resp = jsonify({"id": uid, "username": username, "created_at": user["created_at"]})
    resp.status_code = 201
    return resp


@app.route("/auth/login", methods=["POST"])
def login():
    data = json_body()
    errors = []
    username = data.get("username")
    password = data.get("password")
    for name, val in (("username", username), ("password", password)):
        if val is None:
            errors.append({"field": "body.%s" % name, "reason": "%s is required" % name})
        elif not isinstance(val, str):
            errors.append({"field": "body.%s" % name, "reason": "%s must be a string" % name})
    if errors:
        raise validation_error(errors)
    with LOCK:
        uid = STATE["by_name"].get(username)
        user = STATE["users"].get(uid) if uid is not None else None
        if user is None or not secrets.compare_digest(hash_pw(password, user["salt"]), user["pw"]):
            raise ApiError(401, "INVALID_CREDENTIALS", "Wrong username or password")
        token = secrets.token_urlsafe(32)
        STATE["tokens"][token] = (uid, time.time() + TOKEN_TTL)
    return jsonify({"access_token": token, "token_type": "bearer", "expires_in": TOKEN_TTL})


@app.route("/auth/logout", methods=["POST"])
def logout():
    _user, token = current_user()
    with LOCK:
        STATE["tokens"].pop(token, None)
    return Response(status=204)


@app.route("/users/me", methods=["GET"])
def me():
    user, _ = current_user()
    with LOCK:
        count = sum(1 for n in STATE["notes"].values() if n["owner"] == user["id"])
    return jsonify({"id": user["id"], "username": user["username"],
                    "created_at": user["created_at"], "note_count": count})


@app.route("/notes", methods=["GET"])
def list_notes():
    user, _ = current_user()
    tag = request.args.get("tag")
    q = request.args.get("q")
    errors = []
    if tag is not None and len(tag) > 20:
        errors.append({"field": "query.tag", "reason": "tag must be at most 20 characters"})
    if q is not None and len(q) > 100:
        errors.append({"field": "query.q", "reason": "q must be at most 100 characters"})
    if errors:
        raise validation_error(errors)
    tag_l = tag.lower() if tag else None
    q_l = q.lower() if q else None
    with LOCK:
        items = []
        for nid in sorted(STATE["notes"]):
            n = STATE["notes"][nid]
            if n["owner"] != user["id"]:
                continue
            if tag_l is not None and tag_l not in n["tags"]:
                continue
            if q_l is not None and q_l not in n["title"].lower() and q_l not in n["content"].lower():
                continue
            items.append(public_note(n))
    return jsonify({"items": items, "total": len(items)})


@app.route("/notes", methods=["POST"])
def create_note():
    user, _ = current_user()
    clean = validate_note_body(json_body())
    with LOCK:
        nid = STATE["next_note"]
        STATE["next_note"] += 1
        ts = now_iso()
        note = {"id": nid, "owner": user["id"], "title": clean["title"],
                "content": clean["content"], "tags": clean["tags"],
                "created_at": ts, "updated_at": ts}
        STATE["notes"][nid] = note
        out = public_note(note)
    resp = jsonify(out)
    resp.status_code = 201
    return resp


def owned_note(user, nid):
    n = STATE["notes"].get(nid)
    if n is None or n["owner"] != user["id"]:
        raise ApiError(404, "NOTE_NOT_FOUND", "Note %d was not found" % nid)
    return n


@app.route("/notes/<raw_id>", methods=["GET"])
def get_note(raw_id):
    user, _ = current_user()
    nid = parse_note_id(raw_id)
    with LOCK:
        return jsonify(public_note(owned_note(user, nid)))


@app.route("/notes/<raw_id>", methods=["PUT"])
def put_note(raw_id):
    user, _ = current_user()
    nid = parse_note_id(raw_id)
    with LOCK:
        owned_note(user, nid)
    clean = validate_note_body(json_body())
    with LOCK:
        n = owned_note(user, nid)
        n["title"] = clean["title"]
        n["content"] = clean["content"]
        n["tags"] = clean["tags"]
        n["updated_at"] = now_iso()
        return jsonify(public_note(n))


@app.route("/notes/<raw_id>", methods=["DELETE"])
def delete_note(raw_id):
    user, _ = current_user()
    nid = parse_note_id(raw_id)
    with LOCK:
        owned_note(user, nid)
        del STATE["notes"][nid]
    return Response(status=204)


@app.route("/tags", methods=["GET"])
def tag_stats():
    user, _ = current_user()
    counts = {}
    with LOCK:
        for n in STATE["notes"].values():
            if n["owner"] != user["id"]:
                continue
            for t in n["tags"]:
                counts[t] = counts.get(t, 0) + 1
    out = [{"tag": t, "count": c} for t, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    return jsonify(out)


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8105"))
    host = os.environ.get("BIND", "0.0.0.0")
    app.run(host=host, port=port, threaded=True, debug=False, use_reloader=False)
