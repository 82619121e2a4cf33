"""`evaluate_candidate` / `evaluate_samples` / `evaluate_split` on tasks built from data/raw."""

from __future__ import annotations

import ast
import json
import shutil
import socket
import time
from pathlib import Path

import pytest

from pipeline.evaluate import (
    EvaluateError,
    PortBusyError,
    evaluate_candidate,
    evaluate_samples,
    evaluate_split,
    static_coverage,
)
from pipeline.evaluate import run as run_module
from pipeline.evaluate.run import load_task
from pipeline.execution import port_in_use

pytestmark = pytest.mark.slow
ROUTE_VERBS = {"get", "post", "put", "patch", "delete", "route"}


@pytest.fixture
def opts(eval_cache):
    return {"startup_timeout_s": 60.0, "test_timeout_s": 300.0, "cache_dir": eval_cache}


def _routed(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
        and d.func.attr in ROUTE_VERBS for d in node.decorator_list)


def drop_half_routes(source: Path) -> int:
    """Delete every second route handler (decorated function) of a Flask/FastAPI module."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    handlers = [n for n in tree.body if _routed(n)]
    dropped = handlers[1::2]
    tree.body = [n for n in tree.body if n not in dropped]
    source.write_text(ast.unparse(tree) + "\n", encoding="utf-8")
    return len(dropped)


def write_start(folder: Path, body: str, rel: str = "start.sh", executable: bool = True) -> None:
    script = folder / rel
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text("#!/usr/bin/env bash\n" + body + "\n", encoding="utf-8")
    if executable:
        script.chmod(0o755)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("task_id", ["library-books", "todo-tasks"])
def test_oracle_scores_full_marks(built, oracle_copy, opts, no_leftovers, task_id):
    task_dir = built[task_id]
    candidate = oracle_copy(task_id)
    before = snapshot(candidate)
    result = evaluate_candidate(task_dir, candidate, **opts)
    assert result["dsr"] is True, result["dsr_reason"]
    assert result["pass_at_1"] == 1
    assert result["test_pass_rate"] == 1.0
    assert result["api_coverage"] == 1.0 and result["missing_endpoints"] == []
    cases = json.loads((task_dir / "task.json").read_text())["test_cases"]
    assert result["tests_total"] == len(cases) > 0
    assert {t["id"] for t in result["tests"]} == {c["id"] for c in cases}
    assert all(t["outcome"] == "passed" for t in result["tests"])
    assert snapshot(candidate) == before  # the service ran in a copy
    assert not port_in_use(result["port"])
    json.dumps(result)  # JSON as it stands


def test_empty_folder_fails_at_once(built, tmp_path, opts, no_leftovers):
    empty = tmp_path / "empty"
    empty.mkdir()
    started = time.monotonic()
    result = evaluate_candidate(built["library-books"], empty, **opts)
    assert time.monotonic() - started < 5
    assert result["dsr"] is False and "no start script" in result["dsr_reason"]
    assert result["pass_at_1"] == 0 and result["test_pass_rate"] == 0.0
    assert result["api_coverage"] == 0.0 and result["routes_found"] == 0
    assert result["tests"] and {t["outcome"] for t in result["tests"]} == {"not_run"}


def test_missing_candidate_folder(built, tmp_path, opts):
    result = evaluate_candidate(built["library-books"], tmp_path / "nope", **opts)
    assert result["dsr"] is False and "not found" in result["dsr_reason"]
    assert result["api_coverage"] == 0.0


def test_start_script_that_exits_at_once(built, oracle_copy, opts, no_leftovers):
    candidate = oracle_copy("library-books")
    write_start(candidate, "echo 'config missing' >&2\nexit 3")
    started = time.monotonic()
    result = evaluate_candidate(built["library-books"], candidate, **opts)
    assert time.monotonic() - started < 15
    assert result["dsr"] is False
    assert result["dsr_reason"].startswith("exited:") and "code 3" in result["dsr_reason"]
    assert "config missing" in "\n".join(result["service_log_tail"])
    assert result["pass_at_1"] == 0 and result["test_pass_rate"] == 0.0
    assert result["api_coverage"] == 1.0  # the routes are in the source all the same
    assert {t["outcome"] for t in result["tests"]} == {"not_run"}


@pytest.mark.parametrize("body", [
    "exec sleep 60",  # alive, listens nowhere
    # listens on the port but never answers HTTP
    "exec python3 -c \"import os, socket, time\n"
    "s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
    "s.bind(('0.0.0.0', int(os.environ['PORT']))); s.listen(8); held = []\n"
    "while True: held.append(s.accept())\"",
], ids=["alive-only", "tcp-not-http"])
def test_a_process_that_does_not_answer_http_is_not_deployed(built, tmp_path, opts,
                                                              no_leftovers, body):
    candidate = tmp_path / "cand"
    write_start(candidate, body)
    started = time.monotonic()
    result = evaluate_candidate(built["library-books"], candidate,
                                **{**opts, "startup_timeout_s": 2.0})
    assert time.monotonic() - started < 15
    assert result["dsr"] is False and result["dsr_reason"].startswith("timeout:")
    assert not port_in_use(result["port"])


def test_script_in_scripts_folder_without_exec_bit(built, oracle_copy, opts, no_leftovers):
    candidate = oracle_copy("library-books")
    (candidate / "start.sh").unlink()
    write_start(candidate, "exec python3 app.py", rel="scripts/start.sh", executable=False)
    result = evaluate_candidate(built["library-books"], candidate, **opts)
    assert result["start_script"] == "scripts/start.sh"
    assert result["dsr"] is True and result["pass_at_1"] == 1


@pytest.mark.parametrize(("task_id", "source", "expected"), [
    ("library-books", "app.py", 5 / 9),
    ("todo-tasks", "main.py", 4 / 8),
])
def test_half_the_endpoints_gives_half_coverage(built, oracle_copy, task_id, source, expected):
    candidate = oracle_copy(task_id)
    dropped = drop_half_routes(candidate / source)
    cov = static_coverage(load_task(built[task_id]), candidate)
    assert len(cov["missing_endpoints"]) == dropped
    assert cov["api_coverage"] == pytest.approx(expected, abs=1e-4)
    assert abs(cov["api_coverage"] - 0.5) <= 0.1


def test_half_the_endpoints_deployed(built, oracle_copy, opts, no_leftovers):
    candidate = oracle_copy("library-books")
    drop_half_routes(candidate / "app.py")
    result = evaluate_candidate(built["library-books"], candidate, **opts)
    assert result["dsr"] is True
    assert result["api_coverage"] == pytest.approx(5 / 9, abs=1e-4)
    assert result["pass_at_1"] == 0
    assert 0 < result["test_pass_rate"] < 1
    assert result["tests_passed"] < result["tests_total"]


def test_pass_at_k_over_three_samples(built, oracle_copy, opts, no_leftovers):
    good1, good2 = oracle_copy("todo-tasks", "s1"), oracle_copy("todo-tasks", "s2")
    broken = oracle_copy("todo-tasks", "s3")
    write_start(broken, "exit 1")
    out = evaluate_samples(built["todo-tasks"], [good1, broken, good2], **opts)
    assert (out["n"], out["c"]) == (3, 2)
    # 1 - C(1,k)/C(3,k): k=1 → 2/3, k=2 → 1 - 0/3, k=3 → 1
    assert out["pass_at_k"] == {"1": 0.6667, "2": 1.0, "3": 1.0}
    assert [s["pass_at_1"] for s in out["samples"]] == [1, 0, 1]
    assert out["means"]["dsr"] == 0.6667
    with pytest.raises(EvaluateError):
        evaluate_samples(built["todo-tasks"], [], **opts)


def test_busy_port_fails_clearly(built, oracle_copy, opts, monkeypatch, no_leftovers):
    monkeypatch.setattr(run_module, "PORT_FREE_WAIT_S", 0.3)
    port = load_task(built["library-books"]).port
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", port))
        holder.listen(1)
        with pytest.raises(PortBusyError, match=f"port {port}"):
            evaluate_candidate(built["library-books"], oracle_copy("library-books"), **opts)


def test_bad_task_folder(tmp_path, opts):
    with pytest.raises(EvaluateError, match="task.json"):
        evaluate_candidate(tmp_path, tmp_path, **opts)


@pytest.mark.parametrize("jobs", [1, 2])
def test_split_summary(built, tmp_path, oracle_copy, opts, no_leftovers, jobs):
    split = tmp_path / "verified"
    for task_id, task_dir in built.items():
        shutil.copytree(task_dir, split / task_id)
    (split / "index.jsonl").write_text("{}\n")  # not a task folder: ignored
    candidates = tmp_path / "candidates"
    shutil.copytree(oracle_copy("library-books"), candidates / "library-books")
    seen = []
    out = evaluate_split(split, candidates, jobs=jobs,
                         progress=lambda tid, row: seen.append(tid), **opts)
    assert sorted(seen) == ["library-books", "todo-tasks"]
    assert out["schema"] == "repogenesis-evaluate-split/1" and out["split"] == "verified"
    assert (out["n_tasks"], out["n_candidates"]) == (2, 1)
    assert out["metrics"] == {"dsr": 0.5, "pass_at_1": 0.5, "test_pass_rate": 0.5,
                              "api_coverage": 0.5}
    assert out["by_language"] == {"python": {"n_tasks": 2, **out["metrics"]}}
    assert sum(g["n_tasks"] for g in out["by_difficulty"].values()) == 2
    rows = {r["id"]: r for r in out["tasks"]}
    assert rows["library-books"]["dsr"] is True and rows["library-books"]["not_passed"] == []
    assert rows["todo-tasks"]["candidate"] is False and rows["todo-tasks"]["dsr"] is False
    assert rows["todo-tasks"]["not_passed"] and rows["todo-tasks"]["api_coverage"] == 0.0
    assert out["tests"]["total"] == sum(r["tests_total"] for r in out["tasks"])
    json.dumps(out)
    with pytest.raises(EvaluateError, match="candidates folder"):
        evaluate_split(split, tmp_path / "none", **opts)
    assert [r["id"] for r in out["tasks"]] == ["library-books", "todo-tasks"]
