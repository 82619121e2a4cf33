"""Secure notes service: register, log in, and manage one's own tagged notes."""

import re
import threading
from datetime import datetime, timezone

from fastapi import Depends, FastAPI, Query, Response
from pydantic import BaseModel, Field, field_validator

from . import auth, errors
from .errors import ApiError

app = FastAPI(title="Secure notes", docs_url=None, redoc_url=None, openapi_url=None)
errors.install(app)

USERNAME_RE = re.compile(r"^[a-z0-9_]{3,32}$")
TAG_RE = re.compile(r"^[a-z0-9_-]{1,20}$")

_lock = threading.Lock()
_notes: dict[int, dict] = {}
_next_note_id = 1


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class Credentials(BaseModel):
    username: str
    password: str = Field(min_length=8, max_length=128)

    @field_validator("username")
    @classmethod
    def _username(cls, value: str) -> str:
        if not USERNAME_RE.match(value):
            raise ValueError("用户名须为 3-32 位小写字母、数字或下划线")
        return value


class LoginRequest(BaseModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=128)


class NoteIn(BaseModel):
    title: str = Field(min_length=1, max_length=100)
    content: str = Field(default="", max_length=10000)
    tags: list[str] = Field(default_factory=list, max_length=8)

    @field_validator("title")
    @classmethod
    def _title(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("标题不能为空")
        return value

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: list[str]) -> list[str]:
        cleaned = []
        for tag in value:
            tag = tag.strip().lower()
            if not TAG_RE.match(tag):
                raise ValueError("标签须为 1-20 位小写字母、数字、下划线或连字符")
            if tag not in cleaned:
                cleaned.append(tag)
        return sorted(cleaned)


def _own_note(note_id: int, user: auth.User) -> dict:
    note = _notes.get(note_id)
    if note is None or note["owner_id"] != user.id:
        raise ApiError(404, "NOTE_NOT_FOUND", f"笔记 {note_id} 不存在")
    return note


def _public(note: dict) -> dict:
    return {k: v for k, v in note.items() if k != "owner_id"}


@app.get("/health")
def health() -> dict:
    return {"status": "ok"}


@app.post("/auth/register", status_code=201)
def register(body: Credentials) -> dict:
    user = auth.register(body.username, body.password, _now())
    return {"id": user.id, "username": user.username, "created_at": user.created_at}


@app.post("/auth/login")
def login(body: LoginRequest) -> dict:
    token = auth.login(body.username, body.password)
    return {"access_token": token, "token_type": "bearer", "expires_in": auth.TOKEN_TTL_SECONDS}


@app.post("/auth/logout", status_code=204)
def logout(token: str = Depends(auth.current_token)) -> Response:
    auth.logout(token)
    return Response(status_code=204)


@app.get("/users/me")
def me(user: auth.User = Depends(auth.current_user)) -> dict:
    with _lock:
        count = sum(1 for n in _notes.values() if n["owner_id"] == user.id)
    return {"id": user.id, "username": user.username, "created_at": user.created_at,
            "note_count": count}


@app.get("/notes")
def list_notes(
    tag: str | None = Query(default=None, max_length=20),
    q: str | None = Query(default=None, max_length=100),
    user: auth.User = Depends(auth.current_user),
) -> dict:
    with _lock:
        notes = [n for _, n in sorted(_notes.items()) if n["owner_id"] == user.id]
    if tag:
        notes = [n for n in notes if tag.lower() in n["tags"]]
    if q:
        needle = q.lower()
        notes = [n for n in notes if needle in n["title"].lower() or needle in n["content"].lower()]
    return {"items": [_public(n) for n in notes], "total": len(notes)}


@app.post("/notes", status_code=201)
def create_note(body: NoteIn, user: auth.User = Depends(auth.current_user)) -> dict:
    global _next_note_id
    now = _now()
    with _lock:
        note = {"id": _next_note_id, "owner_id": user.id, "title": body.title,
                "content": body.content, "tags": body.tags, "created_at": now, "updated_at": now}
        _notes[_next_note_id] = note
        _next_note_id += 1
    return _public(note)


@app.get("/notes/{note_id}")
def get_note(note_id: int, user: auth.User = Depends(auth.current_user)) -> dict:
    with _lock:
        return _public(_own_note(note_id, user))


@app.put("/notes/{note_id}")
def update_note(note_id: int, body: NoteIn, user: auth.User = Depends(auth.current_user)) -> dict:
    with _lock:
        note = _own_note(note_id, user)
        note.update(title=body.title, content=body.content, tags=body.tags, updated_at=_now())
        return _public(note)


@app.delete("/notes/{note_id}", status_code=204)
def delete_note(note_id: int, user: auth.User = Depends(auth.current_user)) -> Response:
    with _lock:
        _own_note(note_id, user)
        del _notes[note_id]
    return Response(status_code=204)


@app.get("/tags")
def list_tags(user: auth.User = Depends(auth.current_user)) -> list[dict]:
    counts: dict[str, int] = {}
    with _lock:
        for note in _notes.values():
            if note["owner_id"] == user.id:
                for tag in note["tags"]:
                    counts[tag] = counts.get(tag, 0) + 1
    return [{"tag": t, "count": c} for t, c in sorted(counts.items(), key=lambda i: (-i[1], i[0]))]
