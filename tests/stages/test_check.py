"""`check` on a folder of good and malformed tasks: one clear line each, the rest still checked."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.execution import free_port
from pipeline.stages.check import check_task


@pytest.fixture()
def cache(tmp_path: Path) -> Path:
    return Path(os.environ.get("REPOGENESIS_TEST_CACHE", tmp_path / "cache"))


@pytest.mark.slow
def test_check_reports_each_malformed_task_and_keeps_going(tmp_path: Path, cache: Path,
                                                          task_factory) -> None:
    make_task = task_factory
    raw = tmp_path / "data" / "raw"
    make_task(raw, "good", free_port())
    make_task(raw, "no-readme", free_port(), readme=None)
    make_task(raw, "no-endpoints", free_port(), readme="# Service\n\nIt does things.\n")
    make_task(raw, "bad-toml", free_port(), toml='id = "bad-toml"\nlanguage = "cobol"\n')
    make_task(raw, "crashes", free_port(), server="raise SystemExit('boom: no config')\n")
    busy_port = free_port()
    make_task(raw, "port-busy", busy_port)
    (raw / "bad id").mkdir()
    holder = socket.socket()
    holder.bind(("127.0.0.1", busy_port))
    holder.listen()
    try:
        env = {**os.environ, "REPOGENESIS_CACHE_DIR": str(cache),
               "REPOGENESIS_STARTUP_TIMEOUT_S": "20"}
        proc = subprocess.run(
            [sys.executable, "-m", "pipeline", "check", "--data", str(tmp_path / "data")],
            capture_output=True, text=True, env=env, timeout=300,
        )
    finally:
        holder.close()
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    lines = out.splitlines()

    def line_for(name: str) -> str:
        found = [ln for ln in lines if ln.startswith("error:") and name in ln]
        assert len(found) >= 1, f"no error line for {name}:\n{out}"
        return found[0]

    assert "README.md: missing" in line_for("no-readme")
    assert "no endpoints found" in line_for("no-endpoints")
    bad = line_for("bad-toml")
    assert "task.toml" in bad and "language" in bad and "port" in bad
    assert "boom: no config" in line_for("crashes")
    assert f"port {busy_port} is in use" in line_for("port-busy")
    assert "not a plain name" in line_for("bad id")
    assert any(ln.startswith("ok ") and "good" in ln for ln in lines), out
    assert "1/7 tasks ok" in out


@pytest.mark.slow
def test_check_flags_documented_endpoint_the_oracle_lacks(tmp_path: Path, cache: Path,
                                                         task_factory) -> None:
    make_task = task_factory
    readme = make_task.README + "\n### GET /status\n\nReturns the status.\n"
    task = make_task(tmp_path, "missing-route", free_port(), readme=readme)
    result = check_task(task, cache_dir=cache, startup_timeout_s=20)
    errors = [f.message for f in result.findings if f.level == "error"]
    assert any("GET /status" in m and "does not route" in m for m in errors), result.findings
    # /items/{id} answers 404 with its own body: it is routed, not flagged as an error.
    assert not any("/items/{id}" in m for m in errors)


def test_check_static_only_reports_template_left(tmp_path: Path) -> None:
    from pipeline.scaffold import new_task

    task = new_task(tmp_path, "fresh", "python", "flask", "x")
    result = check_task(task, run_oracle=False)
    messages = [f.line() for f in result.findings]
    assert not result.ok
    assert any("README.md" in m and "template placeholder" in m for m in messages)
    assert any("start.sh" in m and "template placeholder" in m for m in messages)


def test_check_json_output_is_machine_readable(tmp_path: Path, task_factory) -> None:
    raw = tmp_path / "raw"
    task_factory(raw, "one", 9999)
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline", "check", "--no-run", "--json", "--data", str(tmp_path)],
        capture_output=True, text=True,
    )
    data = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stderr
    assert data[0]["ok"] is True and data[0]["endpoints"] == 2
