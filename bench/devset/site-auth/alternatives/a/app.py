"""Independent implementation of the site-auth service (Starlette + uvicorn, in memory).

Written from the task README only.  Users sign up / log in and get a JWT, which every other
request sends back in the ``api-token`` header.  Users can read themselves and others, edit and
delete their own account; sites are token-protected CRUD, and only a site's owner may change or
delete it.
"""
import datetime as _dt
import json
import os
import re
import secrets
import threading
import hashlib
import hmac

import jwt
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

SECRET = os.environ.get("JWT_SECRET_KEY") or secrets.token_hex(32)
TOKEN_HOURS = 12
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+$")

USER_FIELDS = ("name", "email", "username", "password")
SITE_RESERVED = ("id", "owner_id", "created_at", "modified_at")

_lock = threading.Lock()
_users = {}  # id -> dict (with password hash)
_sites = {}  # id -> dict
_next = {"user": 1001, "site": 2001}


# ---------------------------------------------------------------- helpers
def _now():
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _err(status, message):
    return JSONResponse({"error": {"status": status, "message": message}}, status_code=status)


class ApiError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


def _hash_pw(password, salt=None):
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 20000).hex()
    return f"{salt}${digest}"


def _check_pw(password, stored):
    salt, _, digest = stored.partition("$")
    return hmac.compare_digest(_hash_pw(password, salt).partition("$")[2], digest)


def _public_user(u):
    out = {k: v for k, v in u.items() if k != "password_hash"}
    out["site_ids"] = sorted(s["id"] for s in _sites.values() if s["owner_id"] == u["id"])
    return out


def _issue_token(user_id):
    now = _dt.datetime.now(_dt.timezone.utc)
    payload = {"sub": str(user_id), "iat": now, "exp": now + _dt.timedelta(hours=TOKEN_HOURS)}
    return jwt.encode(payload, SECRET, algorithm="HS256")


async def _json_object(request, allow_empty=False):
    raw = await request.body()
    if not raw.strip():
        if allow_empty:
            return {}
        raise ApiError(400, "a JSON object body is required")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "the request body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def _current_user(request):
    """Must be called with the lock held."""
    token = request.headers.get("api-token")
    if not token:
        raise ApiError(401, "authentication required: send the api-token header")
    try:
        payload = jwt.decode(token, SECRET, algorithms=["HS256"])
        uid = int(payload.get("sub"))
    except jwt.ExpiredSignatureError:
        raise ApiError(401, "the api-token has expired, log in again")
    except (jwt.PyJWTError, TypeError, ValueError):
        raise ApiError(401, "the api-token is invalid")
    user = _users.get(uid)
    if user is None:
        raise ApiError(401, "the api-token belongs to no existing user")
    return user


def _clean_str(data, key, required):
    if key not in data or data[key] is None:
        if required:
            raise ApiError(400, f"'{key}' is required")
        return None
    val = data[key]
    if not isinstance(val, str) or not val.strip():
        raise ApiError(400, f"'{key}' must be a non-empty string")
    return val.strip() if key != "password" else val


def _email_taken(email, except_id=None):
    return any(u.get("email") and u["email"].lower() == email.lower() and u["id"] != except_id
               for u in _users.values())


def _username_taken(username, except_id=None):
    return any(u.get("username") and u["username"].lower() == username.lower()
               and u["id"] != except_id for u in _users.values())


# ---------------------------------------------------------------- users
async def create_user(request):
    data = await _json_object(request)
    password = _clean_str(data, "password", True)
    username = _clean_str(data, "username", False)
    email = _clean_str(data, "email", username is None)
    name = _clean_str(data, "name", False)
    if email is not None and not EMAIL_RE.match(email):
        raise ApiError(400, "'email' is not a valid email address")
    with _lock:
        if email is not None and _email_taken(email):
            raise ApiError(409, "a user with this email already exists")
        if username is not None and _username_taken(username):
            raise ApiError(409, "a user with this username already exists")
        uid = _next["user"]
        _next["user"] += 1
        ts = _now()
        user = {"id": uid, "name": name, "email": email, "password_hash": _hash_pw(password),
                "created_at": ts, "modified_at": ts}
        if username is not None:
            user["username"] = username
        _users[uid] = user
        token = _issue_token(uid)
        body = {"api-token": token, "user": _public_user(user)}
    return JSONResponse(body, status_code=201)


async def login_user(request):
    data = await _json_object(request)
    password = _clean_str(data, "password", True)
    email = _clean_str(data, "email", False)
    username = _clean_str(data, "username", False)
    if email is None and username is None:
        raise ApiError(400, "'email' is required")
    with _lock:
        user = None
        for u in _users.values():
            if email is not None and u.get("email") and u["email"].lower() == email.lower():
                user = u
                break
            if email is None and u.get("username") and u["username"].lower() == username.lower():
                user = u
                break
        if user is None or not _check_pw(password, user["password_hash"]):
            raise ApiError(401, "invalid credentials")
        token = _issue_token(user["id"])
        body = {"api-token": token, "user": _public_user(user)}
    return JSONResponse(body, status_code=200)


async def list_users(request):
    with _lock:
        _current_user(request)
        users = [_public_user(u) for u in sorted(_users.values(), key=lambda u: -u["id"])]
    return JSONResponse(users)


async def get_user(request, user_id):
    with _lock:
        _current_user(request)
        user = _users.get(user_id)
        if user is None:
            raise ApiError(404, f"user {user_id} not found")
        return JSONResponse(_public_user(user))


async def get_me(request):
    with _lock:
        return JSONResponse(_public_user(_current_user(request)))


async def edit_me(request):
    data = await _json_object(request)
    with _lock:
        user = _current_user(request)
        changes = {}
        for key in ("name", "email", "username", "password"):
            if key in data:
                changes[key] = _clean_str(data, key, True)
        if not changes:
            raise ApiError(400, "nothing to update: send name, email, username or password")
        if "email" in changes:
            if not EMAIL_RE.match(changes["email"]):
                raise ApiError(400, "'email' is not a valid email address")
            if _email_taken(changes["email"], user["id"]):
                raise ApiError(409, "a user with this email already exists")
        if "username" in changes and _username_taken(changes["username"], user["id"]):
            raise ApiError(409, "a user with this username already exists")
        if "password" in changes:
            user["password_hash"] = _hash_pw(changes.pop("password"))
        user.update(changes)
        user["modified_at"] = _now()
        return JSONResponse(_public_user(user))


async def delete_me(request):
    with _lock:
        user = _current_user(request)
        owned = [sid for sid, s in _sites.items() if s["owner_id"] == user["id"]]
        for sid in owned:
            del _sites[sid]
        del _users[user["id"]]
    return JSONResponse({"message": "account deleted", "id": user["id"],
                         "deleted_site_ids": sorted(owned)})


# ---------------------------------------------------------------- sites
def _site_fields(data, partial):
    fields = {k: v for k, v in data.items() if k not in SITE_RESERVED}
    if not fields:
        raise ApiError(400, "the site needs at least one field (e.g. name, url)")
    for k, v in fields.items():
        if isinstance(v, str) and not v.strip() and not partial:
            raise ApiError(400, f"'{k}' must not be empty")
    return fields


async def create_site(request):
    data = await _json_object(request)
    with _lock:
        user = _current_user(request)
        fields = _site_fields(data, partial=False)
        sid = _next["site"]
        _next["site"] += 1
        ts = _now()
        site = dict(fields)
        site.update({"id": sid, "owner_id": user["id"], "created_at": ts, "modified_at": ts})
        _sites[sid] = site
        return JSONResponse(site, status_code=201)


async def list_sites(request):
    with _lock:
        _current_user(request)
        return JSONResponse(sorted(_sites.values(), key=lambda s: -s["id"]))


def _find_site(site_id):
    site = _sites.get(site_id)
    if site is None:
        raise ApiError(404, f"site {site_id} not found")
    return site


async def get_site(request, site_id):
    with _lock:
        _current_user(request)
        return JSONResponse(_find_site(site_id))


async def update_site(request, site_id):
    data = await _json_object(request)
    with _lock:
        user = _current_user(request)
        site = _find_site(site_id)
        if site["owner_id"] != user["id"]:
            raise ApiError(403, "only the owner of this site may change it")
        site.update(_site_fields(data, partial=True))
        site["modified_at"] = _now()
        return JSONResponse(site)


async def delete_site(request, site_id):
    with _lock:
        user = _current_user(request)
        site = _find_site(site_id)
        if site["owner_id"] != user["id"]:
            raise ApiError(403, "only the owner of this site may delete it")
        del _sites[site_id]
    return JSONResponse({"message": "site deleted", "id": site_id})


# ---------------------------------------------------------------- dispatch
COLLECTIONS = {
    "users": {"POST": create_user, "GET": list_users},
    "users/login": {"POST": login_user},
    "users/me": {"GET": get_me, "PUT": edit_me, "DELETE": delete_me},
    "sites": {"POST": create_site, "GET": list_sites},
}
ITEMS = {
    "users": {"GET": get_user},
    "sites": {"GET": get_site, "PUT": update_site, "DELETE": delete_site},
}
ITEM_RE = re.compile(r"^(users|sites)/(\d+)$")


async def dispatch(request: Request):
    path = request.url.path.strip("/")
    if not path.startswith("api/v1/"):
        return _err(404, "no such endpoint")
    rest = path[len("api/v1/"):].strip("/")
    args = ()
    table = COLLECTIONS.get(rest)
    if table is None:
        m = ITEM_RE.match(rest)
        if m is None:
            return _err(404, "no such endpoint")
        table = ITEMS[m.group(1)]
        args = (int(m.group(2)),)
    method = request.method
    if method == "HEAD" and "GET" in table:
        method = "GET"
    handler = table.get(method)
    if handler is None:
        resp = _err(405, f"method {request.method} is not allowed here")
        resp.headers["Allow"] = ", ".join(sorted(table))
        return resp
    try:
        return await handler(request, *args)
    except ApiError as e:
        return _err(e.status, e.message)


app = Starlette(routes=[
    Route("/{path:path}", dispatch,
          methods=["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]),
])


if __name__ == "__main__":
    uvicorn.run(app, host=os.environ.get("HOST", "0.0.0.0"),
                port=int(os.environ.get("PORT", "9204")), log_level="warning")
