"""Event sign-up service: events with a capacity and attendee registrations (SQLite)."""

import os
import sqlite3
import tempfile
from contextlib import asynccontextmanager, closing
from datetime import datetime, timezone

from fastapi import APIRouter, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

DB_PATH = os.environ.get("EVENTS_DB") or tempfile.mkstemp(prefix="events-")[1]

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    location TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    capacity INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS registrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    UNIQUE (event_id, email)
);
"""


@asynccontextmanager
async def lifespan(_app: FastAPI):
    with closing(sqlite3.connect(DB_PATH)) as conn:
        conn.executescript(SCHEMA)
    yield
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:
            os.remove(DB_PATH + suffix)
        except FileNotFoundError:
            pass


app = FastAPI(title="Event sign-up", lifespan=lifespan,
              docs_url=None, redoc_url=None, openapi_url=None)
api = APIRouter(prefix="/api/v2")

TITLES = {400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
          422: "Unprocessable Entity"}


def problem(status: int, detail: str) -> JSONResponse:
    body = {"type": "about:blank", "title": TITLES.get(status, "Error"), "status": status,
            "detail": detail}
    return JSONResponse(body, status_code=status, media_type="application/problem+json")


class Problem(Exception):
    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status, self.detail = status, detail


@app.exception_handler(Problem)
async def _problem(_request: Request, exc: Problem):
    return problem(exc.status, exc.detail)


@app.exception_handler(RequestValidationError)
async def _invalid(_request: Request, exc: RequestValidationError):
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()))
    return problem(422, f"{where}: {first.get('msg', 'invalid request')}")


@app.exception_handler(StarletteHTTPException)
async def _http(_request: Request, exc: StarletteHTTPException):
    return problem(exc.status_code, str(exc.detail))


def db() -> sqlite3.Connection:
    conn = sqlite3.connect(DB_PATH, timeout=10)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class EventIn(BaseModel):
    title: str = Field(min_length=1, max_length=120)
    location: str = Field(min_length=1, max_length=120)
    starts_at: datetime
    capacity: int = Field(ge=1, le=10000)

    @field_validator("starts_at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("starts_at must include a time zone offset")
        return value.astimezone(timezone.utc).replace(microsecond=0)


class RegistrationIn(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", max_length=254)


def _event_view(conn: sqlite3.Connection, row: sqlite3.Row) -> dict:
    taken = conn.execute("SELECT COUNT(*) FROM registrations WHERE event_id = ?",
                         (row["id"],)).fetchone()[0]
    return {"id": row["id"], "title": row["title"], "location": row["location"],
            "starts_at": row["starts_at"], "capacity": row["capacity"],
            "registered": taken, "seats_left": row["capacity"] - taken,
            "created_at": row["created_at"]}


def _event_row(conn: sqlite3.Connection, event_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM events WHERE id = ?", (event_id,)).fetchone()
    if row is None:
        raise Problem(404, f"event {event_id} does not exist")
    return row


@api.get("/events")
def list_events(
    q: str | None = Query(None, max_length=100),
    upcoming: bool = False,
    page: int = Query(1, ge=1),
    size: int = Query(10, ge=1, le=50),
) -> dict:
    clauses, params = [], []
    if q:
        clauses.append("(title LIKE ? ESCAPE '\\' OR location LIKE ? ESCAPE '\\')")
        pattern = "%" + q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        params += [pattern, pattern]
    if upcoming:
        clauses.append("starts_at > ?")
        params.append(_now())
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    with closing(db()) as conn:
        total = conn.execute(f"SELECT COUNT(*) FROM events {where}", params).fetchone()[0]
        rows = conn.execute(f"SELECT * FROM events {where} ORDER BY starts_at, id LIMIT ? OFFSET ?",
                            [*params, size, (page - 1) * size]).fetchall()
        items = [_event_view(conn, r) for r in rows]
    return {"items": items, "page": page, "size": size, "total": total,
            "total_pages": (total + size - 1) // size}


@api.post("/events", status_code=201)
def create_event(body: EventIn, response: Response) -> dict:
    starts = body.starts_at.isoformat().replace("+00:00", "Z")
    with closing(db()) as conn:
        cur = conn.execute(
            "INSERT INTO events (title, location, starts_at, capacity, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (body.title.strip(), body.location.strip(), starts, body.capacity, _now()))
        conn.commit()
        event = _event_view(conn, _event_row(conn, cur.lastrowid))
    response.headers["Location"] = f"/api/v2/events/{event['id']}"
    return event


@api.get("/events/{event_id}")
def get_event(event_id: int) -> dict:
    with closing(db()) as conn:
        return _event_view(conn, _event_row(conn, event_id))


@api.delete("/events/{event_id}", status_code=204)
def delete_event(event_id: int) -> Response:
    with closing(db()) as conn:
        _event_row(conn, event_id)
        conn.execute("DELETE FROM events WHERE id = ?", (event_id,))
        conn.commit()
    return Response(status_code=204)


@api.post("/events/{event_id}/registrations", status_code=201)
def register(event_id: int, body: RegistrationIn) -> dict:
    email = body.email.lower()
    with closing(db()) as conn:
        conn.execute("BEGIN IMMEDIATE")
        event = _event_row(conn, event_id)
        taken = conn.execute("SELECT COUNT(*) FROM registrations WHERE event_id = ?",
                             (event_id,)).fetchone()[0]
        if conn.execute("SELECT 1 FROM registrations WHERE event_id = ? AND email = ?",
                        (event_id, email)).fetchone():
            raise Problem(409, f"{email} is already registered for event {event_id}")
        if taken >= event["capacity"]:
            raise Problem(409, f"event {event_id} is full")
        cur = conn.execute(
            "INSERT INTO registrations (event_id, name, email, registered_at) VALUES (?,?,?,?)",
            (event_id, body.name.strip(), email, _now()))
        conn.commit()
        row = conn.execute("SELECT * FROM registrations WHERE id = ?",
                           (cur.lastrowid,)).fetchone()
    return dict(row)


@api.get("/events/{event_id}/registrations")
def list_registrations(event_id: int) -> list[dict]:
    with closing(db()) as conn:
        _event_row(conn, event_id)
        rows = conn.execute("SELECT * FROM registrations WHERE event_id = ? ORDER BY id",
                            (event_id,)).fetchall()
    return [dict(r) for r in rows]


@api.delete("/events/{event_id}/registrations/{registration_id}", status_code=204)
def cancel_registration(event_id: int, registration_id: int) -> Response:
    with closing(db()) as conn:
        _event_row(conn, event_id)
        cur = conn.execute("DELETE FROM registrations WHERE id = ? AND event_id = ?",
                           (registration_id, event_id))
        conn.commit()
        if cur.rowcount == 0:
            raise Problem(404, f"registration {registration_id} does not exist for this event")
    return Response(status_code=204)


app.include_router(api)
