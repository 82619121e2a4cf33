"""Independent implementation of the movies CRUD API (Flask, in-memory state).

Written from the task README alone. State lives in memory behind a lock; a fresh start
has no users and no movies.
"""
import base64
import hashlib
import hmac
import json
import math
import os
import re
import secrets
import threading
import time
import uuid
from urllib.parse import urlencode

from flask import Flask, Response, request

app = Flask(__name__)
app.url_map.strict_slashes = False

LOCK = threading.RLock()
USERS = {}            # id -> user dict
MOVIES = {}           # id -> movie dict
COUNTERS = {"user": 500, "movie": 1000}

SECRET = secrets.token_bytes(32)
ACCESS_TTL = 30 * 60          # seconds
REFRESH_TTL = 24 * 60 * 60    # seconds
DEFAULT_PAGE_SIZE = 10
MAX_PAGE_SIZE = 100

NO_CREDENTIALS = "Authentication credentials were not provided."


# ---------------------------------------------------------------- helpers
def reply(body, status=200, headers=None):
    resp = Response(json.dumps(body), status=status, mimetype="application/json")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def fail(status, detail, **extra):
    body = {"detail": detail}
    body.update(extra)
    headers = {"WWW-Authenticate": 'Bearer realm="movies-api"'} if status == 401 else None
    return reply(body, status, headers)


def invalid(errors):
    return reply({"detail": "The submitted data is not valid.", "errors": errors}, 400)


class BadBody(Exception):
    pass


def read_body():
    """JSON object, or a form body; an empty body is an empty object."""
    raw = request.get_data(cache=True)
    ctype = (request.content_type or "").lower()
    if "application/x-www-form-urlencoded" in ctype or "multipart/form-data" in ctype:
        return {k: v for k, v in request.form.items()}
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadBody()
    if not isinstance(data, dict):
        raise BadBody()
    return data


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def make_token(user_id, kind):
    now = int(time.time())
    header = {"alg": "HS256", "typ": "JWT"}
    payload = {
        "token_type": kind,
        "exp": now + (ACCESS_TTL if kind == "access" else REFRESH_TTL),
        "iat": now,
        "jti": uuid.uuid4().hex,
        "user_id": user_id,
    }
    signing_input = b64(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(SECRET, signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64(sig)


def read_token(token, kind):
    """Return the user for a valid token of the given kind, else None."""
    try:
        head, body, sig = token.split(".")
        expected = hmac.new(SECRET, (head + "." + body).encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(expected, unb64(sig)):
            return None
        payload = json.loads(unb64(body))
    except Exception:
        return None
    if not isinstance(payload, dict) or payload.get("token_type") != kind:
        return None
    exp = payload.get("exp")
    if not isinstance(exp, int) or exp < time.time():
        return None
    with LOCK:
        return USERS.get(payload.get("user_id"))


def hash_password(password, salt=None):
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 50_000).hex()
    return salt + "$" + digest


def check_password(password, stored):
    salt, _ = stored.split("$", 1)
    return hmac.compare_digest(hash_password(password, salt), stored)


def authenticate():
    """(user, None) or (None, error response)."""
    header = request.headers.get("Authorization", "")
    parts = header.split()
    if not parts or parts[0].lower() != "bearer":
        return None, fail(401, NO_CREDENTIALS)
    if len(parts) != 2:
        return None, fail(401, "Malformed Authorization header: expected 'Bearer <access token>'.")
    user = read_token(parts[1], "access")
    if user is None:
        return None, fail(401, "The access token is invalid or has expired.")
    return user, None


def movie_json(movie):
    with LOCK:
        creator = USERS.get(movie["creator_id"])
    return {
        "id": movie["id"],
        "title": movie["title"],
        "genre": movie["genre"],
        "year": movie["year"],
        "creator": creator["username"] if creator else None,
        "creator_id": movie["creator_id"],
        "created_at": movie["created_at"],
        "updated_at": movie["updated_at"],
    }


def to_int(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    return None


def unquote(value):
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value


def validate_movie(data, partial):
    errors = {}
    clean = {}
    for field in ("title", "genre"):
        if field not in data:
            if not partial:
                errors[field] = [f"'{field}' is required."]
            continue
        value = data[field]
        if not isinstance(value, str) or not value.strip():
            errors[field] = [f"'{field}' must be a non-empty string."]
        elif len(value) > 255:
            errors[field] = [f"'{field}' must be at most 255 characters long."]
        else:
            clean[field] = value.strip()
    if "year" not in data:
        if not partial:
            errors["year"] = ["'year' is required."]
    else:
        year = to_int(data["year"])
        if year is None:
            errors["year"] = ["'year' must be a whole number."]
        elif not 1000 <= year <= 9999:
            errors["year"] = ["'year' must be a four-digit year."]
        else:
            clean["year"] = year
    return clean, errors


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# ---------------------------------------------------------------- auth endpoints
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
USERNAME_RE = re.compile(r"^[\w.@+-]+$")


@app.route("/api/v1/auth/register/", methods=["POST"])
def register():
    try:
        data = read_body()
    except BadBody:
        return fail(400, "The request body must be a JSON object.")
    errors = {}
    username = data.get("username")
    email = data.get("email")
    password = data.get("password")
    password2 = data.get("password2")
    if not isinstance(username, str) or not username.strip():
        errors["username"] = ["A username is required."]
    elif len(username) > 150 or not USERNAME_RE.match(username):
        errors["username"] = ["Use at most 150 letters, digits and @/./+/-/_ characters."]
    if not isinstance(email, str) or not email.strip():
        errors["email"] = ["An email address is required."]
    elif not EMAIL_RE.match(email.strip()):
        errors["email"] = ["Enter a valid email address."]
    if not isinstance(password, str) or password == "":
        errors["password"] = ["A password is required."]
    if not isinstance(password2, str) or password2 == "":
        errors["password2"] = ["Please repeat the password."]
    elif isinstance(password, str) and password != password2:
        errors["password"] = ["The two passwords do not match."]
    names = {}
    for field in ("first_name", "last_name"):
        value = data.get(field, "")
        if value is None:
            value = ""
        if not isinstance(value, str) or len(value) > 150:
            errors[field] = [f"'{field}' must be a string of at most 150 characters."]
        else:
            names[field] = value
    with LOCK:
        if "username" not in errors and any(
            u["username"].lower() == username.lower() for u in USERS.values()
        ):
            errors["username"] = ["This username is already taken."]
        if errors:
            return invalid(errors)
        COUNTERS["user"] += 1
        user = {
            "id": COUNTERS["user"],
            "username": username,
            "email": email.strip(),
            "first_name": names["first_name"],
            "last_name": names["last_name"],
            "password": hash_password(password),
        }
        USERS[user["id"]] = user
    return reply({k: user[k] for k in ("id", "username", "email", "first_name", "last_name")}, 200)


@app.route("/api/v1/auth/token/", methods=["POST"])
def obtain_token():
    try:
        data = read_body()
    except BadBody:
        return fail(400, "The request body must be a JSON object.")
    errors = {}
    for field in ("username", "password"):
        if not isinstance(data.get(field), str) or data.get(field) == "":
            errors[field] = [f"'{field}' is required."]
    if errors:
        return invalid(errors)
    with LOCK:
        user = next((u for u in USERS.values()
                     if u["username"].lower() == data["username"].lower()), None)
    if user is None or not check_password(data["password"], user["password"]):
        return fail(400, "Unable to log in with the given username and password.")
    return reply({"access": make_token(user["id"], "access"),
                  "refresh": make_token(user["id"], "refresh")})


@app.route("/api/v1/auth/token/refresh/", methods=["POST"])
def refresh_token():
    try:
        data = read_body()
    except BadBody:
        return fail(400, "The request body must be a JSON object.")
    token = data.get("refresh")
    if not isinstance(token, str) or not token:
        return invalid({"refresh": ["'refresh' is required."]})
    user = read_token(token, "refresh")
    if user is None:
        return fail(401, "The refresh token is invalid or has expired.")
    return reply({"access": make_token(user["id"], "access")})


# ---------------------------------------------------------------- movies
INT_FILTERS = {
    "year": lambda y, v: y == v,
    "year__gt": lambda y, v: y > v,
    "year__lt": lambda y, v: y < v,
    "year__gte": lambda y, v: y >= v,
    "year__lte": lambda y, v: y <= v,
}
TEXT_FILTERS = {"title": "title", "genre": "genre"}


def page_url(page, size):
    args = request.args.to_dict(flat=True)
    args["page"] = str(page)
    args["page_size"] = str(size)
    return request.base_url + "?" + urlencode(args)


@app.route("/api/v1/movies/", methods=["GET", "POST"])
def movies_collection():
    user, error = authenticate()
    if error:
        return error
    if request.method == "POST":
        try:
            data = read_body()
        except BadBody:
            return fail(400, "The request body must be a JSON object.")
        clean, errors = validate_movie(data, partial=False)
        if errors:
            return invalid(errors)
        with LOCK:
            COUNTERS["movie"] += 1
            stamp = now_iso()
            movie = dict(clean, id=COUNTERS["movie"], creator_id=user["id"],
                         created_at=stamp, updated_at=stamp)
            MOVIES[movie["id"]] = movie
        return reply(movie_json(movie), 201,
                     {"Location": request.host_url.rstrip("/") + f"/api/v1/movies/{movie['id']}/"})

    # ---- list: filter, order newest first, paginate
    errors = {}
    int_filters = []
    for name, test in INT_FILTERS.items():
        if name in request.args:
            value = to_int(unquote(request.args[name]))
            if value is None:
                errors[name] = ["Enter a whole number."]
            else:
                int_filters.append((test, value))
    text_filters = [(field, unquote(request.args[name]).lower())
                    for name, field in TEXT_FILTERS.items() if name in request.args]
    creator_name = request.args.get("creator__username")
    page = 1
    size = DEFAULT_PAGE_SIZE
    if "page" in request.args:
        p = to_int(request.args["page"])
        if p is None or p < 1:
            errors["page"] = ["'page' must be a positive whole number."]
        else:
            page = p
    if "page_size" in request.args:
        s = to_int(request.args["page_size"])
        if s is None or s < 1:
            errors["page_size"] = ["'page_size' must be a positive whole number."]
        else:
            size = min(s, MAX_PAGE_SIZE)
    if errors:
        return invalid(errors)
    with LOCK:
        movies = sorted(MOVIES.values(), key=lambda m: m["id"], reverse=True)
        creators = {uid: u["username"].lower() for uid, u in USERS.items()}
    selected = []
    for m in movies:
        if any(not test(m["year"], v) for test, v in int_filters):
            continue
        if any(m[field].lower() != v for field, v in text_filters):
            continue
        if creator_name is not None and \
                creators.get(m["creator_id"]) != unquote(creator_name).lower():
            continue
        selected.append(m)
    count = len(selected)
    pages = max(1, math.ceil(count / size))
    chunk = selected[(page - 1) * size: page * size]
    return reply({
        "count": count,
        "next": page_url(page + 1, size) if page * size < count else None,
        "previous": page_url(min(page - 1, pages), size) if page > 1 else None,
        "page": page,
        "page_size": size,
        "total_pages": pages,
        "results": [movie_json(m) for m in chunk],
    })


@app.route("/api/v1/movies/<movie_id>/", methods=["GET", "PUT", "PATCH", "DELETE"])
def movie_element(movie_id):
    user, error = authenticate()
    if error:
        return error
    mid = int(movie_id) if movie_id.isdigit() else None
    with LOCK:
        movie = MOVIES.get(mid)
        if movie is None:
            return fail(404, f"There is no movie with id {movie_id!s}.")
        if request.method == "GET":
            return reply(movie_json(movie))
        if movie["creator_id"] != user["id"]:
            return fail(403, "Only the creator of this movie may change or delete it.")
        if request.method == "DELETE":
            body = movie_json(movie)
            del MOVIES[mid]
            return reply({"deleted": True, "movie": body}, 200)
        try:
            data = read_body()
        except BadBody:
            return fail(400, "The request body must be a JSON object.")
        clean, errors = validate_movie(data, partial=request.method == "PATCH")
        if errors:
            return invalid(errors)
        movie.update(clean)
        movie["updated_at"] = now_iso()
        return reply(movie_json(movie))


# ---------------------------------------------------------------- generic errors
@app.errorhandler(404)
def not_found(_):
    return fail(404, "No such endpoint.")


@app.errorhandler(405)
def not_allowed(_):
    return fail(405, f"Method {request.method} is not allowed here.")


@app.errorhandler(500)
def server_error(_):
    return fail(500, "Internal server error.")


if __name__ == "__main__":
    app.run(host=os.environ.get("BIND", "0.0.0.0"), port=int(os.environ.get("PORT", "8000")),
            threaded=True, debug=False, use_reloader=False)
