"""Exit codes and one-line messages a script can trust (issue 12, items 2 and 3).

Each bad input from the issue gets a non-zero exit and one line naming the thing and the fix.
Most fail before any execution; the ones that build or kill a build are marked slow.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.execution import free_port
from pipeline.records import TestCase
from pipeline.stages.selection import select_tasks, static_check
from pipeline.stages.taskstate import current_runner, runner_alive, shown_state
from pipeline.store import Store
from pipeline.tasks import TaskError

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, **(env or {})}, timeout=600)


def error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [ln for ln in proc.stderr.splitlines() if ln.startswith("error:")]


def bad_tasks(raw: Path, task_factory) -> None:
    """A task with a broken task.toml and one whose README documents GET /health that the
    oracle routes neither in its source nor when it runs."""
    task_factory(raw, "broken", free_port(), toml='id = "broken"\nport = oops\n')
    readme = task_factory.README + "\n### GET /health\n\nReturns `{}` with status `200`.\n"
    unrouted = task_factory(raw, "unrouted", free_port(), readme=readme)
    (unrouted / "oracle" / "server.py").write_text(task_factory.ROUTER)


@pytest.mark.parametrize("name", ["does-not-exist", "../../etc"])
def test_build_refuses_a_task_it_does_not_have(tmp_path: Path, task_factory, name) -> None:
    task_factory(tmp_path / "data" / "raw", "pinger", free_port())
    proc = cli("build", "--data", str(tmp_path / "data"), "--task", name)
    assert proc.returncode == 1
    assert proc.stdout == ""  # refused before any work (no banner, no table)
    assert proc.stderr.count("\n") == 1
    assert name in proc.stderr and "repogenesis status" in proc.stderr
    assert not (tmp_path / "data" / ".repogenesis").exists()


def test_selection_names_every_bad_id(tmp_path: Path, task_factory) -> None:
    raw = tmp_path / "raw"
    task_factory(raw, "a", 8401)
    task_factory(raw, "b", 8402)
    assert [d.name for d in select_tasks(raw, ["b"])] == ["b"]
    assert [d.name for d in select_tasks(raw, None)] == ["a", "b"]
    with pytest.raises(TaskError) as err:
        select_tasks(raw, ["a", "../x", "zz"])
    assert "'../x'" in str(err.value) and "zz" in str(err.value) and "a:" not in str(err.value)


@pytest.mark.slow
def test_build_fails_a_broken_toml_and_an_unrouted_endpoint(tmp_path: Path,
                                                            task_factory) -> None:
    data = tmp_path / "data"
    bad_tasks(data / "raw", task_factory)
    proc = cli("build", "--data", str(data), env={"REPOGENESIS_MUTATION_CAP": "0"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (summary,) = error_lines(proc)
    assert "2 of 2" in summary and "broken, unrouted" in summary
    assert "broken/task.toml: not valid TOML" in proc.stdout
    assert re.search(r"unrouted: failed: .*GET /health is documented in README\.md but "
                     r"the running oracle does not route it", proc.stdout)
    status = json.loads(cli("status", "--json", "--data", str(data)).stdout)["tasks"]
    assert status["broken"]["state"] == status["unrouted"]["state"] == "failed"
    assert "GET /health" in status["unrouted"]["error"]


def test_every_bundled_task_passes_the_static_gate() -> None:
    for task_dir in sorted((ROOT / "data" / "raw").iterdir()):
        if task_dir.is_dir():
            static_check(task_dir)  # raises TaskError naming the problem


@pytest.mark.slow
def test_a_good_task_is_still_built_beside_bad_ones(tmp_path: Path, task_factory) -> None:
    data = tmp_path / "data"
    bad_tasks(data / "raw", task_factory)
    task_factory(data / "raw", "good", free_port())
    proc = cli("build", "--data", str(data), env={"REPOGENESIS_MUTATION_CAP": "0"})
    assert proc.returncode == 1
    (summary,) = error_lines(proc)
    assert "2 of 3" in summary and "good" not in summary
    assert (data / "train" / "good" / "task.json").is_file()
    assert cli("build", "--data", str(data), "--task", "good").returncode == 0


def test_evaluate_refuses_missing_candidates(tmp_path: Path) -> None:
    missing = str(tmp_path / "no" / "such" / "dir")
    for args in (["--task", "data/raw/file-vault", "--candidate", missing],
                 ["--task", "data/raw/file-vault", "--samples", str(tmp_path), missing],
                 ["--split", str(tmp_path), "--candidates", missing]):
        proc = cli("evaluate", *args)
        assert proc.returncode == 1, args
        assert proc.stdout == "" and proc.stderr.count("\n") == 1
        assert missing in proc.stderr


def test_usage_errors_exit_2() -> None:
    assert cli("build", "--no-such-option").returncode == 2
    assert cli("no-such-command").returncode == 2


# --- state that matches the folders --------------------------------------------------------


def dead_runner() -> str:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    host, _, _ = current_runner().split(":")
    return f"{host}:{proc.stdout.strip()}:1"  # start time 1: never a live process's


def test_runner_liveness() -> None:
    assert runner_alive(current_runner())
    assert not runner_alive(dead_runner())
    assert not runner_alive(None)
    assert shown_state("running", current_runner(), True) == "running"
    assert shown_state("running", dead_runner(), True) == "interrupted"
    assert shown_state("done", None, False) == "removed"


def seeded_store(data: Path, task_factory) -> None:
    """`here` (in data/raw, running in a dead build), `alive` (running in this process) and
    `gone` (removed from data/raw, with an Area Chair decision on one of its cases)."""
    task_factory(data / "raw", "here", 8501)
    task_factory(data / "raw", "alive", 8502)
    (data / ".repogenesis").mkdir(parents=True)
    with Store.open(data / ".repogenesis" / "state.db") as store:
        store.upsert_task("here", split="train", state="running", runner=dead_runner())
        store.upsert_task("alive", split="train", state="running", runner=current_runner())
        store.upsert_task("gone", split="train", state="done")
        store.save_case(TestCase(case_id="gone::test_a", task_id="gone", round=0,
                                 category="api_compliance", name="test_a",
                                 code="def test_a():\n    assert 1\n", endpoints=["GET /a"]))
        store.add_ac_decision("gone::test_a", 0, "reject", chair="alice", note="vague",
                              task_id="gone")


def test_status_shows_removed_and_interrupted(tmp_path: Path, task_factory) -> None:
    data = tmp_path / "data"
    seeded_store(data, task_factory)
    status = json.loads(cli("status", "--json", "--data", str(data)).stdout)["tasks"]
    assert status["here"]["state"] == "interrupted"
    assert status["alive"]["state"] == "running"  # its runner (this test process) lives
    assert status["gone"]["state"] == "removed" and "forget gone" in status["gone"]["error"]
    table = cli("status", "--data", str(data)).stdout
    assert re.search(r"here\s.*interrupted", table) and re.search(r"gone\s.*removed", table)
    assert "forget gone" in table and "chair queue --task gone" not in table


def test_forget_drops_state_and_keeps_chair_decisions(tmp_path: Path, task_factory) -> None:
    data = tmp_path / "data"
    seeded_store(data, task_factory)
    proc = cli("forget", "here", "--data", str(data))
    assert proc.returncode == 1 and "still in" in proc.stderr and proc.stderr.count("\n") == 1
    proc = cli("forget", "gone", "nope", "--data", str(data))
    assert proc.returncode == 1 and "nope" in proc.stderr
    with Store.open(data / ".repogenesis" / "state.db") as store:
        assert store.get_task("gone") is not None  # a typo forgets nothing
    assert cli("forget", "gone", "--data", str(data)).returncode == 0
    status = json.loads(cli("status", "--json", "--data", str(data)).stdout)["tasks"]
    assert set(status) == {"here", "alive"}
    with Store.open(data / ".repogenesis" / "state.db") as store:
        assert store.get_task("gone") is None and not store.latest_cases("gone")
        (decision,) = store.ac_decisions("gone::test_a")  # human work is kept
        assert decision.note == "vague" and decision.chair == "alice"


def wait_until_running(db: Path, task_id: str, build: subprocess.Popen) -> None:
    """Until `build` holds the task (polling the store, no fixed sleep)."""
    for _ in range(1200):
        if db.is_file():
            with Store.open(db) as store:
                row = store.get_task(task_id)
            if row is not None and row.state == "running" and \
                    f":{build.pid}:" in (row.runner or ""):
                return
        if build.poll() is not None:
            pytest.fail("the build ended before the task started")
        time.sleep(0.05)
    pytest.fail("the build never started the task")


@pytest.mark.slow
def test_a_killed_build_shows_interrupted_and_a_removed_task_is_not_published(
        tmp_path: Path, task_factory) -> None:
    data = tmp_path / "data"
    task_factory(data / "raw", "pinger", free_port())
    task_factory(data / "raw", "other", free_port())
    env = {"REPOGENESIS_MUTATION_CAP": "0"}
    assert cli("build", "--data", str(data), "--task", "other", env=env).returncode == 0
    assert (data / "train" / "other").is_dir()
    db = data / ".repogenesis" / "state.db"
    for sig, code in ((signal.SIGKILL, -signal.SIGKILL), (signal.SIGTERM, 128 + signal.SIGTERM)):
        build = subprocess.Popen([sys.executable, "-m", "pipeline", "build", "--data", str(data),
                                  "--task", "pinger"], cwd=ROOT, env={**os.environ, **env},
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_until_running(db, "pinger", build)
            build.send_signal(sig)
        except BaseException:
            build.kill()
            build.wait()
            raise
        assert build.wait(timeout=60) == code
        status = json.loads(cli("status", "--json", "--data", str(data)).stdout)["tasks"]
        assert status["pinger"]["state"] == "interrupted", sig
    # `other` leaves data/raw: status says removed and publish no longer writes it
    shutil.rmtree(data / "raw" / "other")
    assert cli("publish", "--data", str(data)).returncode == 0
    assert not (data / "train" / "other").exists()
    assert "other" not in (data / "train" / "index.jsonl").read_text()
    status = json.loads(cli("status", "--json", "--data", str(data)).stdout)["tasks"]
    assert status["other"]["state"] == "removed"


@pytest.mark.slow
def test_ctrl_c_during_a_parallel_build_leaves_every_running_task_interrupted(
        tmp_path: Path, task_factory) -> None:
    """With --jobs 2 Ctrl-C ends the services of both running tasks; neither is recorded as
    failed (a service error while stopping is the interruption), both show interrupted."""
    data = tmp_path / "data"
    for task_id in ("left", "right"):
        task_factory(data / "raw", task_id, free_port())
    db = data / ".repogenesis" / "state.db"
    build = subprocess.Popen([sys.executable, "-m", "pipeline", "build", "--data", str(data),
                              "--jobs", "2"], cwd=ROOT,
                             env={**os.environ, "REPOGENESIS_MUTATION_CAP": "0"},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_running(db, "left", build)
        wait_until_running(db, "right", build)
        build.send_signal(signal.SIGINT)
        assert build.wait(timeout=60) != 0
    finally:
        if build.poll() is None:
            build.kill()
            build.wait()
    status = json.loads(cli("status", "--json", "--data", str(data)).stdout)["tasks"]
    assert {t: status[t]["state"] for t in ("left", "right")} == \
        {"left": "interrupted", "right": "interrupted"}
