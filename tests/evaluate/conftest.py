"""Fixtures for the evaluate tests: the committed output tasks of two bundled tasks.

The built tasks get free ports (instead of the bundled 81xx ones) so that these tests never
collide with a service another run keeps on a task's usual port.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from pipeline.execution import free_port, live_groups, scratch_prefix

ROOT = Path(__file__).resolve().parents[2]
RAW = ROOT / "data" / "raw"
TASKS = {"library-books": "verified", "todo-tasks": "train"}


@pytest.fixture(scope="session")
def eval_cache(tmp_path_factory) -> Path:
    """Environments for oracles and candidates, apart from the user's real cache."""
    return tmp_path_factory.mktemp("evaluate-cache")


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict[str, Path]:
    """{task id: output task folder}: the committed outputs, as a user evaluates against them
    before any build (tests/stages/test_build.py fails when they differ from what a build of
    data/raw writes, so a second build here would only repeat it)."""
    data = tmp_path_factory.mktemp("evaluate-data")
    out = {}
    for task_id, split in TASKS.items():
        task_dir = data / split / task_id
        shutil.copytree(ROOT / "data" / split / task_id, task_dir)
        meta = json.loads((task_dir / "task.json").read_text(encoding="utf-8"))
        meta["port"] = free_port()
        (task_dir / "task.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        out[task_id] = task_dir
    return out


@pytest.fixture
def oracle_copy(tmp_path):
    """`oracle_copy(task_id, name)`: a fresh copy of the task's oracle as a candidate folder."""

    def make(task_id: str, name: str = "candidate") -> Path:
        dst = tmp_path / name
        shutil.copytree(RAW / task_id / "oracle", dst)
        return dst

    return make


def leftovers() -> list[int]:
    """Pids of processes still running inside an evaluation workspace this test process made
    (its prefix names this pid: a suite run on several workers evaluates in all of them)."""
    mine = scratch_prefix("eval")
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if mine in cwd or mine in cmdline:
            found.append(int(entry))
    return found


@pytest.fixture
def no_leftovers():
    """Fails the test if a process or a port outlives the evaluation."""
    yield
    assert not live_groups()
    assert not leftovers()
