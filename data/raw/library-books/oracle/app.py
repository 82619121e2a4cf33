"""Library catalogue service: books, search with pagination, and loans.

State is kept in memory; every start is a fresh, empty catalogue.
"""

import os
import re
import threading
from datetime import date, datetime, timedelta, timezone

from flask import Flask, jsonify, request

app = Flask(__name__)

_lock = threading.Lock()
_books: dict[int, dict] = {}
_loans: dict[int, dict] = {}  # book_id -> active loan
_next_id = 1

ISBN_RE = re.compile(r"^(\d{10}|\d{13})$")
MAX_PER_PAGE = 100


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, fields: dict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields


@app.errorhandler(ApiError)
def _api_error(err: ApiError):
    body = {"error": {"code": err.code, "message": err.message}}
    if err.fields:
        body["error"]["fields"] = err.fields
    return jsonify(body), err.status


@app.errorhandler(404)
def _not_found(_err):
    return jsonify({"error": {"code": "not_found", "message": "Resource not found"}}), 404


@app.errorhandler(405)
def _method_not_allowed(_err):
    body = {"error": {"code": "method_not_allowed", "message": "Method not allowed"}}
    return jsonify(body), 405


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _json_object() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_json", "Request body must be a JSON object")
    return data


def _validate_book(data: dict) -> dict:
    fields: dict[str, str] = {}
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        fields["title"] = "required, non-empty string"
    elif len(title.strip()) > 200:
        fields["title"] = "at most 200 characters"
    author = data.get("author")
    if not isinstance(author, str) or not author.strip():
        fields["author"] = "required, non-empty string"
    elif len(author.strip()) > 120:
        fields["author"] = "at most 120 characters"
    isbn = data.get("isbn")
    normalized_isbn = isbn.replace("-", "") if isinstance(isbn, str) else None
    if normalized_isbn is None or not ISBN_RE.match(normalized_isbn):
        fields["isbn"] = "10 or 13 digits, hyphens allowed"
    year = data.get("year")
    if not isinstance(year, int) or isinstance(year, bool) or not 1450 <= year <= 2100:
        fields["year"] = "integer between 1450 and 2100"
    tags = data.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) and t.strip() for t in tags):
        fields["tags"] = "list of non-empty strings"
    elif len(tags) > 10:
        fields["tags"] = "at most 10 tags"
    if fields:
        raise ApiError(422, "validation_error", "Invalid book", fields)
    clean_tags = sorted({t.strip().lower() for t in tags})
    return {
        "title": title.strip(),
        "author": author.strip(),
        "isbn": normalized_isbn,
        "year": year,
        "tags": clean_tags,
    }


def _public(book: dict) -> dict:
    out = dict(book)
    out["available"] = book["id"] not in _loans
    return out


def _get_book(book_id: int) -> dict:
    book = _books.get(book_id)
    if book is None:
        raise ApiError(404, "not_found", f"Book {book_id} not found")
    return book


def _isbn_taken(isbn: str, except_id: int | None = None) -> bool:
    return any(b["isbn"] == isbn and b["id"] != except_id for b in _books.values())


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise ApiError(400, "invalid_parameter", f"'{name}' must be an integer in [{low}, {high}]")
    return value


@app.get("/api/health")
def health():
    return jsonify({"status": "ok", "books": len(_books)})


@app.get("/api/books")
def list_books():
    page = _int_arg("page", 1, 1, 1_000_000)
    per_page = _int_arg("per_page", 20, 1, MAX_PER_PAGE)
    q = (request.args.get("q") or "").strip().lower()
    author = (request.args.get("author") or "").strip().lower()
    tag = (request.args.get("tag") or "").strip().lower()
    available = request.args.get("available")
    if available not in (None, "true", "false"):
        raise ApiError(400, "invalid_parameter", "'available' must be 'true' or 'false'")
    with _lock:
        matches = []
        for book in sorted(_books.values(), key=lambda b: b["id"]):
            if q and q not in book["title"].lower() and q not in book["author"].lower():
                continue
            if author and author not in book["author"].lower():
                continue
            if tag and tag not in book["tags"]:
                continue
            public = _public(book)
            if available is not None and public["available"] != (available == "true"):
                continue
            matches.append(public)
    total = len(matches)
    start = (page - 1) * per_page
    return jsonify(
        {
            "items": matches[start : start + per_page],
            "page": page,
            "per_page": per_page,
            "total": total,
            "pages": (total + per_page - 1) // per_page,
        }
    )


@app.post("/api/books")
def create_book():
    global _next_id
    fields = _validate_book(_json_object())
    with _lock:
        if _isbn_taken(fields["isbn"]):
            raise ApiError(409, "duplicate_isbn", f"A book with ISBN {fields['isbn']} exists")
        book = {"id": _next_id, **fields, "created_at": _now()}
        _books[_next_id] = book
        _next_id += 1
        body = _public(book)
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = f"/api/books/{book['id']}"
    return response


@app.get("/api/books/<int:book_id>")
def get_book(book_id: int):
    with _lock:
        return jsonify(_public(_get_book(book_id)))


@app.put("/api/books/<int:book_id>")
def replace_book(book_id: int):
    data = _json_object()
    with _lock:
        book = _get_book(book_id)
        fields = _validate_book(data)
        if _isbn_taken(fields["isbn"], except_id=book_id):
            raise ApiError(409, "duplicate_isbn", f"A book with ISBN {fields['isbn']} exists")
        book.update(fields)
        return jsonify(_public(book))


@app.delete("/api/books/<int:book_id>")
def delete_book(book_id: int):
    with _lock:
        _get_book(book_id)
        if book_id in _loans:
            raise ApiError(409, "book_on_loan", "A book on loan cannot be deleted")
        del _books[book_id]
    return "", 204


@app.post("/api/books/<int:book_id>/loan")
def borrow_book(book_id: int):
    data = _json_object()
    member = data.get("member")
    days = data.get("days", 14)
    fields = {}
    if not isinstance(member, str) or not member.strip():
        fields["member"] = "required, non-empty string"
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 60:
        fields["days"] = "integer between 1 and 60"
    if fields:
        raise ApiError(422, "validation_error", "Invalid loan", fields)
    with _lock:
        _get_book(book_id)
        if book_id in _loans:
            raise ApiError(409, "already_on_loan", f"Book {book_id} is already on loan")
        loan = {
            "book_id": book_id,
            "member": member.strip(),
            "borrowed_at": _now(),
            "due_date": (date.today() + timedelta(days=days)).isoformat(),
        }
        _loans[book_id] = loan
    return jsonify(loan), 201


@app.delete("/api/books/<int:book_id>/loan")
def return_book(book_id: int):
    with _lock:
        _get_book(book_id)
        loan = _loans.pop(book_id, None)
        if loan is None:
            raise ApiError(409, "not_on_loan", f"Book {book_id} is not on loan")
    return jsonify({**loan, "returned_at": _now()})


@app.get("/api/loans")
def list_loans():
    member = (request.args.get("member") or "").strip()
    with _lock:
        loans = [
            loan
            for _, loan in sorted(_loans.items())
            if not member or loan["member"] == member
        ]
    return jsonify({"items": loans, "total": len(loans)})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8101")), threaded=True)
