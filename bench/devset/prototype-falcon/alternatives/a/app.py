"""Independent JSONPlaceholder-style service (Starlette + uvicorn, in-memory store).

Written from the task README only. All state lives in memory behind a lock; a fresh start holds
the generated sample data below (10 users with posts, comments, albums, photos and todos).
"""
import json
import os
import random
import re
import threading

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

# --------------------------------------------------------------------------------------------
# Sample data (generated deterministically, JSONPlaceholder-shaped relationships)
# --------------------------------------------------------------------------------------------
WORDS = (
    "falcon wing feather sky glide swift hunter perch talon dive cliff wind cloud nest "
    "river stone meadow forest ember harbor lantern quiet bright amber silver northern "
    "morning evening journey signal garden window bridge valley summit orbit pixel echo"
).split()

USERS_SEED = [
    ("Ada Quill", "adaq"), ("Bram Okafor", "bram.o"), ("Cleo Marsh", "cmarsh"),
    ("Dev Patel", "devp"), ("Elin Sorensen", "elin_s"), ("Farid Haddad", "fhaddad"),
    ("Greta Lind", "glind"), ("Hugo Brandt", "hugob"), ("Imani Cole", "imani.c"),
    ("Jonas Weber", "jweber"),
]

POSTS_PER_USER = 10
COMMENTS_PER_POST = 5
ALBUMS_PER_USER = 10
PHOTOS_PER_ALBUM = 10
TODOS_PER_USER = 20


def _sentence(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def _paragraphs(rng, n):
    return "\n".join(_sentence(rng, 8, 16) for _ in range(n))


class Store:
    def __init__(self):
        self.lock = threading.Lock()
        rng = random.Random(20240917)
        self.users = {}
        self.posts = {}
        self.comments = {}
        self.albums = {}
        self.photos = {}
        self.todos = {}
        for uid, (name, username) in enumerate(USERS_SEED, start=1):
            self.users[uid] = {
                "id": uid,
                "name": name,
                "username": username,
                "email": f"{username.replace('.', '')}@falcon.example",
            }
        pid = cid = aid = phid = tid = 0
        for uid in self.users:
            for _ in range(POSTS_PER_USER):
                pid += 1
                self.posts[pid] = {
                    "id": pid,
                    "userId": uid,
                    "title": _sentence(rng, 3, 7),
                    "body": _paragraphs(rng, 3),
                }
                for _ in range(COMMENTS_PER_POST):
                    cid += 1
                    self.comments[cid] = {
                        "id": cid,
                        "postId": pid,
                        "name": _sentence(rng, 2, 5),
                        "email": f"reader{cid}@comments.example",
                        "body": _paragraphs(rng, 2),
                    }
            for _ in range(ALBUMS_PER_USER):
                aid += 1
                self.albums[aid] = {"id": aid, "userId": uid, "title": _sentence(rng, 2, 6)}
                for _ in range(PHOTOS_PER_ALBUM):
                    phid += 1
                    colour = "%06x" % rng.randrange(0, 0xFFFFFF)
                    self.photos[phid] = {
                        "id": phid,
                        "albumId": aid,
                        "title": _sentence(rng, 2, 6),
                        "url": f"https://img.falcon.example/600/{colour}",
                        "thumbnailUrl": f"https://img.falcon.example/150/{colour}",
                    }
            for _ in range(TODOS_PER_USER):
                tid += 1
                self.todos[tid] = {
                    "id": tid,
                    "userId": uid,
                    "title": _sentence(rng, 3, 6),
                    "completed": rng.random() < 0.5,
                }
        # ids are never reused, even after a delete
        self.next_post_id = pid + 1


STORE = Store()


def newest_first(items):
    return sorted(items, key=lambda x: x["id"], reverse=True)


# --------------------------------------------------------------------------------------------
# HTTP helpers
# --------------------------------------------------------------------------------------------
class ApiError(Exception):
    def __init__(self, status, message, fields=None, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.fields = fields
        self.headers = headers or {}


def cors_headers(request):
    origin = request.headers.get("origin")
    h = {
        "Access-Control-Allow-Origin": origin or "*",
        "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
        "Access-Control-Allow-Headers": request.headers.get(
            "access-control-request-headers", "Content-Type, Authorization"
        ),
        "Access-Control-Max-Age": "600",
    }
    if origin:
        h["Vary"] = "Origin"
    return h


def json_response(request, data, status=200, headers=None):
    h = cors_headers(request)
    if headers:
        h.update(headers)
    if data is None:
        return Response(status_code=status, headers=h)
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return Response(body, status_code=status, headers=h, media_type="application/json")


def error_response(request, err):
    payload = {"error": {"status": err.status, "message": err.message}}
    if err.fields:
        payload["error"]["fields"] = err.fields
    return json_response(request, payload, err.status, err.headers)


def parse_id(raw, what):
    if raw.isdigit() and not raw.startswith("0"):
        return int(raw)
    raise ApiError(404, f"{what} '{raw}' does not exist")


async def read_json_object(request):
    raw = await request.body()
    if not raw.strip():
        raise ApiError(400, "request body must be a JSON object")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "request body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "request body must be a JSON object")
    return data


def coerce_user_id(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 1 else None
    if isinstance(value, float) and value.is_integer() and value >= 1:
        return int(value)
    if isinstance(value, str) and value.strip().isdigit() and int(value.strip()) >= 1:
        return int(value.strip())
    return None


POST_FIELDS = ("title", "body", "userId")


def validate_post_fields(data, partial):
    """Returns the cleaned subset of post fields; raises 422 listing every problem."""
    clean, problems = {}, {}
    for field in POST_FIELDS:
        if field not in data:
            if not partial:
                problems[field] = "is required"
            continue
        value = data[field]
        if field == "userId":
            uid = coerce_user_id(value)
            if uid is None:
                problems[field] = "must be a positive integer"
            else:
                clean[field] = uid
        else:
            if not isinstance(value, str) or not value.strip():
                problems[field] = "must be a non-empty string"
            else:
                clean[field] = value
    if problems:
        raise ApiError(422, "post failed validation", fields=problems)
    return clean


def post_view(p):
    return {"id": p["id"], "userId": p["userId"], "title": p["title"], "body": p["body"]}


# --------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------
async def health(request, method):
    with STORE.lock:
        posts = len(STORE.posts)
    return json_response(request, {"status": "ok", "service": "prototype-falcon", "posts": posts})


async def posts_collection(request, method):
    if method == "GET":
        raw_ids = request.query_params.getlist("userId")
        wanted = None
        if raw_ids:
            wanted = set()
            for raw in raw_ids:
                uid = coerce_user_id(raw)
                if uid is None:
                    raise ApiError(400, f"query parameter userId must be a positive integer, got '{raw}'")
                wanted.add(uid)
        with STORE.lock:
            items = [post_view(p) for p in STORE.posts.values()
                     if wanted is None or p["userId"] in wanted]
        return json_response(request, newest_first(items))
    # POST
    data = await read_json_object(request)
    clean = validate_post_fields(data, partial=False)
    with STORE.lock:
        pid = STORE.next_post_id
        STORE.next_post_id += 1
        post = {"id": pid, **clean}
        STORE.posts[pid] = post
        out = post_view(post)
    return json_response(request, out, 201, {"Location": f"/posts/{pid}"})


async def post_item(request, method, post_id):
    pid = parse_id(post_id, "post")
    if method in ("PUT", "PATCH"):
        # existence first, so an unknown post is 404 whatever the body holds
        with STORE.lock:
            exists = pid in STORE.posts
        if not exists:
            raise ApiError(404, f"post {pid} does not exist")
        data = await read_json_object(request)
        clean = validate_post_fields(data, partial=(method == "PATCH"))
        with STORE.lock:
            post = STORE.posts.get(pid)
            if post is None:
                raise ApiError(404, f"post {pid} does not exist")
            if method == "PUT":
                post.update({"title": clean["title"], "body": clean["body"], "userId": clean["userId"]})
            else:
                post.update(clean)
            return json_response(request, post_view(post))
    with STORE.lock:
        post = STORE.posts.get(pid)
        if post is None:
            raise ApiError(404, f"post {pid} does not exist")
        if method == "GET":
            return json_response(request, post_view(post))
        # DELETE: remove the post and its comments
        del STORE.posts[pid]
        for cid in [c["id"] for c in STORE.comments.values() if c["postId"] == pid]:
            del STORE.comments[cid]
    return json_response(request, None, 204)


async def post_comments(request, method, post_id):
    pid = parse_id(post_id, "post")
    with STORE.lock:
        if pid not in STORE.posts:
            raise ApiError(404, f"post {pid} does not exist")
        items = [dict(c) for c in STORE.comments.values() if c["postId"] == pid]
    return json_response(request, newest_first(items))


async def comments_collection(request, method):
    raw = request.query_params.get("postId")
    wanted = None
    if raw is not None:
        wanted = coerce_user_id(raw)
        if wanted is None:
            raise ApiError(400, f"query parameter postId must be a positive integer, got '{raw}'")
    with STORE.lock:
        items = [dict(c) for c in STORE.comments.values() if wanted is None or c["postId"] == wanted]
    return json_response(request, newest_first(items))


async def album_photos(request, method, album_id):
    aid = parse_id(album_id, "album")
    with STORE.lock:
        if aid not in STORE.albums:
            raise ApiError(404, f"album {aid} does not exist")
        items = [dict(p) for p in STORE.photos.values() if p["albumId"] == aid]
    return json_response(request, newest_first(items))


def user_children(kind):
    async def handler(request, method, user_id):
        uid = parse_id(user_id, "user")
        with STORE.lock:
            if uid not in STORE.users:
                raise ApiError(404, f"user {uid} does not exist")
            if kind == "albums":
                items = [dict(a) for a in STORE.albums.values() if a["userId"] == uid]
            elif kind == "todos":
                items = [dict(t) for t in STORE.todos.values() if t["userId"] == uid]
            else:
                items = [post_view(p) for p in STORE.posts.values() if p["userId"] == uid]
        return json_response(request, newest_first(items))
    return handler


ROUTES = [
    (re.compile(r"^/$"), {"GET": health}),
    (re.compile(r"^/posts$"), {"GET": posts_collection, "POST": posts_collection}),
    (re.compile(r"^/posts/([^/]+)$"),
     {"GET": post_item, "PUT": post_item, "PATCH": post_item, "DELETE": post_item}),
    (re.compile(r"^/posts/([^/]+)/comments$"), {"GET": post_comments}),
    (re.compile(r"^/comments$"), {"GET": comments_collection}),
    (re.compile(r"^/albums/([^/]+)/photos$"), {"GET": album_photos}),
    (re.compile(r"^/users/([^/]+)/albums$"), {"GET": user_children("albums")}),
    (re.compile(r"^/users/([^/]+)/todos$"), {"GET": user_children("todos")}),
    (re.compile(r"^/users/([^/]+)/posts$"), {"GET": user_children("posts")}),
]


async def dispatch(request: Request):
    path = request.url.path
    if len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/") or "/"
    method = request.method.upper()
    try:
        for pattern, methods in ROUTES:
            m = pattern.match(path)
            if not m:
                continue
            allowed = sorted(set(methods) | {"OPTIONS"} | ({"HEAD"} if "GET" in methods else set()))
            if method == "OPTIONS":
                return json_response(request, None, 204, {"Allow": ", ".join(allowed)})
            if method == "HEAD":
                method = "GET"
            handler = methods.get(method)
            if handler is None:
                raise ApiError(405, f"method {method} is not allowed on {path}",
                               headers={"Allow": ", ".join(allowed)})
            return await handler(request, method, *m.groups())
        raise ApiError(404, f"no resource at {path}")
    except ApiError as err:
        return error_response(request, err)


ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
app = Starlette(routes=[Route("/{rest:path}", dispatch, methods=ALL_METHODS)])


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host=os.environ.get("HOST", "0.0.0.0"),
                port=int(os.environ.get("PORT", "9207")), log_level="warning")
