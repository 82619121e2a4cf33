"""Todo service: tasks with priority, due dates, completion and statistics.

In-memory storage; restart gives an empty list.
"""

import threading
from datetime import date, datetime, timezone
from enum import Enum

from fastapi import FastAPI, HTTPException, Query, Response
from pydantic import BaseModel, Field, field_validator

app = FastAPI(title="Todo service", version="1.0.0", docs_url=None, redoc_url=None, openapi_url=None)

_lock = threading.Lock()
_todos: dict[int, dict] = {}
_next_id = 1


class Priority(str, Enum):
    low = "low"
    normal = "normal"
    high = "high"


class TodoCreate(BaseModel):
    title: str = Field(min_length=1, max_length=140)
    description: str = Field(default="", max_length=2000)
    priority: Priority = Priority.normal
    due_date: date | None = None

    @field_validator("title")
    @classmethod
    def _strip_title(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("title must not be blank")
        return value


class TodoPatch(BaseModel):
    title: str | None = Field(default=None, min_length=1, max_length=140)
    description: str | None = Field(default=None, max_length=2000)
    priority: Priority | None = None
    due_date: date | None = None

    @field_validator("title")
    @classmethod
    def _strip_title(cls, value: str | None) -> str | None:
        if value is None:
            return value
        value = value.strip()
        if not value:
            raise ValueError("title must not be blank")
        return value


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _get(todo_id: int) -> dict:
    todo = _todos.get(todo_id)
    if todo is None:
        raise HTTPException(status_code=404, detail=f"Todo {todo_id} not found")
    return todo


def _with_overdue(todo: dict) -> dict:
    out = dict(todo)
    due = todo["due_date"]
    out["overdue"] = bool(due and not todo["done"] and date.fromisoformat(due) < date.today())
    return out


@app.get("/todos/stats")
def todo_stats() -> dict:
    with _lock:
        todos = [_with_overdue(t) for t in _todos.values()]
    by_priority = {p.value: 0 for p in Priority}
    for todo in todos:
        if not todo["done"]:
            by_priority[todo["priority"]] += 1
    return {
        "total": len(todos),
        "done": sum(1 for t in todos if t["done"]),
        "open": sum(1 for t in todos if not t["done"]),
        "overdue": sum(1 for t in todos if t["overdue"]),
        "open_by_priority": by_priority,
    }


@app.get("/todos")
def list_todos(
    done: bool | None = None,
    priority: Priority | None = None,
    q: str | None = Query(default=None, max_length=100),
) -> list[dict]:
    with _lock:
        todos = [_with_overdue(t) for _, t in sorted(_todos.items())]
    if done is not None:
        todos = [t for t in todos if t["done"] == done]
    if priority is not None:
        todos = [t for t in todos if t["priority"] == priority.value]
    if q:
        needle = q.lower()
        todos = [t for t in todos if needle in t["title"].lower()
                 or needle in t["description"].lower()]
    return todos


@app.post("/todos", status_code=201)
def create_todo(payload: TodoCreate, response: Response) -> dict:
    global _next_id
    with _lock:
        todo = {
            "id": _next_id,
            "title": payload.title,
            "description": payload.description,
            "priority": payload.priority.value,
            "due_date": payload.due_date.isoformat() if payload.due_date else None,
            "done": False,
            "created_at": _now(),
            "completed_at": None,
        }
        _todos[_next_id] = todo
        _next_id += 1
    response.headers["Location"] = f"/todos/{todo['id']}"
    return _with_overdue(todo)


@app.get("/todos/{todo_id}")
def get_todo(todo_id: int) -> dict:
    with _lock:
        return _with_overdue(_get(todo_id))


@app.patch("/todos/{todo_id}")
def update_todo(todo_id: int, payload: TodoPatch) -> dict:
    changes = payload.model_dump(exclude_unset=True)
    if "title" in changes and changes["title"] is None:
        raise HTTPException(status_code=422, detail="title cannot be null")
    if "priority" in changes and changes["priority"] is None:
        raise HTTPException(status_code=422, detail="priority cannot be null")
    if "description" in changes and changes["description"] is None:
        changes["description"] = ""
    with _lock:
        todo = _get(todo_id)
        for key, value in changes.items():
            if isinstance(value, Priority):
                value = value.value
            elif isinstance(value, date):
                value = value.isoformat()
            todo[key] = value
        return _with_overdue(todo)


@app.post("/todos/{todo_id}/complete")
def complete_todo(todo_id: int) -> dict:
    with _lock:
        todo = _get(todo_id)
        if todo["done"]:
            raise HTTPException(status_code=409, detail=f"Todo {todo_id} is already completed")
        todo["done"] = True
        todo["completed_at"] = _now()
        return _with_overdue(todo)


@app.post("/todos/{todo_id}/reopen")
def reopen_todo(todo_id: int) -> dict:
    with _lock:
        todo = _get(todo_id)
        if not todo["done"]:
            raise HTTPException(status_code=409, detail=f"Todo {todo_id} is not completed")
        todo["done"] = False
        todo["completed_at"] = None
        return _with_overdue(todo)


@app.delete("/todos/{todo_id}", status_code=204)
def delete_todo(todo_id: int) -> Response:
    with _lock:
        _get(todo_id)
        del _todos[todo_id]
    return Response(status_code=204)
