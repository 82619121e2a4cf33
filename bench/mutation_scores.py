"""Mutation scores of a status-only suite and a body-checking suite on the same oracles.

    .venv/bin/python bench/mutation_scores.py [--cap 40] [--jobs N] [--seed 0] [TASK ...]

For each task (default: library-books, todo-tasks, inventory-java) a body-checking suite is
written by hand below; the status-only suite is derived from it by dropping every `assert`
that does not look at `.status_code`, so both send exactly the same requests. Both run
against the same capped, seeded selection of mutants of the task's oracle. Prints, per task:
mutants (valid / stillborn / invalid), each suite's score and kills, the mutants only the
body-checking suite kills (by operator), and the time taken. No asserts: it prints figures.
"""

from __future__ import annotations

import argparse
import ast
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.mutation import mutation_report  # noqa: E402

CONFTEST = '''import os

import pytest


@pytest.fixture(scope="session")
def base_url():
    return os.environ["SERVICE_BASE_URL"].rstrip("/")
'''

LIBRARY = '''import uuid

import requests


def isbn():
    return "978" + str(uuid.uuid4().int)[:10]


def new_book(base_url, **extra):
    payload = {"title": f"Book {uuid.uuid4().hex[:8]}", "author": "Ann Author",
               "isbn": isbn(), "year": 2001, "tags": ["Sci", "sci", " fi "], **extra}
    return payload, requests.post(f"{base_url}/api/books", json=payload, timeout=10)


def test_health(base_url):
    r = requests.get(f"{base_url}/api/health", timeout=10)
    assert r.status_code == 200
    assert r.json()["status"] == "ok"
    assert isinstance(r.json()["books"], int)


def test_create_and_get(base_url):
    payload, r = new_book(base_url)
    assert r.status_code == 201
    body = r.json()
    assert body["title"] == payload["title"] and body["author"] == "Ann Author"
    assert body["isbn"] == payload["isbn"] and body["year"] == 2001
    assert body["tags"] == ["fi", "sci"]
    assert body["available"] is True
    assert r.headers["Location"] == f"/api/books/{body['id']}"
    got = requests.get(f"{base_url}/api/books/{body['id']}", timeout=10)
    assert got.status_code == 200
    assert got.json() == body


def test_validation_and_bad_json(base_url):
    r = requests.post(f"{base_url}/api/books", timeout=10,
                      json={"title": "", "author": "X", "isbn": "12", "year": 3000})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "validation_error"
    assert set(r.json()["error"]["fields"]) == {"title", "isbn", "year"}
    bad = requests.post(f"{base_url}/api/books", data="nope", timeout=10,
                        headers={"Content-Type": "application/json"})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "invalid_json"


def test_duplicate_isbn(base_url):
    payload, r = new_book(base_url)
    assert r.status_code == 201
    again = requests.post(f"{base_url}/api/books", json=payload | {"title": "Other"}, timeout=10)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "duplicate_isbn"


def test_search_and_pagination(base_url):
    marker = uuid.uuid4().hex[:10]
    ids = [new_book(base_url, title=f"Atlas {marker} {i}")[1].json()["id"] for i in range(3)]
    page = requests.get(f"{base_url}/api/books", timeout=10,
                        params={"q": marker.upper(), "per_page": 2, "page": 2})
    assert page.status_code == 200
    body = page.json()
    assert body["total"] == 3 and body["pages"] == 2
    assert body["page"] == 2 and body["per_page"] == 2
    assert [b["id"] for b in body["items"]] == ids[2:]
    bad = requests.get(f"{base_url}/api/books", params={"per_page": 0}, timeout=10)
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "invalid_parameter"


def test_update(base_url):
    payload, r = new_book(base_url)
    book_id = r.json()["id"]
    put = requests.put(f"{base_url}/api/books/{book_id}", timeout=10,
                       json=payload | {"title": " New title ", "tags": ["X"]})
    assert put.status_code == 200
    assert put.json()["title"] == "New title" and put.json()["tags"] == ["x"]
    missing = requests.put(f"{base_url}/api/books/987654321", json=payload, timeout=10)
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_loan_lifecycle(base_url):
    book_id = new_book(base_url)[1].json()["id"]
    url = f"{base_url}/api/books/{book_id}/loan"
    member = f"M-{uuid.uuid4().hex[:6]}"
    loan = requests.post(url, json={"member": member, "days": 7}, timeout=10)
    assert loan.status_code == 201
    assert loan.json()["member"] == member and loan.json()["book_id"] == book_id
    again = requests.post(url, json={"member": member}, timeout=10)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_on_loan"
    got = requests.get(f"{base_url}/api/books/{book_id}", timeout=10)
    assert got.json()["available"] is False
    loans = requests.get(f"{base_url}/api/loans", params={"member": member}, timeout=10)
    assert loans.status_code == 200
    assert [item["book_id"] for item in loans.json()["items"]] == [book_id]
    blocked = requests.delete(f"{base_url}/api/books/{book_id}", timeout=10)
    assert blocked.status_code == 409
    assert blocked.json()["error"]["code"] == "book_on_loan"
    back = requests.delete(url, timeout=10)
    assert back.status_code == 200
    assert "returned_at" in back.json()
    twice = requests.delete(url, timeout=10)
    assert twice.status_code == 409
    assert twice.json()["error"]["code"] == "not_on_loan"
    assert requests.delete(f"{base_url}/api/books/{book_id}", timeout=10).status_code == 204


def test_unknown_book(base_url):
    r = requests.get(f"{base_url}/api/books/987654321", timeout=10)
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
'''

TODO = '''import uuid

import requests


def new_todo(base_url, **extra):
    payload = {"title": f"  Todo {uuid.uuid4().hex[:8]} ", "priority": "high", **extra}
    return requests.post(f"{base_url}/todos", json=payload, timeout=10)


def test_create_and_get(base_url):
    r = new_todo(base_url, description="d", due_date="2999-01-01")
    assert r.status_code == 201
    body = r.json()
    assert body["title"].startswith("Todo ") and body["title"] == body["title"].strip()
    assert body["priority"] == "high" and body["description"] == "d"
    assert body["done"] is False and body["completed_at"] is None
    assert body["due_date"] == "2999-01-01" and body["overdue"] is False
    got = requests.get(f"{base_url}/todos/{body['id']}", timeout=10)
    assert got.status_code == 200
    assert got.json() == body


def test_validation(base_url):
    assert new_todo(base_url, title="   ").status_code == 422
    assert new_todo(base_url, priority="urgent").status_code == 422
    missing = requests.get(f"{base_url}/todos/987654", timeout=10)
    assert missing.status_code == 404
    assert missing.json()["detail"] == "Todo 987654 not found"


def test_patch(base_url):
    todo_id = new_todo(base_url).json()["id"]
    r = requests.patch(f"{base_url}/todos/{todo_id}", timeout=10,
                       json={"title": " Renamed ", "priority": "low", "description": None})
    assert r.status_code == 200
    assert r.json()["title"] == "Renamed" and r.json()["priority"] == "low"
    assert r.json()["description"] == ""
    null = requests.patch(f"{base_url}/todos/{todo_id}", json={"title": None}, timeout=10)
    assert null.status_code == 422


def test_complete_and_reopen(base_url):
    todo_id = new_todo(base_url, due_date="2000-01-01").json()["id"]
    done = requests.post(f"{base_url}/todos/{todo_id}/complete", timeout=10)
    assert done.status_code == 200
    assert done.json()["done"] is True and done.json()["completed_at"] is not None
    assert done.json()["overdue"] is False
    again = requests.post(f"{base_url}/todos/{todo_id}/complete", timeout=10)
    assert again.status_code == 409
    reopened = requests.post(f"{base_url}/todos/{todo_id}/reopen", timeout=10)
    assert reopened.status_code == 200
    assert reopened.json()["done"] is False and reopened.json()["overdue"] is True
    assert requests.post(f"{base_url}/todos/{todo_id}/reopen", timeout=10).status_code == 409


def test_list_filters(base_url):
    marker = uuid.uuid4().hex[:8]
    low = new_todo(base_url, title=f"x {marker}", priority="low").json()
    high = new_todo(base_url, title=f"y {marker}").json()
    r = requests.get(f"{base_url}/todos", params={"q": marker.upper()}, timeout=10)
    assert r.status_code == 200
    assert [t["id"] for t in r.json()] == [low["id"], high["id"]]
    only = requests.get(f"{base_url}/todos", params={"q": marker, "priority": "low"}, timeout=10)
    assert only.status_code == 200
    assert [t["id"] for t in only.json()] == [low["id"]]


def test_stats_and_delete(base_url):
    before = requests.get(f"{base_url}/todos/stats", timeout=10).json()
    todo_id = new_todo(base_url).json()["id"]
    after = requests.get(f"{base_url}/todos/stats", timeout=10)
    assert after.status_code == 200
    assert after.json()["total"] == before["total"] + 1
    assert after.json()["open"] == before["open"] + 1
    assert after.json()["open_by_priority"]["high"] == before["open_by_priority"]["high"] + 1
    gone = requests.delete(f"{base_url}/todos/{todo_id}", timeout=10)
    assert gone.status_code == 204
    assert gone.content == b""
    assert requests.get(f"{base_url}/todos/{todo_id}", timeout=10).status_code == 404
'''

INVENTORY = '''import uuid

import requests


def new_item(base_url, **extra):
    payload = {"sku": f"sk-{uuid.uuid4().hex[:8]}", "name": " Bolt ", "category": "Parts",
               "quantity": 10, "unit_price": 2.5, "reorder_level": 3, **extra}
    return requests.post(f"{base_url}/items", json=payload, timeout=10)


def test_health(base_url):
    r = requests.get(f"{base_url}/health", timeout=10)
    assert r.status_code == 200
    assert r.json()["status"] == "ok"


def test_create_and_get(base_url):
    r = new_item(base_url)
    assert r.status_code == 201
    item = r.json()
    assert item["sku"] == item["sku"].upper() and item["name"] == "Bolt"
    assert item["quantity"] == 10 and item["unit_price"] == 2.5
    assert item["reorder_level"] == 3 and item["low_stock"] is False
    got = requests.get(f"{base_url}/items/{item['id']}", timeout=10)
    assert got.status_code == 200
    assert got.json() == item


def test_duplicate_and_validation(base_url):
    item = new_item(base_url).json()
    dup = new_item(base_url, sku=item["sku"].lower())
    assert dup.status_code == 409
    assert dup.json()["error"]["code"] == "duplicate_sku"
    bad = new_item(base_url, sku="!", name="", unit_price=-1)
    assert bad.status_code == 422
    assert set(bad.json()["error"]["fields"]) == {"sku", "name", "unit_price"}


def test_update(base_url):
    item = new_item(base_url).json()
    r = requests.put(f"{base_url}/items/{item['id']}", timeout=10,
                     json={"name": "Nut", "category": "Parts", "unit_price": 1.234})
    assert r.status_code == 200
    assert r.json()["name"] == "Nut" and r.json()["unit_price"] == 1.23
    assert r.json()["reorder_level"] == 0
    missing = requests.get(f"{base_url}/items/987654321", timeout=10)
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_stock_movements(base_url):
    item = new_item(base_url).json()
    url = f"{base_url}/items/{item['id']}/stock-movements"
    out = requests.post(url, json={"type": "out", "quantity": 8, "note": "n"}, timeout=10)
    assert out.status_code == 201
    assert out.json()["balance_after"] == 2 and out.json()["type"] == "out"
    too_much = requests.post(url, json={"type": "out", "quantity": 5}, timeout=10)
    assert too_much.status_code == 409
    assert too_much.json()["error"]["code"] == "insufficient_stock"
    current = requests.get(f"{base_url}/items/{item['id']}", timeout=10)
    assert current.json()["quantity"] == 2 and current.json()["low_stock"] is True
    history = requests.get(url, timeout=10)
    assert history.status_code == 200
    assert [m["quantity"] for m in history.json()["movements"]] == [8]


def test_delete_and_value(base_url):
    category = f"cat-{uuid.uuid4().hex[:6]}"
    item = new_item(base_url, category=category).json()
    value = requests.get(f"{base_url}/inventory-value", timeout=10)
    assert value.status_code == 200
    assert value.json()["by_category"][category] == 25.0
    blocked = requests.delete(f"{base_url}/items/{item['id']}", timeout=10)
    assert blocked.status_code == 409
    assert blocked.json()["error"]["code"] == "item_has_stock"
    requests.post(f"{base_url}/items/{item['id']}/stock-movements", timeout=10,
                  json={"type": "out", "quantity": 10})
    assert requests.delete(f"{base_url}/items/{item['id']}", timeout=10).status_code == 204
'''

SUITES = {"library-books": LIBRARY, "todo-tasks": TODO, "inventory-java": INVENTORY}


class _StatusOnly(ast.NodeTransformer):
    """Drop every assert that does not mention `.status_code` (the requests stay)."""

    def visit_Assert(self, node: ast.Assert) -> ast.stmt:
        return node if "status_code" in ast.unparse(node.test) else ast.Pass()


def status_only(source: str) -> str:
    return ast.unparse(_StatusOnly().visit(ast.parse(source)))


def _write_suite(folder: Path, module: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (folder / "test_suite.py").write_text(module, encoding="utf-8")
    return folder


def bench_task(task_dir: Path, cap: int, jobs: int | None, seed: int) -> None:
    body_src = SUITES[task_dir.name]
    with tempfile.TemporaryDirectory(prefix="bench-mutation-") as tmp:
        reports = {}
        for name, module in (("status-only", status_only(body_src)), ("body", body_src)):
            suite = _write_suite(Path(tmp) / name, module)
            started = time.monotonic()
            reports[name] = mutation_report(task_dir, suite, cap=cap, jobs=jobs, seed=seed)
            reports[name]["_seconds"] = time.monotonic() - started
    status, body = reports["status-only"], reports["body"]
    print(f"{task_dir.name}: {status['candidates']} candidate mutants, {status['mutants']} run "
          f"({status['valid']} valid, {status['stillborn']} stillborn, {status['invalid']} "
          f"invalid); tests passing on the oracle: {body['baseline']['passed']}/"
          f"{body['baseline']['tests']}")
    for name, rep in reports.items():
        print(f"  {name:<12} score {rep['score']:.2f}  killed {rep['killed']:>3}/{rep['valid']:<3}"
              f"  {rep['_seconds']:6.1f}s")
    killed = {n: {m["id"] for m in r["mutants_detail"] if m["status"] == "killed"}
              for n, r in reports.items()}
    only_body = [m for m in body["mutants_detail"] if m["id"] in killed["body"] - killed[
        "status-only"]]
    by_op = Counter(m["operator"] for m in only_body)
    print(f"  killed only by the body-checking suite: {len(only_body)} "
          f"({', '.join(f'{op} {n}' for op, n in sorted(by_op.items()))}); "
          f"killed only by status-only: {len(killed['status-only'] - killed['body'])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", default=list(SUITES))
    parser.add_argument("--data", type=Path, default=ROOT / "data" / "raw")
    parser.add_argument("--cap", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name in args.tasks:
        if name not in SUITES:
            print(f"{name}: no hand-written suite (have: {', '.join(SUITES)})")
            continue
        started = time.monotonic()
        bench_task(args.data / name, args.cap, args.jobs, args.seed)
        print(f"  task time {time.monotonic() - started:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
