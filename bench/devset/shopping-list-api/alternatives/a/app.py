"""Independent implementation of the ShoppingListAPI (Starlette + uvicorn, in-memory state).

Written from the task README (and its appended Swagger document) only.
"""
import hashlib
import os
import re
import secrets
import threading
from datetime import datetime, timedelta, timezone
from json import JSONDecodeError

import jwt
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

SECRET = os.environ.get("SECRET") or "alt-a-shopping-list-secret"
TOKEN_TTL = timedelta(hours=12)
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

LOCK = threading.Lock()
USERS = {}        # id -> dict
LISTS = {}        # id -> dict
ITEMS = {}        # id -> dict
COUNTERS = {"user": 1000, "list": 2000, "item": 3000}


def _next(kind):
    COUNTERS[kind] += 1
    return COUNTERS[kind]


def _now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _hash(password, salt):
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 50_000).hex()


def _key(text):
    return " ".join(text.split()).casefold()


class ApiError(Exception):
    def __init__(self, status, detail):
        super().__init__(detail)
        self.status = status
        self.detail = detail


def error(status, detail):
    return JSONResponse({"error": detail, "status": status}, status_code=status)


def soft(message, status=202):
    return JSONResponse({"message": message, "status": "fail"}, status_code=status)


async def body_of(request):
    ctype = request.headers.get("content-type", "")
    if "application/x-www-form-urlencoded" in ctype or "multipart/form-data" in ctype:
        form = await request.form()
        return {k: v for k, v in form.items()}
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        data = await request.json()
    except (JSONDecodeError, UnicodeDecodeError, ValueError):
        raise ApiError(422, "request body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(422, "request body must be a JSON object")
    return data


def text_field(data, name, allow_empty=False):
    if name not in data or data[name] is None:
        raise ApiError(422, f"field '{name}' is required")
    value = data[name]
    if not isinstance(value, str):
        raise ApiError(422, f"field '{name}' must be a string")
    value = value.strip()
    if not value and not allow_empty:
        raise ApiError(422, f"field '{name}' must not be blank")
    return value


def current_user(request):
    header = request.headers.get("authorization") or request.headers.get("x-access-token")
    if not header or not header.strip():
        raise ApiError(401, "authentication token is missing")
    parts = header.strip().split()
    if len(parts) == 2 and parts[0].lower() in ("bearer", "token", "jwt"):
        token = parts[1]
    elif len(parts) == 1:
        token = parts[0]
    else:
        raise ApiError(401, "malformed Authorization header")
    try:
        claims = jwt.decode(token, SECRET, algorithms=["HS256"])
    except jwt.ExpiredSignatureError:
        raise ApiError(401, "token has expired, please log in again")
    except jwt.InvalidTokenError:
        raise ApiError(401, "token is invalid, please log in again")
    try:
        uid = int(claims.get("sub"))
    except (TypeError, ValueError):
        raise ApiError(401, "token is invalid, please log in again")
    if uid not in USERS:
        raise ApiError(401, "token refers to an unknown user")
    return uid


def wrap(handler):
    async def endpoint(request):
        try:
            return await handler(request)
        except ApiError as exc:
            return error(exc.status, exc.detail)
    return endpoint


# ---------------------------------------------------------------- serializers
def list_view(sl, message="success"):
    return {
        "id": sl["id"],
        "owner": sl["owner"],
        "title": sl["title"],
        "description": sl["description"],
        "date_created": sl["date_created"],
        "date_modified": sl["date_modified"],
        "message": message,
    }


def item_view(it, message="success"):
    return {
        "item_id": it["id"],
        "id": it["id"],
        "shoppinglist_id": it["list_id"],
        "owner_id": it["owner"],
        "owner": it["owner"],
        "item_title": it["title"],
        "title": it["title"],
        "item_description": it["description"],
        "description": it["description"],
        "date_created": it["date_created"],
        "date_modified": it["date_modified"],
        "message": message,
    }


def own_list(uid, list_id):
    sl = LISTS.get(list_id)
    if sl is None or sl["owner"] != uid:
        return None
    return sl


def own_item(sl, item_id):
    it = ITEMS.get(item_id)
    if it is None or it["list_id"] != sl["id"]:
        return None
    return it


# ---------------------------------------------------------------- auth
async def register(request):
    data = await body_of(request)
    username = text_field(data, "username")
    email = text_field(data, "email")
    password = text_field(data, "password", allow_empty=True)
    confirm = text_field(data, "confirm_password", allow_empty=True)
    password, confirm = data["password"], data["confirm_password"]
    if not password:
        raise ApiError(422, "field 'password' must not be blank")
    if not EMAIL_RE.match(email):
        raise ApiError(422, "field 'email' is not a valid e-mail address")
    if password != confirm:
        raise ApiError(422, "'password' and 'confirm_password' do not match")
    with LOCK:
        norm = email.casefold()
        if any(u["email_key"] == norm for u in USERS.values()):
            return soft(f"User account `{email}` already exists")
        uid = _next("user")
        salt = secrets.token_hex(8)
        user = {
            "id": uid,
            "username": username,
            "email": email,
            "email_key": norm,
            "salt": salt,
            "pw": _hash(password, salt),
            "date_created": _now(),
        }
        USERS[uid] = user
    return JSONResponse(
        {
            "id": uid,
            "username": username,
            "email": email,
            "date_created": user["date_created"],
            "message": "User account created successfuly",
        },
        status_code=201,
    )


async def login(request):
    data = await body_of(request)
    email = text_field(data, "email")
    if "password" not in data or not isinstance(data["password"], str):
        raise ApiError(422, "field 'password' is required and must be a string")
    password = data["password"]
    with LOCK:
        norm = email.casefold()
        user = next((u for u in USERS.values() if u["email_key"] == norm), None)
        if user is None or not secrets.compare_digest(user["pw"], _hash(password, user["salt"])):
            return soft("Invalid credentials, please check your email and password")
        uid = user["id"]
    now = datetime.now(timezone.utc)
    token = jwt.encode({"sub": str(uid), "iat": now, "exp": now + TOKEN_TTL}, SECRET, algorithm="HS256")
    return JSONResponse(
        {"id": uid, "message": "Successfully logged in.", "token": token},
        status_code=201,
    )


# ---------------------------------------------------------------- shopping lists
async def lists_collection(request):
    uid = current_user(request)
    if request.method == "GET":
        with LOCK:
            rows = [list_view(sl) for sl in LISTS.values() if sl["owner"] == uid]
        rows.sort(key=lambda r: r["id"], reverse=True)  # newest first
        return JSONResponse(rows, status_code=201)
    data = await body_of(request)
    title = text_field(data, "title")
    description = text_field(data, "description", allow_empty=True)
    with LOCK:
        key = _key(title)
        if any(sl["owner"] == uid and _key(sl["title"]) == key for sl in LISTS.values()):
            return soft(f"Shopping List `{title}` already exists")
        now = _now()
        sl = {
            "id": _next("list"),
            "owner": uid,
            "title": title,
            "description": description,
            "date_created": now,
            "date_modified": now,
        }
        LISTS[sl["id"]] = sl
        body = list_view(sl, "Shopping List created successfuly")
    return JSONResponse(body, status_code=201)


async def list_single(request):
    uid = current_user(request)
    list_id = request.path_params["list_id"]
    if request.method == "GET":
        with LOCK:
            sl = own_list(uid, list_id)
            if sl is None:
                return soft(f"Requested value `{list_id}` was not found")
            return JSONResponse(list_view(sl), status_code=201)
    if request.method == "DELETE":
        with LOCK:
            sl = own_list(uid, list_id)
            if sl is None:
                return soft(f"Requested value `{list_id}` was not found")
            for iid in [i for i, it in ITEMS.items() if it["list_id"] == list_id]:
                del ITEMS[iid]
            del LISTS[list_id]
        return JSONResponse(
            {"id": list_id, "message": f"Shopping list `{sl['title']}` deleted successfuly"},
            status_code=201,
        )
    # PUT
    with LOCK:
        if own_list(uid, list_id) is None:
            raise ApiError(404, f"shopping list {list_id} does not exist")
    data = await body_of(request)
    title = text_field(data, "title")
    description = text_field(data, "description", allow_empty=True)
    with LOCK:
        sl = own_list(uid, list_id)
        if sl is None:
            raise ApiError(404, f"shopping list {list_id} does not exist")
        key = _key(title)
        if any(o["owner"] == uid and o["id"] != list_id and _key(o["title"]) == key
               for o in LISTS.values()):
            return soft(f"Shopping List `{title}` already exists")
        sl["title"] = title
        sl["description"] = description
        sl["date_modified"] = _now()
        body = list_view(sl)
    return JSONResponse(body, status_code=201)


# ---------------------------------------------------------------- items
async def items_collection(request):
    uid = current_user(request)
    list_id = request.path_params["list_id"]
    if request.method == "GET":
        with LOCK:
            sl = own_list(uid, list_id)
            if sl is None:
                raise ApiError(404, f"shopping list {list_id} does not exist")
            rows = [item_view(it) for it in ITEMS.values() if it["list_id"] == list_id]
        rows.sort(key=lambda r: r["item_id"], reverse=True)  # newest first
        return JSONResponse(rows, status_code=201)
    with LOCK:
        if own_list(uid, list_id) is None:
            raise ApiError(404, f"shopping list {list_id} does not exist")
    data = await body_of(request)
    title = text_field(data, "item_title")
    description = text_field(data, "item_description", allow_empty=True)
    with LOCK:
        sl = own_list(uid, list_id)
        if sl is None:
            raise ApiError(404, f"shopping list {list_id} does not exist")
        key = _key(title)
        if any(it["list_id"] == list_id and _key(it["title"]) == key for it in ITEMS.values()):
            return soft(f"Shopping List item `{title}` already exists")
        now = _now()
        it = {
            "id": _next("item"),
            "list_id": list_id,
            "owner": uid,
            "title": title,
            "description": description,
            "date_created": now,
            "date_modified": now,
        }
        ITEMS[it["id"]] = it
        body = item_view(it, f"Shopping list item `{title}` created successfuly")
    return JSONResponse(body, status_code=200)


async def item_single(request):
    uid = current_user(request)
    list_id = request.path_params["list_id"]
    item_id = request.path_params["item_id"]
    if request.method in ("GET", "DELETE"):
        with LOCK:
            sl = own_list(uid, list_id)
            if sl is None:
                return soft(f"Requested value `{list_id}` was not found")
            it = own_item(sl, item_id)
            if it is None:
                return soft(f"Requested value `{item_id}` was not found")
            if request.method == "GET":
                return JSONResponse(item_view(it), status_code=201)
            del ITEMS[item_id]
        return JSONResponse(
            {"item_id": item_id, "message": f"Shopping list item `{it['title']}` deleted successfuly"},
            status_code=201,
        )
    # PUT
    with LOCK:
        sl = own_list(uid, list_id)
        if sl is None or own_item(sl, item_id) is None:
            raise ApiError(404, f"item {item_id} does not exist in shopping list {list_id}")
    data = await body_of(request)
    title = text_field(data, "item_title")
    description = text_field(data, "item_description", allow_empty=True)
    with LOCK:
        sl = own_list(uid, list_id)
        it = own_item(sl, item_id) if sl is not None else None
        if it is None:
            raise ApiError(404, f"item {item_id} does not exist in shopping list {list_id}")
        key = _key(title)
        if any(o["list_id"] == list_id and o["id"] != item_id and _key(o["title"]) == key
               for o in ITEMS.values()):
            return soft(f"Shopping List item `{title}` already exists")
        it["title"] = title
        it["description"] = description
        it["date_modified"] = _now()
        body = item_view(it, "Shopping list item updated successfuly")
    return JSONResponse(body, status_code=201)


async def not_found(request, exc):
    status = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", None) or "not found"
    return error(status, detail)


def routes():
    table = [
        ("/auth/register", register, ["POST"]),
        ("/auth/login", login, ["POST"]),
        ("/shoppinglists", lists_collection, ["GET", "POST"]),
        ("/shoppinglist/{list_id:int}", list_single, ["GET", "PUT", "DELETE"]),
        ("/shoppinglist/{list_id:int}/items", items_collection, ["GET", "POST"]),
        ("/shoppinglist/{list_id:int}/item/{item_id:int}", item_single, ["GET", "PUT", "DELETE"]),
    ]
    out = []
    for path, handler, methods in table:
        ep = wrap(handler)
        out.append(Route(path, ep, methods=methods))
        out.append(Route(path + "/", ep, methods=methods))
    return out


app = Starlette(routes=routes(), exception_handlers={404: not_found, 405: not_found})

if __name__ == "__main__":
    uvicorn.run(app, host=os.environ.get("HOST", "0.0.0.0"), port=int(os.environ.get("PORT", "9210")),
                log_level="warning")
