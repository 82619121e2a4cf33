"""The committed outputs and their check: `publish --check` names what a publish would change
and writes nothing; a README change touches only that task's files; a rebuild with nothing
changed rewrites the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.execution import free_port
from pipeline.reports.release import publish_data
from pipeline.shipped import Difference, compare_files, shipped_files, stale_lines
from pipeline.stages.build import BuildOptions, build
from pipeline.store import Store


def test_compare_files_names_stale_missing_and_extra_in_path_order() -> None:
    expected = {"verified/a/task.json": b"1", "verified/index.jsonl": b"x", "train/b": b"2"}
    actual = {"verified/a/task.json": b"1", "verified/index.jsonl": b"y", "train/c": b"3"}
    assert compare_files(expected, actual) == [
        Difference("train/b", "missing"), Difference("train/c", "extra"),
        Difference("verified/index.jsonl", "stale")]
    assert compare_files(expected, dict(expected)) == []


def test_shipped_files_skip_what_running_a_suite_in_place_leaves(tmp_path: Path) -> None:
    (tmp_path / "train" / "t" / "tests" / "__pycache__").mkdir(parents=True)
    (tmp_path / "train" / "t" / "tests" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (tmp_path / "train" / "t" / "tests" / "test_a.py").write_text("x = 1\n")
    (tmp_path / "decisions.jsonl").write_text("")
    (tmp_path / "raw" / "t").mkdir(parents=True)
    (tmp_path / "raw" / "t" / "task.toml").write_text("")
    assert shipped_files(tmp_path) == {"train/t/tests/test_a.py": b"x = 1\n",
                                       "decisions.jsonl": b""}


def test_stale_lines_name_each_file_and_the_refresh_command() -> None:
    lines = stale_lines([Difference("train/b/task.json", "stale")], "`./dev.sh build`")
    assert lines[0] == "data/train/b/task.json: differs from what the store writes"
    assert "`./dev.sh build`" in lines[-1]
    assert "data/verified data/train data/decisions.jsonl" in lines[-1]


def _build(data: Path) -> None:
    with Store.open(data / ".repogenesis" / "state.db") as store:
        results = build(BuildOptions(data_dir=data, mutation_cap=0), store, lambda *_: None)
        assert [r.state for r in results] in (["done"] * 2, ["reused"] * 2)
        publish_data(data, store)


@pytest.mark.slow
def test_a_readme_change_shows_only_in_that_tasks_files(tmp_path: Path, task_factory,
                                                       monkeypatch) -> None:
    data = tmp_path / "data"
    for task_id in ("alpha", "beta"):
        task_factory(data / "raw", task_id, free_port())
    _build(data)
    before = shipped_files(data)
    assert {"train/alpha/task.json", "train/beta/task.json", "train/index.jsonl",
            "train/DATASET.md", "verified/index.jsonl", "decisions.jsonl"} <= set(before)
    assert before["decisions.jsonl"] == b""  # no Area Chair decision yet: an empty file
    assert str(tmp_path).encode() not in b"".join(before.values())  # no absolute path

    _build(data)  # nothing changed: the same bytes
    assert shipped_files(data) == before

    readme = data / "raw" / "beta" / "README.md"
    readme.write_text(readme.read_text() + "\nThe service keeps nothing between restarts.\n")
    with Store.open(data / ".repogenesis" / "state.db") as store:
        build(BuildOptions(data_dir=data, mutation_cap=0), store, lambda *_: None)
    runner = CliRunner()
    check = runner.invoke(app, ["publish", "--check", "--data", str(data)])
    assert check.exit_code == 1
    assert f"{data}/train/beta/README.md: differs from what the store writes" in check.output
    assert f"`repogenesis publish --data {data}`" in check.output
    assert shipped_files(data) == before  # the check wrote nothing
    monkeypatch.setenv("REPOGENESIS_MUTATION_CAP", "0")
    check = runner.invoke(app, ["build", "--check", "--data", str(data)])
    assert check.exit_code == 1
    assert f"{data}/train/beta/README.md: differs from what the store writes" in check.output
    assert f"`repogenesis build --data {data}`" in check.output
    assert shipped_files(data) == before

    assert runner.invoke(app, ["publish", "--data", str(data)]).exit_code == 0
    after = shipped_files(data)
    changed = [d.path for d in compare_files(before, after)]
    assert "train/beta/README.md" in changed
    assert all(path.startswith("train/beta/") for path in changed), changed
    assert json.loads(after["train/beta/task.json"])["id"] == "beta"
    check = runner.invoke(app, ["publish", "--check", "--data", str(data)])
    assert check.exit_code == 0, check.output
    assert "up to date" in check.output
