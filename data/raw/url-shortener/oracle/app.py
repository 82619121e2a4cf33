"""URL shortener backed by SQLite (stdlib sqlite3).

The database file comes from SHORTLINK_DB (start.sh creates a fresh one with mktemp);
the file is removed when the process exits.
"""

import atexit
import os
import re
import secrets
import signal
import sqlite3
import string
import sys
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

from flask import Flask, g, jsonify, redirect, request

DB_PATH = os.environ.get("SHORTLINK_DB") or os.path.join(
    os.environ.get("TMPDIR", "/tmp"), f"shortlinks-{os.getpid()}.db"
)
CODE_RE = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
ALPHABET = string.ascii_letters + string.digits
RESERVED_CODES = {"health", "short-links"}

SCHEMA = """
CREATE TABLE IF NOT EXISTS links (
    code TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    hits INTEGER NOT NULL DEFAULT 0,
    last_accessed_at TEXT
);
"""

app = Flask(__name__)


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@app.errorhandler(ApiError)
def _api_error(err: ApiError):
    return jsonify({"error": {"code": err.code, "message": err.message}}), err.status


@app.errorhandler(404)
def _not_found(_err):
    return jsonify({"error": {"code": "not_found", "message": "Resource not found"}}), 404


@app.errorhandler(405)
def _not_allowed(_err):
    body = {"error": {"code": "method_not_allowed", "message": "Method not allowed"}}
    return jsonify(body), 405


def _init_db() -> None:
    with sqlite3.connect(DB_PATH) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(SCHEMA)


def _cleanup() -> None:
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(DB_PATH + suffix)
        except FileNotFoundError:
            pass


def db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = sqlite3.connect(DB_PATH, timeout=10)
        g.db.row_factory = sqlite3.Row
    return g.db


@app.teardown_appcontext
def _close_db(_exc):
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def _expired(row: sqlite3.Row) -> bool:
    return bool(row["expires_at"]) and row["expires_at"] <= _iso(_now())


def _public(row: sqlite3.Row) -> dict:
    return {
        "code": row["code"],
        "url": row["url"],
        "short_url": f"{request.host_url.rstrip('/')}/r/{row['code']}",
        "created_at": row["created_at"],
        "expires_at": row["expires_at"],
        "expired": _expired(row),
        "hits": row["hits"],
    }


def _json_object() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_json", "Request body must be a JSON object")
    return data


def _check_url(value) -> str:
    if not isinstance(value, str) or len(value) > 2048:
        raise ApiError(422, "invalid_url", "'url' must be a string of at most 2048 characters")
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ApiError(422, "invalid_url", "'url' must be an absolute http or https URL")
    return value.strip()


def _check_expiry(data: dict) -> str | None:
    days = data.get("expires_in_days")
    if days is None:
        return None
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 365:
        raise ApiError(422, "invalid_expiry", "'expires_in_days' must be an integer 1-365")
    return _iso(_now() + timedelta(days=days))


def _find(code: str) -> sqlite3.Row:
    row = db().execute("SELECT * FROM links WHERE code = ?", (code,)).fetchone()
    if row is None:
        raise ApiError(404, "not_found", f"Short link '{code}' not found")
    return row


@app.get("/health")
def health():
    count = db().execute("SELECT COUNT(*) FROM links").fetchone()[0]
    return jsonify({"status": "ok", "links": count})


@app.post("/short-links")
def create_link():
    data = _json_object()
    url = _check_url(data.get("url"))
    expires_at = _check_expiry(data)
    code = data.get("code")
    conn = db()
    if code is not None:
        if not isinstance(code, str) or not CODE_RE.match(code) or code in RESERVED_CODES:
            raise ApiError(422, "invalid_code",
                           "'code' must be 4-32 characters of letters, digits, '-' or '_'")
        try:
            conn.execute("INSERT INTO links (code, url, created_at, expires_at) VALUES (?,?,?,?)",
                         (code, url, _iso(_now()), expires_at))
        except sqlite3.IntegrityError:
            raise ApiError(409, "code_taken", f"Short code '{code}' is already in use") from None
    else:
        while True:
            code = "".join(secrets.choice(ALPHABET) for _ in range(7))
            try:
                conn.execute(
                    "INSERT INTO links (code, url, created_at, expires_at) VALUES (?,?,?,?)",
                    (code, url, _iso(_now()), expires_at))
                break
            except sqlite3.IntegrityError:
                continue
    conn.commit()
    response = jsonify(_public(_find(code)))
    response.status_code = 201
    response.headers["Location"] = f"/short-links/{code}"
    return response


@app.get("/short-links")
def list_links():
    try:
        limit = int(request.args.get("limit", "50"))
        offset = int(request.args.get("offset", "0"))
    except ValueError:
        raise ApiError(400, "invalid_parameter", "'limit' and 'offset' must be integers") from None
    if not 1 <= limit <= 200 or offset < 0:
        raise ApiError(400, "invalid_parameter", "'limit' must be 1-200 and 'offset' >= 0")
    conn = db()
    total = conn.execute("SELECT COUNT(*) FROM links").fetchone()[0]
    rows = conn.execute("SELECT * FROM links ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
                        (limit, offset)).fetchall()
    return jsonify({"items": [_public(r) for r in rows], "total": total,
                    "limit": limit, "offset": offset})


@app.get("/short-links/<code>")
def get_link(code: str):
    return jsonify(_public(_find(code)))


@app.patch("/short-links/<code>")
def update_link(code: str):
    data = _json_object()
    _find(code)
    if "url" not in data and "expires_in_days" not in data:
        raise ApiError(422, "nothing_to_update", "Provide 'url' and/or 'expires_in_days'")
    conn = db()
    if "url" in data:
        conn.execute("UPDATE links SET url = ? WHERE code = ?", (_check_url(data["url"]), code))
    if "expires_in_days" in data:
        conn.execute("UPDATE links SET expires_at = ? WHERE code = ?", (_check_expiry(data), code))
    conn.commit()
    return jsonify(_public(_find(code)))


@app.delete("/short-links/<code>")
def delete_link(code: str):
    _find(code)
    conn = db()
    conn.execute("DELETE FROM links WHERE code = ?", (code,))
    conn.commit()
    return "", 204


@app.get("/short-links/<code>/stats")
def link_stats(code: str):
    row = _find(code)
    return jsonify({"code": row["code"], "hits": row["hits"],
                    "last_accessed_at": row["last_accessed_at"], "expired": _expired(row)})


@app.get("/r/<code>")
def follow(code: str):
    row = _find(code)
    if _expired(row):
        raise ApiError(410, "expired", f"Short link '{code}' has expired")
    conn = db()
    conn.execute("UPDATE links SET hits = hits + 1, last_accessed_at = ? WHERE code = ?",
                 (_iso(_now()), code))
    conn.commit()
    return redirect(row["url"], code=302)


def _on_term(_signum, _frame):
    sys.exit(0)


if __name__ == "__main__":
    _init_db()
    atexit.register(_cleanup)
    signal.signal(signal.SIGTERM, _on_term)
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8103")), threaded=True)
