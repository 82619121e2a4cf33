"""Trivia API -- an independent implementation written from README.md alone.

Starlette + uvicorn, in-memory state behind a lock.  The README's database dump
(`trivia.psql`) is represented by the seed data that the README itself shows:
six categories, the "Tom Hanks" question (id 2) and the users Alice, Bob and
Charlie (Alice with score 1).
"""

import json
import os
import random
import re
import threading

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

PAGE_SIZE = 10

_lock = threading.RLock()


class ApiError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


REASONS = {
    400: "bad request",
    404: "not found",
    405: "method not allowed",
    422: "unprocessable entity",
    500: "internal server error",
}


def error_body(status, message):
    return {
        "success": False,
        "error": {
            "code": status,
            "reason": REASONS.get(status, "error"),
            "message": message,
        },
    }


# --------------------------------------------------------------------------
# state
# --------------------------------------------------------------------------


class Store:
    def __init__(self):
        self.categories = {}  # id -> {"id", "name", "icon"}
        self.questions = {}  # id -> question dict
        self.deleted_question_ids = set()
        self.users = {}  # id -> {"id", "username", "score"}
        # ids of rows created through the API (seed ids are fixed below)
        self.next_category_id = 101
        self.next_question_id = 1001
        self.next_user_id = 501
        self._seed()

    def _seed(self):
        for cid, name in [
            (1, "Science"),
            (2, "Art"),
            (3, "Geography"),
            (4, "History"),
            (5, "Entertainment"),
            (6, "Sports"),
        ]:
            self.categories[cid] = {"id": cid, "name": name, "icon": None}
        self.questions[2] = {
            "id": 2,
            "question": "What movie earned Tom Hanks his third straight Oscar nomination, in 1996?",
            "answer": "Apollo 13",
            "category_id": 5,
            "rating": 3,
            "difficulty": 4,
        }
        for uid, name, score in [(1, "Alice", 1), (2, "Bob", 0), (3, "Charlie", 0)]:
            self.users[uid] = {"id": uid, "username": name, "score": score}

    def categories_map(self):
        return {str(cid): self.categories[cid]["name"] for cid in sorted(self.categories)}


store = Store()


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

_INT_RE = re.compile(r"^[+-]?\d+$")


def as_int(value, field):
    """Accept a JSON integer or a string holding one (the README's examples send "3")."""
    if isinstance(value, bool):
        raise ApiError(400, f"'{field}' must be an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _INT_RE.match(value.strip()):
        return int(value.strip())
    raise ApiError(400, f"'{field}' must be an integer")


def require(body, field):
    if field not in body or body[field] is None:
        raise ApiError(400, f"missing required field '{field}'")
    return body[field]


def require_text(body, field):
    value = require(body, field)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"'{field}' must be a non-empty string")
    return value.strip()


async def json_body(request):
    raw = await request.body()
    if not raw.strip():
        raise ApiError(400, "a JSON object body is required")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "request body is not valid JSON")
    if not isinstance(body, dict):
        raise ApiError(400, "request body must be a JSON object")
    return body


def path_int(request, name):
    raw = request.path_params[name]
    if not re.match(r"^\d+$", raw):
        raise ApiError(404, f"no resource at '{request.url.path}'")
    return int(raw)


def ok(payload, status=200):
    out = {"success": True}
    out.update(payload)
    return JSONResponse(out, status_code=status)


def question_list_payload(questions, current_category_id):
    return {
        "questions": [dict(q) for q in questions],
        "total_questions": len(questions),
        "current_category_id": current_category_id,
        "categories": store.categories_map(),
    }


def newest_first(questions):
    return sorted(questions, key=lambda q: q["id"], reverse=True)


# --------------------------------------------------------------------------
# questions
# --------------------------------------------------------------------------


async def questions_endpoint(request: Request):
    if request.method == "GET":
        return list_questions(request)
    body = await json_body(request)
    if "search_term" in body:
        return search_questions(body)
    return create_question(body)


def list_questions(request):
    raw_page = request.query_params.get("page")
    if raw_page is None or raw_page == "":
        page = 1
    else:
        if not _INT_RE.match(raw_page.strip()):
            raise ApiError(400, "'page' must be a positive integer")
        page = int(raw_page.strip())
        if page < 1:
            raise ApiError(400, "'page' must be a positive integer")
    with _lock:
        ordered = newest_first(store.questions.values())
        start = (page - 1) * PAGE_SIZE
        chunk = ordered[start : start + PAGE_SIZE]
        if not chunk and page > 1:
            raise ApiError(404, f"page {page} of questions does not exist")
        payload = question_list_payload(ordered, None)
        payload["questions"] = [dict(q) for q in chunk]
        payload["page"] = page
    return ok(payload)


def search_questions(body):
    term = body["search_term"]
    if not isinstance(term, str):
        raise ApiError(400, "'search_term' must be a string")
    needle = term.casefold()
    with _lock:
        found = [q for q in newest_first(store.questions.values()) if needle in q["question"].casefold()]
        payload = question_list_payload(found, None)
    payload["search_term"] = term
    return ok(payload)


def create_question(body):
    question = require_text(body, "question")
    answer = require_text(body, "answer")
    category_id = as_int(require(body, "category_id"), "category_id")
    rating = as_int(require(body, "rating"), "rating")
    difficulty = as_int(require(body, "difficulty"), "difficulty")
    with _lock:
        if category_id not in store.categories:
            raise ApiError(422, f"category {category_id} does not exist")
        qid = store.next_question_id
        store.next_question_id += 1
        store.questions[qid] = {
            "id": qid,
            "question": question,
            "answer": answer,
            "category_id": category_id,
            "rating": rating,
            "difficulty": difficulty,
        }
    return ok({"created_question_id": qid}, status=201)


async def question_item_endpoint(request: Request):
    qid = path_int(request, "question_id")
    if request.method == "PATCH":
        body = await json_body(request)
        rating = as_int(require(body, "rating"), "rating")
        with _lock:
            q = store.questions.get(qid)
            if q is None:
                if qid in store.deleted_question_ids:
                    raise ApiError(422, f"question {qid} has been deleted and cannot be updated")
                raise ApiError(404, f"question {qid} does not exist")
            old = q["rating"]
            q["rating"] = rating
        return ok({"updated_question_id": qid, "old_rating": old, "new_rating": rating})
    # DELETE
    with _lock:
        if qid not in store.questions:
            raise ApiError(404, f"question {qid} does not exist")
        del store.questions[qid]
        store.deleted_question_ids.add(qid)
    return ok({"deleted_question_id": qid})


# --------------------------------------------------------------------------
# categories
# --------------------------------------------------------------------------


def looks_like_svg(upload, content):
    filename = (getattr(upload, "filename", None) or "").lower()
    ctype = (getattr(upload, "content_type", None) or "").lower()
    if filename.endswith(".svg") or "svg" in ctype:
        return True
    head = content[:4096].decode("utf-8", "ignore").lower()
    return "<svg" in head


async def categories_endpoint(request: Request):
    if request.method == "GET":
        with _lock:
            return ok({"categories": store.categories_map()})

    ctype = request.headers.get("content-type", "").lower()
    if not (ctype.startswith("multipart/form-data") or ctype.startswith("application/x-www-form-urlencoded")):
        raise ApiError(400, "this endpoint takes form data (fields 'name' and 'icon')")
    try:
        form = await request.form()
    except Exception:
        raise ApiError(400, "form data could not be parsed")
    name = form.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ApiError(400, "missing required form field 'name'")
    icon = form.get("icon")
    if icon is None or isinstance(icon, str):
        raise ApiError(400, "missing required file field 'icon'")
    content = await icon.read()
    if not content:
        raise ApiError(400, "the uploaded 'icon' file is empty")
    if not looks_like_svg(icon, content):
        raise ApiError(422, "the uploaded 'icon' is not an SVG file")
    with _lock:
        cid = store.next_category_id
        store.next_category_id += 1
        store.categories[cid] = {"id": cid, "name": name.strip(), "icon": content}
    return ok({"created_category_id": cid}, status=201)


async def category_questions_endpoint(request: Request):
    cid = path_int(request, "category_id")
    with _lock:
        if cid not in store.categories:
            raise ApiError(404, f"category {cid} does not exist")
        found = [q for q in newest_first(store.questions.values()) if q["category_id"] == cid]
        payload = question_list_payload(found, cid)
    return ok(payload)


# --------------------------------------------------------------------------
# quizzes
# --------------------------------------------------------------------------


async def quizzes_endpoint(request: Request):
    body = await json_body(request)
    category_id = as_int(require(body, "quiz_category_id"), "quiz_category_id")
    previous = require(body, "previous_question_ids")
    if not isinstance(previous, list):
        raise ApiError(400, "'previous_question_ids' must be a list of integers")
    seen = {as_int(v, "previous_question_ids") for v in previous}
    with _lock:
        if category_id != 0 and category_id not in store.categories:
            raise ApiError(404, f"category {category_id} does not exist")
        pool = [
            q
            for q in store.questions.values()
            if q["id"] not in seen and (category_id == 0 or q["category_id"] == category_id)
        ]
        chosen = dict(random.choice(pool)) if pool else None
    return ok({"question": chosen, "quiz_category_id": category_id})


# --------------------------------------------------------------------------
# users
# --------------------------------------------------------------------------


async def users_endpoint(request: Request):
    if request.method == "GET":
        with _lock:
            users = {str(uid): store.users[uid]["username"] for uid in sorted(store.users)}
        return ok({"users": users})
    body = await json_body(request)
    username = require_text(body, "username")
    with _lock:
        uid = store.next_user_id
        store.next_user_id += 1
        store.users[uid] = {"id": uid, "username": username, "score": 0}
    return ok({"created_user_id": uid}, status=201)


async def user_item_endpoint(request: Request):
    uid = path_int(request, "user_id")
    body = await json_body(request)
    score = as_int(require(body, "score"), "score")
    with _lock:
        user = store.users.get(uid)
        if user is None:
            raise ApiError(404, f"user {uid} does not exist")
        old = user["score"]
        user["score"] = old + score
        new = user["score"]
    return ok({"updated_user_id": uid, "old_score": old, "new_score": new})


# --------------------------------------------------------------------------
# error handling
# --------------------------------------------------------------------------


async def api_error_handler(request, exc: ApiError):
    return JSONResponse(error_body(exc.status, exc.message), status_code=exc.status)


async def http_error_handler(request, exc: HTTPException):
    status = exc.status_code
    if status == 404:
        message = f"no resource at '{request.url.path}'"
    elif status == 405:
        message = f"method {request.method} is not allowed on '{request.url.path}'"
    else:
        message = exc.detail or REASONS.get(status, "error")
    return JSONResponse(error_body(status, message), status_code=status, headers=getattr(exc, "headers", None))


async def server_error_handler(request, exc):
    return JSONResponse(error_body(500, "something went wrong on the server"), status_code=500)


routes = [
    Route("/questions", questions_endpoint, methods=["GET", "POST"]),
    Route("/questions/{question_id}", question_item_endpoint, methods=["PATCH", "DELETE"]),
    Route("/categories", categories_endpoint, methods=["GET", "POST"]),
    Route("/categories/{category_id}/questions", category_questions_endpoint, methods=["GET"]),
    Route("/quizzes", quizzes_endpoint, methods=["POST"]),
    Route("/users", users_endpoint, methods=["GET", "POST"]),
    Route("/users/{user_id}", user_item_endpoint, methods=["PATCH"]),
]

app = Starlette(
    routes=routes,
    exception_handlers={
        ApiError: api_error_handler,
        HTTPException: http_error_handler,
        Exception: server_error_handler,
    },
)


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(
        app,
        host=os.environ.get("HOST", "0.0.0.0"),
        port=int(os.environ.get("PORT", "9209")),
        log_level="warning",
    )
