"""Independent TODO service with JWT bearer auth (Flask, in-memory state).

Written from the task README only. State lives in memory behind one lock; a fresh
start has no users and no TODOs.
"""
import datetime as dt
import hashlib
import hmac
import os
import secrets
import threading

import jwt
from flask import Flask, jsonify, request

app = Flask(__name__)
app.url_map.strict_slashes = False  # /todos and /todos/ are both served

SECRET = os.environ.get("JWT_SECRET") or secrets.token_hex(32)
ALGORITHM = "HS256"
TOKEN_MINUTES = 60
DEFAULT_PRIORITY = 3

_lock = threading.Lock()
_users_by_id = {}      # id -> {"id", "email", "salt", "hash", "created_at"}
_users_by_email = {}   # lower-cased email -> id
_todos = {}            # id -> todo dict (with "owner_id")
_next_user_id = 1001
_next_todo_id = 1


def _now():
    return dt.datetime.now(dt.timezone.utc)


def _iso(t):
    return t.isoformat().replace("+00:00", "Z") if t else None


def error(status, message, **headers):
    resp = jsonify({"error": message, "status": status})
    resp.status_code = status
    for k, v in headers.items():
        resp.headers[k.replace("_", "-")] = v
    return resp


def _hash(password, salt):
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, 20000)


def _public_user(u):
    return {"id": u["id"], "email": u["email"], "created_at": _iso(u["created_at"])}


def _public_todo(t):
    return {
        "id": t["id"],
        "title": t["title"],
        "description": t["description"],
        "priority": t["priority"],
        "completed": t["completed"],
        "completed_at": _iso(t["completed_at"]),
        "created_at": _iso(t["created_at"]),
        "updated_at": _iso(t["updated_at"]),
        "owner_id": t["owner_id"],
    }


def _json_object():
    data = request.get_json(silent=True, force=True)
    if not isinstance(data, dict):
        return None
    return data


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _current_user():
    """Return (user, None) or (None, error response)."""
    auth = request.headers.get("Authorization", "")
    parts = auth.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        return None, error(401, "Missing or malformed bearer token", WWW_Authenticate="Bearer")
    try:
        claims = jwt.decode(parts[1].strip(), SECRET, algorithms=[ALGORITHM],
                            options={"require": ["sub", "exp"]})
        uid = int(claims["sub"])
    except (jwt.PyJWTError, ValueError, TypeError):
        return None, error(401, "Invalid or expired token",
                           WWW_Authenticate='Bearer error="invalid_token"')
    with _lock:
        user = _users_by_id.get(uid)
    if user is None:
        return None, error(401, "Token does not belong to a known user",
                           WWW_Authenticate='Bearer error="invalid_token"')
    return user, None


# ---------------------------------------------------------------- users / auth

@app.post("/register")
def register():
    global _next_user_id
    data = _json_object()
    if data is None:
        return error(400, "Request body must be a JSON object")
    email, password = data.get("email"), data.get("password")
    if not isinstance(email, str) or not email.strip():
        return error(400, "'email' is required and must be a string")
    email = email.strip()
    local, at, domain = email.partition("@")
    if not at or not local or not domain or "@" in domain or " " in email:
        return error(400, "'email' is not a valid e-mail address")
    if not isinstance(password, str) or password == "":
        return error(400, "'password' is required and must be a non-empty string")
    salt = secrets.token_bytes(16)
    digest = _hash(password, salt)
    with _lock:
        if email.lower() in _users_by_email:
            return error(409, "An account with this e-mail already exists")
        user = {"id": _next_user_id, "email": email, "salt": salt, "hash": digest,
                "created_at": _now()}
        _next_user_id += 1
        _users_by_id[user["id"]] = user
        _users_by_email[email.lower()] = user["id"]
    return jsonify(_public_user(user)), 201


@app.post("/token")
def token():
    if request.mimetype == "application/json":
        data = _json_object() or {}
    else:
        data = request.form
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not username or not isinstance(password, str) or not password:
        resp = jsonify({"error": "invalid_request",
                        "error_description": "'username' and 'password' are required", "status": 400})
        resp.status_code = 400
        return resp
    with _lock:
        uid = _users_by_email.get(username.strip().lower())
        user = _users_by_id.get(uid) if uid is not None else None
    if user is None or not hmac.compare_digest(_hash(password, user["salt"]), user["hash"]):
        # RFC 6749 section 5.2: a bad resource-owner password grant is 400 invalid_grant.
        resp = jsonify({"error": "invalid_grant",
                        "error_description": "Incorrect e-mail or password", "status": 400})
        resp.status_code = 400
        return resp
    now = _now()
    claims = {"sub": str(user["id"]), "email": user["email"], "iat": now,
              "exp": now + dt.timedelta(minutes=TOKEN_MINUTES), "jti": secrets.token_hex(8)}
    tok = jwt.encode(claims, SECRET, algorithm=ALGORITHM)
    return jsonify({"access_token": tok, "token_type": "bearer",
                    "expires_in": TOKEN_MINUTES * 60}), 200


@app.get("/users/me")
def me():
    user, err = _current_user()
    if err:
        return err
    return jsonify(_public_user(user))


# ---------------------------------------------------------------- todos

def _validate_fields(data, creating):
    """Return (changes, None) or (None, message). Null/absent fields are left out."""
    changes = {}
    title = data.get("title")
    if title is None:
        if creating:
            return None, "'title' is required"
    elif not isinstance(title, str) or not title.strip():
        return None, "'title' must be a non-empty string"
    else:
        changes["title"] = title
    if "description" in data and data["description"] is not None:
        if not isinstance(data["description"], str):
            return None, "'description' must be a string or null"
        changes["description"] = data["description"]
    if "priority" in data and data["priority"] is not None:
        if not _is_int(data["priority"]):
            return None, "'priority' must be an integer"
        changes["priority"] = data["priority"]
    if "completed" in data and data["completed"] is not None:
        if not isinstance(data["completed"], bool):
            return None, "'completed' must be a boolean"
        changes["completed"] = data["completed"]
    return changes, None


def _apply(todo, changes, now):
    for k, v in changes.items():
        if k == "completed":
            if v and not todo["completed"]:
                todo["completed_at"] = now
            elif not v:
                todo["completed_at"] = None
        todo[k] = v
    todo["updated_at"] = now


def _owned(todo_id, user):
    t = _todos.get(todo_id)
    if t is None or t["owner_id"] != user["id"]:
        return None
    return t


@app.post("/todos")
def create_todo():
    global _next_todo_id
    user, err = _current_user()
    if err:
        return err
    data = _json_object()
    if data is None:
        return error(400, "Request body must be a JSON object")
    changes, msg = _validate_fields(data, creating=True)
    if msg:
        return error(400, msg)
    now = _now()
    with _lock:
        todo = {"id": _next_todo_id, "title": None, "description": "",
                "priority": DEFAULT_PRIORITY, "completed": False, "completed_at": None,
                "created_at": now, "updated_at": now, "owner_id": user["id"]}
        _next_todo_id += 1
        _apply(todo, changes, now)
        todo["updated_at"] = now
        _todos[todo["id"]] = todo
        body = _public_todo(todo)
    return jsonify(body), 201


@app.get("/todos")
def list_todos():
    user, err = _current_user()
    if err:
        return err
    with _lock:
        mine = [t for t in _todos.values() if t["owner_id"] == user["id"]]
        mine.sort(key=lambda t: t["id"], reverse=True)  # newest first
        body = [_public_todo(t) for t in mine]
    return jsonify(body)


@app.get("/todos/<int:todo_id>")
def get_todo(todo_id):
    user, err = _current_user()
    if err:
        return err
    with _lock:
        t = _owned(todo_id, user)
        body = _public_todo(t) if t else None
    if body is None:
        return error(404, f"TODO {todo_id} not found")
    return jsonify(body)


@app.put("/todos/<int:todo_id>")
def update_todo(todo_id):
    user, err = _current_user()
    if err:
        return err
    data = _json_object()
    if data is None:
        return error(400, "Request body must be a JSON object")
    changes, msg = _validate_fields(data, creating=False)
    if msg:
        return error(400, msg)
    with _lock:
        t = _owned(todo_id, user)
        if t is None:
            return error(404, f"TODO {todo_id} not found")
        _apply(t, changes, _now())
        body = _public_todo(t)
    return jsonify(body)


@app.patch("/todos/<int:todo_id>/complete")
def complete_todo(todo_id):
    user, err = _current_user()
    if err:
        return err
    with _lock:
        t = _owned(todo_id, user)
        if t is None:
            return error(404, f"TODO {todo_id} not found")
        if not t["completed"]:
            _apply(t, {"completed": True}, _now())
        body = _public_todo(t)
    return jsonify(body)


@app.delete("/todos/<int:todo_id>")
def delete_todo(todo_id):
    user, err = _current_user()
    if err:
        return err
    with _lock:
        t = _owned(todo_id, user)
        if t is None:
            return error(404, f"TODO {todo_id} not found")
        del _todos[todo_id]
    return "", 204


# ---------------------------------------------------------------- generic errors

@app.errorhandler(404)
def _not_found(e):
    return error(404, "No such resource")


@app.errorhandler(405)
def _not_allowed(e):
    resp = error(405, "Method not allowed on this resource")
    if getattr(e, "valid_methods", None):
        resp.headers["Allow"] = ", ".join(e.valid_methods)
    return resp


@app.errorhandler(400)
def _bad_request(e):
    return error(400, "Malformed request")


@app.errorhandler(500)
def _server_error(e):
    return error(500, "Internal server error")


if __name__ == "__main__":
    host = os.environ.get("BIND", "0.0.0.0")
    port = int(os.environ.get("PORT", "9201"))
    app.run(host=host, port=port, threaded=True, debug=False, use_reloader=False)
