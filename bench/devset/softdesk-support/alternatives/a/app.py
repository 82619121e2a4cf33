"""SoftDesk Support API -- an independent Flask implementation written from README.md only.

State lives in memory behind one lock; a fresh start is empty (the README documents no seed data).
"""
import base64
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
import uuid
from datetime import datetime, timezone

from flask import Flask, g, jsonify, request
from werkzeug.exceptions import HTTPException
from werkzeug.security import check_password_hash, generate_password_hash

app = Flask(__name__)
app.url_map.strict_slashes = False  # every route answers with and without the trailing slash
app.json.sort_keys = False

LOCK = threading.RLock()
SECRET = secrets.token_bytes(32)
ACCESS_TTL = 60 * 60          # one hour
REFRESH_TTL = 7 * 24 * 60 * 60

USERS = {}         # id -> dict
PROJECTS = {}      # id -> dict
CONTRIBUTORS = {}  # id -> {"id", "project_id", "user_id", "added"}
ISSUES = {}        # id -> dict
COMMENTS = {}      # uuid str -> dict
COUNTERS = {"user": 500, "project": 1000, "contributor": 7000, "issue": 3000}


def next_id(kind):
    COUNTERS[kind] += 1
    return COUNTERS[kind]


def now():
    return datetime.now(timezone.utc)


def fmt_iso_micro(dt):   # as in the project example: 2023-12-12T15:26:46.883188Z
    return dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def fmt_iso_sec(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def fmt_plain(dt):       # as in the comment example: 2023-12-12 16:19:55
    return dt.strftime("%Y-%m-%d %H:%M:%S")


# ---------------------------------------------------------------- errors

class ApiError(Exception):
    def __init__(self, status, message, fields=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.fields = fields


@app.errorhandler(ApiError)
def _api_error(e):
    body = {"error": e.message, "status": e.status}
    if e.fields:
        body["fields"] = e.fields
    resp = jsonify(body)
    resp.status_code = e.status
    if e.status == 401:
        resp.headers["WWW-Authenticate"] = 'Bearer realm="api"'
    return resp


@app.errorhandler(HTTPException)
def _http_error(e):
    resp = jsonify({"error": e.description or e.name, "status": e.code})
    resp.status_code = e.code
    if e.code == 405 and getattr(e, "valid_methods", None):
        resp.headers["Allow"] = ", ".join(e.valid_methods)
    return resp


def invalid(fields):
    raise ApiError(422, "The request body is not valid.", fields)


# ---------------------------------------------------------------- JWT (HS256, stdlib only)

def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def make_token(user_id, kind, ttl):
    header = {"alg": "HS256", "typ": "JWT"}
    issued = int(time.time())
    payload = {"token_type": kind, "user_id": user_id, "iat": issued, "exp": issued + ttl,
               "jti": uuid.uuid4().hex}
    signing = _b64(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        _b64(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(SECRET, signing.encode(), hashlib.sha256).digest()
    return signing + "." + _b64(sig)


def read_token(token, kind):
    try:
        head, body, sig = token.split(".")
        expected = hmac.new(SECRET, (head + "." + body).encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(expected, _unb64(sig)):
            return None
        payload = json.loads(_unb64(body))
    except Exception:
        return None
    if not isinstance(payload, dict) or payload.get("token_type") != kind:
        return None
    if not isinstance(payload.get("exp"), int) or payload["exp"] < time.time():
        return None
    return payload


def current_user():
    """Returns the authenticated user or raises 401."""
    header = request.headers.get("Authorization", "")
    parts = header.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer":
        raise ApiError(401, "Authentication required: send 'Authorization: Bearer <access token>'.")
    payload = read_token(parts[1].strip(), "access")
    if payload is None:
        raise ApiError(401, "The access token is invalid or has expired.")
    user = USERS.get(payload.get("user_id"))
    if user is None:
        raise ApiError(401, "The account behind this token no longer exists.")
    return user


# ---------------------------------------------------------------- body helpers

def body():
    if request.mimetype == "application/json" or (request.data and not request.form):
        raw = request.get_data(cache=True)
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except ValueError:
            raise ApiError(400, "The request body is not valid JSON.")
        if not isinstance(data, dict):
            raise ApiError(400, "The request body must be a JSON object.")
        return data
    if request.form:
        return {k: v for k, v in request.form.items()}
    return {}


def text_field(data, name, errors, required, allow_blank=False, max_len=None):
    if name not in data or data[name] is None:
        if required:
            errors[name] = "This field is required."
        return None
    value = data[name]
    if not isinstance(value, str):
        errors[name] = "Must be a string."
        return None
    if not allow_blank and not value.strip():
        errors[name] = "May not be blank."
        return None
    if max_len and len(value) > max_len:
        errors[name] = f"At most {max_len} characters."
        return None
    return value


def bool_field(data, name, errors):
    if name not in data or data[name] is None:
        return None
    value = data[name]
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "1", "yes", "on"):
        return True
    if isinstance(value, str) and value.lower() in ("false", "0", "no", "off"):
        return False
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    errors[name] = "Must be a boolean."
    return None


def int_field(data, name, errors):
    if name not in data or data[name] is None:
        return None
    value = data[name]
    if isinstance(value, bool):
        errors[name] = "Must be an integer."
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        errors[name] = "Must be an integer."
        return None
    if value < 0 or value > 150:
        errors[name] = "Must be between 0 and 150."
        return None
    return value


def message(text):
    return jsonify({"message": text}), 200


# ---------------------------------------------------------------- serializers

def base_url():
    return request.host_url.rstrip("/")


def user_full(u):
    return {
        "id": u["id"],
        "url": f"{base_url()}/api/users/{u['id']}/",
        "username": u["username"],
        "age": u["age"],
        "can_be_contacted": u["can_be_contacted"],
        "can_data_be_shared": u["can_data_be_shared"],
        "created_time": fmt_iso_sec(u["created"]),
    }


def user_short(u):
    return {"id": u["id"], "username": u["username"], "url": f"{base_url()}/api/users/{u['id']}/"}


def username_of(user_id):
    u = USERS.get(user_id)
    return u["username"] if u else None


def project_contributor_rows(pid):
    rows = [c for c in CONTRIBUTORS.values() if c["project_id"] == pid]
    author = PROJECTS[pid]["author_id"]
    rows.sort(key=lambda c: (c["user_id"] != author, c["id"]))
    return rows


def project_short(p):
    return {
        "url": f"{base_url()}/api/projects/{p['id']}/",
        "id": p["id"],
        "name": p["name"],
        "description": p["description"],
        "type": p["type"],
        "author_username": username_of(p["author_id"]),
    }


def project_full(p):
    issues = sorted((i for i in ISSUES.values() if i["project_id"] == p["id"]),
                    key=lambda i: i["id"])
    return {
        "id": p["id"],
        "url": f"{base_url()}/api/projects/{p['id']}/",
        "name": p["name"],
        "description": p["description"],
        "type": p["type"],
        "created_time": fmt_iso_micro(p["created"]),
        "author_username": username_of(p["author_id"]),
        "issues": [{"id": i["id"], "title": i["title"], "status": i["status"],
                    "priority": i["priority"], "tag": i["tag"]} for i in issues],
        "contributors": [username_of(c["user_id"]) for c in project_contributor_rows(p["id"])],
    }


def contributor_out(c):
    return {
        "id": c["id"],
        "user": username_of(c["user_id"]),
        "user_id": c["user_id"],
        "project": c["project_id"],
        "is_author": PROJECTS[c["project_id"]]["author_id"] == c["user_id"],
        "added_time": fmt_iso_sec(c["added"]),
    }


def issue_out(i):
    return {
        "id": i["id"],
        "url": f"{base_url()}/api/projects/{i['project_id']}/issues/{i['id']}/",
        "title": i["title"],
        "description": i["description"],
        "status": i["status"],
        "priority": i["priority"],
        "tag": i["tag"],
        "project": i["project_id"],
        "author_username": username_of(i["author_id"]),
        "created_time": fmt_iso_sec(i["created"]),
        "comments_count": sum(1 for c in COMMENTS.values() if c["issue_id"] == i["id"]),
    }


def comment_out(c):
    return {
        "id": c["id"],
        "description": c["description"],
        "author_username": username_of(c["author_id"]),
        "created_time": fmt_plain(c["created"]),
        "issue": c["issue_id"],
    }


# ---------------------------------------------------------------- lookups / permissions

def find_user(uid):
    u = USERS.get(uid)
    if u is None:
        raise ApiError(404, f"No user with id {uid}.")
    return u


def find_user_by_name(name):
    for u in USERS.values():
        if u["username"] == name:
            return u
    return None


def find_project(pid):
    p = PROJECTS.get(pid)
    if p is None:
        raise ApiError(404, f"No project with id {pid}.")
    return p


def is_contributor(pid, uid):
    if PROJECTS[pid]["author_id"] == uid:
        return True
    return any(c["project_id"] == pid and c["user_id"] == uid for c in CONTRIBUTORS.values())


def require_contributor(p, user):
    if not is_contributor(p["id"], user["id"]):
        raise ApiError(403, "Only the author or the contributors of this project may do this.")


def require_project_author(p, user):
    if p["author_id"] != user["id"]:
        raise ApiError(403, "Only the author of this project may do this.")


def find_issue(p, iid):
    i = ISSUES.get(iid)
    if i is None or i["project_id"] != p["id"]:
        raise ApiError(404, f"No issue with id {iid} in project {p['id']}.")
    return i


def find_comment(i, cid):
    try:
        key = str(uuid.UUID(cid))
    except ValueError:
        raise ApiError(404, f"No comment with id {cid}.")
    c = COMMENTS.get(key)
    if c is None or c["issue_id"] != i["id"]:
        raise ApiError(404, f"No comment with id {cid} on issue {i['id']}.")
    return c


# ---------------------------------------------------------------- cascades

def delete_comment_rows(pred):
    for cid in [k for k, c in COMMENTS.items() if pred(c)]:
        del COMMENTS[cid]


def delete_issue(iid):
    delete_comment_rows(lambda c: c["issue_id"] == iid)
    ISSUES.pop(iid, None)


def delete_project(pid):
    for iid in [k for k, i in ISSUES.items() if i["project_id"] == pid]:
        delete_issue(iid)
    for cid in [k for k, c in CONTRIBUTORS.items() if c["project_id"] == pid]:
        del CONTRIBUTORS[cid]
    PROJECTS.pop(pid, None)


def delete_user(uid):
    for pid in [k for k, p in PROJECTS.items() if p["author_id"] == uid]:
        delete_project(pid)
    for iid in [k for k, i in ISSUES.items() if i["author_id"] == uid]:
        delete_issue(iid)
    delete_comment_rows(lambda c: c["author_id"] == uid)
    for cid in [k for k, c in CONTRIBUTORS.items() if c["user_id"] == uid]:
        del CONTRIBUTORS[cid]
    USERS.pop(uid, None)


# ---------------------------------------------------------------- users

def validate_user(data, partial, exclude_id=None):
    errors = {}
    out = {}
    username = text_field(data, "username", errors, required=not partial, max_len=150)
    if username is not None:
        username = username.strip()
        other = find_user_by_name(username)
        if other is not None and other["id"] != exclude_id:
            raise ApiError(409, "A user with that username already exists.",
                           {"username": "Already taken."})
        out["username"] = username
    password = text_field(data, "password", errors, required=not partial)
    if password is not None:
        out["password"] = password
    age = int_field(data, "age", errors)
    if age is not None:
        out["age"] = age
    for flag in ("can_be_contacted", "can_data_be_shared"):
        v = bool_field(data, flag, errors)
        if v is not None:
            out[flag] = v
    if errors:
        invalid(errors)
    return out


@app.route("/api/users/", methods=["POST"])
def users_create():
    with LOCK:
        fields = validate_user(body(), partial=False)
        u = {
            "id": next_id("user"),
            "username": fields["username"],
            "password_hash": generate_password_hash(fields["password"], method="pbkdf2:sha256:1000"),
            "age": fields.get("age"),
            "can_be_contacted": fields.get("can_be_contacted", False),
            "can_data_be_shared": fields.get("can_data_be_shared", False),
            "created": now(),
        }
        USERS[u["id"]] = u
        return jsonify(user_full(u)), 200


@app.route("/api/users/", methods=["GET"])
def users_list():
    with LOCK:
        current_user()
        return jsonify([user_short(u) for u in sorted(USERS.values(), key=lambda u: u["username"])])


@app.route("/api/users/<int:uid>/", methods=["GET", "PUT", "PATCH", "DELETE"])
def users_detail(uid):
    with LOCK:
        me = current_user()
        u = find_user(uid)
        if u["id"] != me["id"]:
            raise ApiError(403, "You may only see or change your own account.")
        if request.method == "GET":
            return jsonify(user_full(u))
        if request.method == "DELETE":
            delete_user(u["id"])
            return message(f"User {uid} and everything it authored were deleted.")
        fields = validate_user(body(), partial=request.method == "PATCH", exclude_id=u["id"])
        if "password" in fields:
            u["password_hash"] = generate_password_hash(fields.pop("password"),
                                                        method="pbkdf2:sha256:1000")
        u.update(fields)
        return jsonify(user_full(u))


# ---------------------------------------------------------------- tokens

@app.route("/api/token/", methods=["POST"])
def token_obtain():
    with LOCK:
        data = body()
        errors = {}
        username = text_field(data, "username", errors, required=True)
        password = text_field(data, "password", errors, required=True, allow_blank=True)
        if errors:
            invalid(errors)
        u = find_user_by_name(username.strip())
        if u is None or not check_password_hash(u["password_hash"], password):
            raise ApiError(401, "No active account found with these credentials.")
        return jsonify({
            "access": make_token(u["id"], "access", ACCESS_TTL),
            "refresh": make_token(u["id"], "refresh", REFRESH_TTL),
            "token_type": "Bearer",
            "expires_in": ACCESS_TTL,
        })


@app.route("/api/token/refresh/", methods=["POST"])
def token_refresh():
    with LOCK:
        data = body()
        errors = {}
        refresh = text_field(data, "refresh", errors, required=True)
        if errors:
            invalid(errors)
        payload = read_token(refresh, "refresh")
        if payload is None or payload.get("user_id") not in USERS:
            raise ApiError(401, "The refresh token is invalid or has expired.")
        return jsonify({"access": make_token(payload["user_id"], "access", ACCESS_TTL),
                        "token_type": "Bearer", "expires_in": ACCESS_TTL})


# ---------------------------------------------------------------- projects

def validate_project(data, partial):
    errors = {}
    out = {}
    name = text_field(data, "name", errors, required=not partial, max_len=255)
    if name is not None:
        out["name"] = name
    description = text_field(data, "description", errors, required=False, allow_blank=True)
    if description is not None:
        out["description"] = description
    ptype = text_field(data, "type", errors, required=not partial, max_len=64)
    if ptype is not None:
        out["type"] = ptype
    if errors:
        invalid(errors)
    return out


@app.route("/api/projects/", methods=["GET", "POST"])
def projects_collection():
    with LOCK:
        me = current_user()
        if request.method == "GET":
            items = sorted(PROJECTS.values(), key=lambda p: p["id"], reverse=True)
            return jsonify([project_short(p) for p in items])
        fields = validate_project(body(), partial=False)
        p = {"id": next_id("project"), "name": fields["name"],
             "description": fields.get("description", ""), "type": fields["type"],
             "author_id": me["id"], "created": now()}
        PROJECTS[p["id"]] = p
        cid = next_id("contributor")
        CONTRIBUTORS[cid] = {"id": cid, "project_id": p["id"], "user_id": me["id"], "added": now()}
        out = project_short(p)
        out["created_time"] = fmt_iso_micro(p["created"])
        return jsonify(out), 200


@app.route("/api/projects/<int:pid>/", methods=["GET", "PUT", "PATCH", "DELETE"])
def projects_detail(pid):
    with LOCK:
        me = current_user()
        p = find_project(pid)
        # README: "you won't have access to the details of projects that are not authored by you"
        require_project_author(p, me)
        if request.method == "GET":
            return jsonify(project_full(p))
        if request.method == "DELETE":
            delete_project(pid)
            return message(f"Project {pid} was deleted with its issues and comments.")
        fields = validate_project(body(), partial=request.method == "PATCH")
        p.update(fields)
        return jsonify(project_full(p))


# ---------------------------------------------------------------- contributors

def username_from(data, primary, secondary):
    value = data.get(primary)
    if value is None:
        value = data.get(secondary)
    if value is None:
        invalid({primary: "This field is required (a username)."})
    if not isinstance(value, str) or not value.strip():
        invalid({primary: "Must be a non-blank username."})
    return value.strip()


@app.route("/api/projects/<int:pid>/contributors/", methods=["GET", "POST", "DELETE"])
def contributors(pid):
    with LOCK:
        me = current_user()
        p = find_project(pid)
        if request.method == "GET":
            require_contributor(p, me)
            return jsonify([contributor_out(c) for c in project_contributor_rows(pid)])
        require_project_author(p, me)
        data = body()
        if request.method == "POST":
            name = username_from(data, "user", "username")
            u = find_user_by_name(name)
            if u is None:
                raise ApiError(404, f"No user named '{name}'.")
            if is_contributor(pid, u["id"]):
                raise ApiError(409, f"'{name}' is already a contributor of this project.")
            cid = next_id("contributor")
            c = {"id": cid, "project_id": pid, "user_id": u["id"], "added": now()}
            CONTRIBUTORS[cid] = c
            return jsonify(contributor_out(c)), 200
        name = username_from(data, "username", "user")
        u = find_user_by_name(name)
        if u is None:
            raise ApiError(404, f"No user named '{name}'.")
        if u["id"] == p["author_id"]:
            raise ApiError(400, "The author of a project cannot be removed from its contributors.")
        rows = [k for k, c in CONTRIBUTORS.items() if c["project_id"] == pid and c["user_id"] == u["id"]]
        if not rows:
            raise ApiError(404, f"'{name}' is not a contributor of this project.")
        for k in rows:
            del CONTRIBUTORS[k]
        return message(f"'{name}' was removed from the contributors of project {pid}.")


# ---------------------------------------------------------------- issues

def validate_issue(data, partial):
    errors = {}
    out = {}
    title = text_field(data, "title", errors, required=not partial, max_len=255)
    if title is not None:
        out["title"] = title
    description = text_field(data, "description", errors, required=False, allow_blank=True)
    if description is not None:
        out["description"] = description
    for name in ("status", "priority", "tag"):
        v = text_field(data, name, errors, required=False, max_len=64)
        if v is not None:
            out[name] = v
    if errors:
        invalid(errors)
    return out


@app.route("/api/projects/<int:pid>/issues/", methods=["GET", "POST"])
def issues_collection(pid):
    with LOCK:
        me = current_user()
        p = find_project(pid)
        require_contributor(p, me)
        if request.method == "GET":
            items = sorted((i for i in ISSUES.values() if i["project_id"] == pid),
                           key=lambda i: i["id"], reverse=True)
            return jsonify([issue_out(i) for i in items])
        fields = validate_issue(body(), partial=False)
        i = {"id": next_id("issue"), "project_id": pid, "author_id": me["id"], "created": now(),
             "title": fields["title"], "description": fields.get("description", ""),
             "status": fields.get("status", "to_do"), "priority": fields.get("priority", "low"),
             "tag": fields.get("tag", "task")}
        ISSUES[i["id"]] = i
        return jsonify(issue_out(i)), 200


@app.route("/api/projects/<int:pid>/issues/<int:iid>/", methods=["GET", "PUT", "PATCH", "DELETE"])
def issues_detail(pid, iid):
    with LOCK:
        me = current_user()
        p = find_project(pid)
        i = find_issue(p, iid)
        # README: "To access, modify, or delete an issue (only author)"
        if i["author_id"] != me["id"]:
            raise ApiError(403, "Only the author of this issue may do this.")
        if request.method == "GET":
            return jsonify(issue_out(i))
        if request.method == "DELETE":
            delete_issue(iid)
            return message(f"Issue {iid} was deleted with its comments.")
        fields = validate_issue(body(), partial=request.method == "PATCH")
        i.update(fields)
        return jsonify(issue_out(i))


# ---------------------------------------------------------------- comments

def validate_comment(data, partial):
    errors = {}
    out = {}
    description = text_field(data, "description", errors, required=not partial)
    if description is not None:
        out["description"] = description
    if errors:
        invalid(errors)
    return out


@app.route("/api/projects/<int:pid>/issues/<int:iid>/comments/", methods=["GET", "POST"])
def comments_collection(pid, iid):
    with LOCK:
        me = current_user()
        p = find_project(pid)
        i = find_issue(p, iid)
        require_contributor(p, me)
        if request.method == "GET":
            items = sorted((c for c in COMMENTS.values() if c["issue_id"] == iid),
                           key=lambda c: c["seq"])
            return jsonify([comment_out(c) for c in items])
        fields = validate_comment(body(), partial=False)
        c = {"id": str(uuid.uuid4()), "issue_id": iid, "author_id": me["id"], "created": now(),
             "seq": time.monotonic_ns(), "description": fields["description"]}
        COMMENTS[c["id"]] = c
        return jsonify(comment_out(c)), 200


@app.route("/api/projects/<int:pid>/issues/<int:iid>/comments/<cid>/",
           methods=["GET", "PUT", "PATCH", "DELETE"])
def comments_detail(pid, iid, cid):
    with LOCK:
        me = current_user()
        p = find_project(pid)
        i = find_issue(p, iid)
        c = find_comment(i, cid)
        if request.method == "GET":
            if c["author_id"] != me["id"]:
                require_contributor(p, me)
            return jsonify(comment_out(c))
        if c["author_id"] != me["id"]:
            raise ApiError(403, "Only the author of this comment may do this.")
        if request.method == "DELETE":
            del COMMENTS[c["id"]]
            return message(f"Comment {c['id']} was deleted.")
        fields = validate_comment(body(), partial=request.method == "PATCH")
        c.update(fields)
        return jsonify(comment_out(c))


if __name__ == "__main__":
    host = os.environ.get("BIND", "0.0.0.0")
    port = int(os.environ.get("PORT", "9205"))
    app.run(host=host, port=port, threaded=True, debug=False, use_reloader=False)
