"""A documented endpoint static analysis does not find is asked of the running oracle: it
fails a task only when the service does not route it either (check and build alike)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.execution import free_port
from pipeline.stages.check import check_task
from pipeline.stages.selection import static_check

ROOT = Path(__file__).resolve().parents[2]

README = textwrap.dedent("""\
    # Pinger

    ### GET /ping

    Returns `{"pong": true}` with status `200`.

    ### GET /status

    Returns `{"ok": true}` with status `200`.
    """)
PHANTOM = "\n### GET /health\n\nReturns `{\"up\": true}` with status `200`.\n"


def routed_task(root: Path, task_id: str, task_factory, readme: str = README) -> Path:
    task = task_factory(root, task_id, free_port(), readme=readme)
    (task / "oracle" / "server.py").write_text(task_factory.ROUTER)
    return task


def messages(result, level: str) -> list[str]:
    return [f.message for f in result.findings if f.level == level]


def test_a_static_miss_is_a_warning_the_build_probes(tmp_path: Path, task_factory) -> None:
    task = routed_task(tmp_path, "pinger", task_factory, README + PHANTOM)
    result = check_task(task, run_oracle=False)
    assert not messages(result, "error"), result.findings
    assert [e.path for e in result.unconfirmed] == ["/status", "/health"]
    assert any("GET /status" in m and "running service is asked" in m
               for m in messages(result, "warning"))
    assert [e.path for e in static_check(task)] == ["/status", "/health"]


@pytest.mark.slow
def test_check_errs_only_on_what_the_running_oracle_does_not_route(
        tmp_path: Path, task_factory) -> None:
    task = routed_task(tmp_path, "pinger", task_factory, README + PHANTOM)
    result = check_task(task, startup_timeout_s=20)
    errors = messages(result, "error")
    assert len(errors) == 1 and "GET /health" in errors[0] and "does not route" in errors[0]


@pytest.mark.slow
def test_the_build_publishes_a_task_static_analysis_misread_and_fails_a_phantom_endpoint(
        tmp_path: Path, task_factory) -> None:
    data = tmp_path / "data"
    routed_task(data / "raw", "pinger", task_factory)
    routed_task(data / "raw", "phantom", task_factory, README + PHANTOM)
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline", "build", "--data", str(data)], cwd=ROOT,
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "REPOGENESIS_MUTATION_CAP": "0"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "phantom: failed: " in proc.stdout and "GET /health" in proc.stdout
    assert "GET /status" not in proc.stdout.split("phantom: failed: ")[1].splitlines()[0]
    task_json = json.loads((data / "train" / "pinger" / "task.json").read_text())
    assert "/status" in json.dumps(task_json)
    assert not (data / "train" / "phantom").exists()
