"""Students and classes REST API -- independent implementation on Starlette.

Everything is kept in memory; every start begins with an empty data set
except for the user ``dave`` / ``cat``.
"""
import base64
import binascii
import hashlib
import hmac
import json
import math
import os
import re
import secrets
import threading
import time
from datetime import datetime, timezone
from urllib.parse import quote, urlsplit, unquote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

API_PREFIX = "/api/v1"
TOKEN_PATH = "/auth/token"
TOKEN_LIFETIME = 3600  # seconds
DEFAULT_PER_PAGE = 10
MAX_PER_PAGE = 100

USE_TOKEN_AUTH = os.environ.get("USE_TOKEN_AUTH", "1").lower() not in ("0", "false", "no", "off")
RATE_LIMIT_ENABLED = os.environ.get("RATE_LIMIT", "0").lower() in ("1", "true", "yes", "on")
RATE_LIMIT_CALLS = int(os.environ.get("RATE_LIMIT_CALLS", "5"))
RATE_LIMIT_PERIOD = int(os.environ.get("RATE_LIMIT_PERIOD", "15"))


# --------------------------------------------------------------------------
# storage
# --------------------------------------------------------------------------
class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self.users = {}  # username -> (salt, hash)
        self.tokens = {}  # token -> (username, expires_at)
        self.students = {}  # id -> {"id", "name"}
        self.classes = {}  # id -> {"id", "name"}
        self.registrations = {}  # id -> {"id", "student_id", "class_id", "timestamp"}
        self.next_id = {"students": 1, "classes": 1, "registrations": 1}
        self.rate = {}  # client key -> (window_start, count)

    # users / tokens ------------------------------------------------------
    @staticmethod
    def _hash(password, salt):
        return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 50000)

    def add_user(self, username, password):
        salt = secrets.token_bytes(16)
        self.users[username] = (salt, self._hash(password, salt))

    def check_password(self, username, password):
        rec = self.users.get(username)
        if rec is None:
            return False
        salt, digest = rec
        return hmac.compare_digest(digest, self._hash(password, salt))

    def new_token(self, username):
        token = secrets.token_urlsafe(32)
        with self.lock:
            now = time.time()
            # drop expired tokens
            for t in [t for t, (_, exp) in self.tokens.items() if exp <= now]:
                del self.tokens[t]
            self.tokens[token] = (username, now + TOKEN_LIFETIME)
        return token

    def check_token(self, token):
        rec = self.tokens.get(token)
        if rec is None:
            return None
        username, exp = rec
        if exp <= time.time():
            return None
        return username

    # generic ---------------------------------------------------------------
    def create(self, kind, record):
        with self.lock:
            rid = self.next_id[kind]
            self.next_id[kind] += 1
            record["id"] = rid
            getattr(self, kind)[rid] = record
            return record


store = Store()
store.add_user("dave", "cat")


# --------------------------------------------------------------------------
# helpers: responses
# --------------------------------------------------------------------------
def dumps(data):
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False).encode("utf-8")


def json_response(data, status=200, headers=None):
    return Response(dumps(data), status_code=status, headers=headers or {},
                    media_type="application/json")


def error(status, err, message, headers=None):
    return json_response({"status": status, "error": err, "message": message},
                         status, headers)


class HTTPError(Exception):
    def __init__(self, status, err, message, headers=None):
        self.response = error(status, err, message, headers)


def bad_request(message):
    return HTTPError(400, "bad request", message)


def not_found(message="resource not found"):
    return HTTPError(404, "not found", message)


def method_not_allowed(allowed):
    return HTTPError(405, "method not allowed", "the method is not allowed for this resource",
                     {"Allow": ", ".join(allowed)})


def base_url(request):
    host = request.headers.get("host")
    if not host:
        server = request.scope.get("server") or ("127.0.0.1", 80)
        host = "%s:%s" % server
    scheme = request.headers.get("x-forwarded-proto", request.url.scheme or "http")
    return "%s://%s" % (scheme, host)


def now_iso():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --------------------------------------------------------------------------
# ETags
# --------------------------------------------------------------------------
def make_etag(body):
    return '"%s"' % hashlib.sha1(body).hexdigest()


def parse_etags(value):
    """Return list of (weak, opaque-tag) or the string '*'."""
    value = (value or "").strip()
    if value == "*":
        return "*"
    tags = []
    for m in re.finditer(r'\s*(W/)?("[^"]*"|[^,\s]+)\s*,?', value):
        tag = m.group(2)
        if not tag.startswith('"'):
            tag = '"%s"' % tag
        tags.append((bool(m.group(1)), tag))
    return tags


def if_match_ok(header, etag):
    """Strong comparison (RFC 7232 3.1); etag None means resource missing."""
    tags = parse_etags(header)
    if tags == "*":
        return etag is not None
    return etag is not None and any((not weak) and t == etag for weak, t in tags)


def if_none_match_hit(header, etag):
    """Weak comparison; True if one of the tags matches the current etag."""
    tags = parse_etags(header)
    if tags == "*":
        return etag is not None
    return etag is not None and any(t == etag for _, t in tags)


def finish_get(request, data):
    body = dumps(data)
    etag = make_etag(body)
    headers = {"ETag": etag, "Cache-Control": "private, max-age=0, must-revalidate"}
    im = request.headers.get("if-match")
    if im is not None and not if_match_ok(im, etag):
        return error(412, "precondition failed", "If-Match precondition failed", headers)
    inm = request.headers.get("if-none-match")
    if inm is not None and if_none_match_hit(inm, etag):
        return Response(status_code=304, headers=headers)
    return Response(body, status_code=200, headers=headers, media_type="application/json")


def check_write_preconditions(request, current_repr):
    """For PUT/DELETE: evaluate If-Match / If-None-Match against the entity
    tag a GET of the same resource would have returned."""
    etag = make_etag(dumps(current_repr)) if current_repr is not None else None
    im = request.headers.get("if-match")
    if im is not None and not if_match_ok(im, etag):
        raise HTTPError(412, "precondition failed", "If-Match precondition failed")
    inm = request.headers.get("if-none-match")
    if inm is not None and if_none_match_hit(inm, etag):
        raise HTTPError(412, "precondition failed", "If-None-Match precondition failed")


# --------------------------------------------------------------------------
# representations
# --------------------------------------------------------------------------
def student_url(b, sid):
    return "%s%s/students/%d" % (b, API_PREFIX, sid)


def class_url(b, cid):
    return "%s%s/classes/%d" % (b, API_PREFIX, cid)


def registration_url(b, rid):
    return "%s%s/registrations/%d" % (b, API_PREFIX, rid)


def student_repr(b, s):
    return {"name": s["name"],
            "self_url": student_url(b, s["id"]),
            "registrations_url": student_url(b, s["id"]) + "/registrations/"}


def class_repr(b, c):
    return {"name": c["name"],
            "self_url": class_url(b, c["id"]),
            "registrations_url": class_url(b, c["id"]) + "/registrations/"}


def registration_repr(b, r):
    return {"student_url": student_url(b, r["student_id"]),
            "class_url": class_url(b, r["class_id"]),
            "timestamp": r["timestamp"],
            "self_url": registration_url(b, r["id"])}


# field name -> type used for filtering / sorting
FIELDS = {
    "students": {"id": int, "name": str},
    "classes": {"id": int, "name": str},
    "registrations": {"id": int, "student_id": int, "class_id": int, "timestamp": str},
}


# --------------------------------------------------------------------------
# filtering / sorting / pagination
# --------------------------------------------------------------------------
def like_to_regex(pattern):
    out = []
    for ch in pattern:
        if ch == "%":
            out.append(".*")
        elif ch == "_":
            out.append(".")
        else:
            out.append(re.escape(ch))
    return re.compile("^" + "".join(out) + "$", re.IGNORECASE | re.DOTALL)


def parse_filters(spec, fields):
    preds = []
    if not spec:
        return preds
    for part in spec.split(";"):
        bits = part.split(",", 2)
        if len(bits) != 3:
            continue
        field, op, raw = bits[0].strip(), bits[1].strip().lower(), bits[2]
        if field not in fields:
            continue
        ftype = fields[field]
        try:
            if op == "in":
                values = [ftype(v) for v in raw.split(",")]
            elif op == "like":
                value = like_to_regex(raw)
            elif op in ("eq", "ne", "lt", "le", "gt", "ge"):
                value = ftype(raw)
            else:
                continue
        except (ValueError, TypeError):
            continue

        def pred(item, field=field, op=op, value=(values if op == "in" else value)):
            v = item[field]
            if op == "eq":
                return v == value
            if op == "ne":
                return v != value
            if op == "lt":
                return v < value
            if op == "le":
                return v <= value
            if op == "gt":
                return v > value
            if op == "ge":
                return v >= value
            if op == "in":
                return v in value
            if op == "like":
                return value.match(str(v)) is not None
            return True
        preds.append(pred)
    return preds


def apply_sort(items, spec, fields):
    items = sorted(items, key=lambda i: i["id"])  # default / final tie-break
    if not spec:
        return items
    keys = []
    for part in spec.split(";"):
        bits = [b.strip() for b in part.split(",")]
        if not bits or not bits[0] or len(bits) > 2:
            continue
        field = bits[0]
        direction = bits[1].lower() if len(bits) == 2 and bits[1] else "asc"
        if field not in fields or direction not in ("asc", "desc"):
            continue
        keys.append((field, direction == "desc"))
    # stable multi-key sort: apply from least to most significant
    for field, desc in reversed(keys):
        items.sort(key=lambda i, f=field: i[f], reverse=desc)
    return items


def int_arg(value, default):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def collection_response(request, kind, key, records, to_repr, collection_path):
    b = base_url(request)
    q = request.query_params
    fields = FIELDS[kind]
    filter_spec = q.get("filter")
    sort_spec = q.get("sort")
    expand_raw = q.get("expand")
    expand = expand_raw is not None and expand_raw.strip().lower() not in ("", "0", "false", "no", "off")

    items = list(records)
    for pred in parse_filters(filter_spec, fields):
        items = [i for i in items if pred(i)]
    items = apply_sort(items, sort_spec, fields)

    per_page = int_arg(q.get("per_page"), DEFAULT_PER_PAGE)
    if per_page < 1:
        per_page = DEFAULT_PER_PAGE
    per_page = min(per_page, MAX_PER_PAGE)
    page = int_arg(q.get("page"), 1)
    if page < 1:
        page = 1
    total = len(items)
    pages = max(1, int(math.ceil(total / float(per_page))))
    chunk = items[(page - 1) * per_page: page * per_page]

    coll_url = b + collection_path
    opts = []
    for name, val in (("filter", filter_spec), ("sort", sort_spec), ("expand", expand_raw)):
        if val is not None:
            opts.append("%s=%s" % (name, quote(val, safe=",;")))

    def page_url(p):
        return coll_url + "?" + "&".join(opts + ["per_page=%d" % per_page, "page=%d" % p])

    meta = {
        "page": page,
        "pages": pages,
        "per_page": per_page,
        "total": total,
        "first_url": page_url(1),
        "last_url": page_url(pages),
        "next_url": page_url(page + 1) if page < pages else None,
        "prev_url": page_url(min(page - 1, pages)) if page > 1 else None,
    }
    if expand:
        listing = [to_repr(b, i) for i in chunk]
    else:
        listing = [to_repr(b, i)["self_url"] for i in chunk]
    return finish_get(request, {key: listing, "meta": meta})


# --------------------------------------------------------------------------
# request body helpers
# --------------------------------------------------------------------------
async def json_body(request):
    raw = await request.body()
    if not raw.strip():
        raise bad_request("request body must be a JSON object")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise bad_request("request body is not valid JSON")
    if not isinstance(data, dict):
        raise bad_request("request body must be a JSON object")
    return data


def require_name(data):
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise bad_request("invalid or missing field: name")
    return name


def resolve_url(value, kind, field):
    """Map a student_url / class_url (absolute or path) to an existing id."""
    if not isinstance(value, str) or not value:
        raise bad_request("invalid or missing field: %s" % field)
    path = unquote(urlsplit(value).path).rstrip("/")
    m = re.fullmatch(re.escape(API_PREFIX) + r"/%s/(\d+)" % kind, path)
    if not m:
        raise bad_request("invalid field: %s" % field)
    rid = int(m.group(1))
    if rid not in getattr(store, kind):
        raise bad_request("%s does not refer to an existing resource" % field)
    return rid


def created(request, data, location):
    return json_response(data, 201, {"Location": location})


# --------------------------------------------------------------------------
# endpoint handlers
# --------------------------------------------------------------------------
async def h_named_collection(request, kind, key, to_repr, url_fn):
    if request.method == "GET":
        path = "%s/%s/" % (API_PREFIX, kind)
        return collection_response(request, kind, key, getattr(store, kind).values(),
                                   to_repr, path)
    if request.method == "POST":
        data = await json_body(request)
        name = require_name(data)
        rec = store.create(kind, {"name": name})
        b = base_url(request)
        return created(request, to_repr(b, rec), url_fn(b, rec["id"]))
    raise method_not_allowed(["GET", "HEAD", "POST"])


async def h_named_item(request, kind, rid, to_repr):
    table = getattr(store, kind)
    rec = table.get(rid)
    b = base_url(request)
    if request.method not in ("GET", "PUT", "DELETE"):
        raise method_not_allowed(["GET", "HEAD", "PUT", "DELETE"])
    if rec is None:
        raise not_found()
    if request.method == "GET":
        return finish_get(request, to_repr(b, rec))
    if request.method == "PUT":
        data = await json_body(request)
        name = require_name(data)
        check_write_preconditions(request, to_repr(b, rec))
        with store.lock:
            rec["name"] = name
        return json_response(to_repr(b, rec), 200)
    # DELETE
    check_write_preconditions(request, to_repr(b, rec))
    with store.lock:
        table.pop(rid, None)
        field = "student_id" if kind == "students" else "class_id"
        for r_id in [k for k, r in store.registrations.items() if r[field] == rid]:
            del store.registrations[r_id]
    return json_response({}, 200)


def add_registration(request, student_id, class_id):
    with store.lock:
        for r in store.registrations.values():
            if r["student_id"] == student_id and r["class_id"] == class_id:
                raise HTTPError(409, "conflict", "the student is already registered to this class")
        rec = store.create("registrations", {"student_id": student_id, "class_id": class_id,
                                             "timestamp": now_iso()})
    b = base_url(request)
    return created(request, registration_repr(b, rec), registration_url(b, rec["id"]))


async def h_registrations(request):
    if request.method == "GET":
        return collection_response(request, "registrations", "registrations",
                                   store.registrations.values(), registration_repr,
                                   API_PREFIX + "/registrations/")
    if request.method == "POST":
        data = await json_body(request)
        sid = resolve_url(data.get("student_url"), "students", "student_url")
        cid = resolve_url(data.get("class_url"), "classes", "class_url")
        return add_registration(request, sid, cid)
    raise method_not_allowed(["GET", "HEAD", "POST"])


async def h_registration_item(request, rid):
    if request.method not in ("GET", "DELETE"):
        raise method_not_allowed(["GET", "HEAD", "DELETE"])
    rec = store.registrations.get(rid)
    if rec is None:
        raise not_found()
    b = base_url(request)
    if request.method == "GET":
        return finish_get(request, registration_repr(b, rec))
    check_write_preconditions(request, registration_repr(b, rec))
    with store.lock:
        store.registrations.pop(rid, None)
    return json_response({}, 200)


async def h_sub_registrations(request, kind, rid):
    owner_table = getattr(store, kind)
    if request.method not in ("GET", "POST"):
        raise method_not_allowed(["GET", "HEAD", "POST"])
    if rid not in owner_table:
        raise not_found()
    field = "student_id" if kind == "students" else "class_id"
    if request.method == "GET":
        recs = [r for r in store.registrations.values() if r[field] == rid]
        return collection_response(request, "registrations", "registrations", recs,
                                   registration_repr,
                                   "%s/%s/%d/registrations/" % (API_PREFIX, kind, rid))
    data = await json_body(request)
    if kind == "students":
        cid = resolve_url(data.get("class_url"), "classes", "class_url")
        return add_registration(request, rid, cid)
    sid = resolve_url(data.get("student_url"), "students", "student_url")
    return add_registration(request, sid, rid)


# --------------------------------------------------------------------------
# authentication
# --------------------------------------------------------------------------
def parse_authorization(request):
    """Return (scheme, payload) where for basic payload is (user, password)."""
    header = request.headers.get("authorization")
    if not header:
        return None, None
    parts = header.strip().split(None, 1)
    scheme = parts[0].lower()
    cred = parts[1].strip() if len(parts) > 1 else ""
    if scheme == "basic":
        try:
            decoded = base64.b64decode(cred, validate=False).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return None, None
        user, _, pwd = decoded.partition(":")
        return "basic", (user, pwd)
    if scheme in ("bearer", "token"):
        return "token", cred
    return None, None


def unauthorized(request, message="please authenticate"):
    return error(401, "unauthorized", message, {
        "Location": base_url(request) + TOKEN_PATH,
        "WWW-Authenticate": 'Bearer realm="api"' if USE_TOKEN_AUTH else 'Basic realm="api"',
    })


def authenticate(request):
    scheme, payload = parse_authorization(request)
    if scheme is None:
        return None
    if USE_TOKEN_AUTH:
        if scheme == "token":
            return store.check_token(payload)
        user, _pwd = payload  # token as basic-auth username, password ignored
        tok_user = store.check_token(user)
        if tok_user is None and _pwd and not user:
            tok_user = store.check_token(_pwd)  # token as password with empty username
        return tok_user
    if scheme == "basic":
        user, pwd = payload
        return user if store.check_password(user, pwd) else None
    return None


async def h_token(request):
    if request.method != "POST":
        raise method_not_allowed(["POST"])
    scheme, payload = parse_authorization(request)
    if scheme != "basic" or not store.check_password(*payload):
        return error(401, "unauthorized", "invalid username or password", {
            "Location": base_url(request) + TOKEN_PATH,
            "WWW-Authenticate": 'Basic realm="Authentication Required"',
        })
    token = store.new_token(payload[0])
    return json_response({"token": token, "expiration": TOKEN_LIFETIME}, 200,
                         {"Cache-Control": "no-store"})


# --------------------------------------------------------------------------
# rate limiting (optional, in-memory; off unless RATE_LIMIT=1)
# --------------------------------------------------------------------------
def rate_limit(request, user):
    key = user or (request.client.host if request.client else "?")
    now = time.time()
    with store.lock:
        start, count = store.rate.get(key, (None, 0))
        window = int(now // RATE_LIMIT_PERIOD) * RATE_LIMIT_PERIOD
        if start != window:
            start, count = window, 0
        count += 1
        store.rate[key] = (start, count)
    reset = start + RATE_LIMIT_PERIOD
    # the README documents X-RateLimit-Limit as "[period in seconds]"
    headers = {"X-RateLimit-Limit": str(RATE_LIMIT_PERIOD),
               "X-RateLimit-Remaining": str(max(0, RATE_LIMIT_CALLS - count)),
               "X-RateLimit-Reset": str(int(reset))}
    return count > RATE_LIMIT_CALLS, headers


# --------------------------------------------------------------------------
# dispatcher
# --------------------------------------------------------------------------
ROUTES = [
    (re.compile(r"/students/?"), lambda req: h_named_collection(req, "students", "students", student_repr, student_url)),
    (re.compile(r"/students/(\d+)/?"), lambda req, i: h_named_item(req, "students", int(i), student_repr)),
    (re.compile(r"/students/(\d+)/registrations/?"), lambda req, i: h_sub_registrations(req, "students", int(i))),
    (re.compile(r"/classes/?"), lambda req: h_named_collection(req, "classes", "classes", class_repr, class_url)),
    (re.compile(r"/classes/(\d+)/?"), lambda req, i: h_named_item(req, "classes", int(i), class_repr)),
    (re.compile(r"/classes/(\d+)/registrations/?"), lambda req, i: h_sub_registrations(req, "classes", int(i))),
    (re.compile(r"/registrations/?"), h_registrations),
    (re.compile(r"/registrations/(\d+)/?"), lambda req, i: h_registration_item(req, int(i))),
]


def catalog(request):
    b = base_url(request)
    return {"versions": {"v1": {
        "students_url": b + API_PREFIX + "/students/",
        "classes_url": b + API_PREFIX + "/classes/",
        "registrations_url": b + API_PREFIX + "/registrations/",
    }}}


async def dispatch_inner(request):
    path = request.url.path
    method = request.method
    if path in ("/", "") or path.rstrip("/") in ("/api",):
        if method not in ("GET", "HEAD"):
            raise method_not_allowed(["GET", "HEAD"])
        return finish_get(request, catalog(request))
    if path.rstrip("/") == TOKEN_PATH:
        return await h_token(request)
    if path == API_PREFIX or path.startswith(API_PREFIX + "/"):
        user = authenticate(request)
        if user is None:
            return unauthorized(request)
        extra = {}
        if RATE_LIMIT_ENABLED:
            over, extra = rate_limit(request, user)
            if over:
                return error(429, "too many requests", "rate limit exceeded", extra)
        sub = path[len(API_PREFIX):]
        if sub in ("", "/"):
            if method not in ("GET", "HEAD"):
                raise method_not_allowed(["GET", "HEAD"])
            resp = finish_get(request, catalog(request)["versions"]["v1"])
        else:
            resp = None
            for rx, handler in ROUTES:
                m = rx.fullmatch(sub)
                if m:
                    if method == "HEAD":
                        # handlers treat HEAD as GET; restore the method so the
                        # response is sent without a body
                        request.scope["method"] = "GET"
                        try:
                            resp = await handler(request, *m.groups())
                        finally:
                            request.scope["method"] = "HEAD"
                    else:
                        resp = await handler(request, *m.groups())
                    break
            if resp is None:
                raise not_found()
        for k, v in extra.items():
            resp.headers[k] = v
        return resp
    raise not_found()


async def dispatch(request):
    try:
        return await dispatch_inner(request)
    except HTTPError as e:
        return e.response


ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
app = Starlette(routes=[
    Route("/", dispatch, methods=ALL_METHODS),
    Route("/{path:path}", dispatch, methods=ALL_METHODS),
])


if __name__ == "__main__":
    import uvicorn
    port = int(os.environ.get("PORT", "9214"))
    uvicorn.run(app, host="0.0.0.0", port=port, log_level="warning")
