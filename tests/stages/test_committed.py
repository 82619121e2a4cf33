"""A publish from a store that has not built every task keeps the others' committed outputs:
a fresh clone, a lost state.db or `build --task NEW` never deletes the benchmark (issue 31)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.execution import free_port
from pipeline.reports.release import publish_data
from pipeline.shipped import shipped_files
from pipeline.stages.build import BuildOptions, build
from pipeline.stages.committed import CommittedError, index_row
from pipeline.stages.split import SPLITS
from pipeline.store import Store

REPO_DATA = Path(__file__).resolve().parents[2] / "data"


def _copy_committed(target: Path) -> Path:
    """The data folder as a fresh clone has it: raw tasks and committed outputs, no state."""
    data = target / "data"
    shutil.copytree(REPO_DATA, data, ignore=shutil.ignore_patterns(".repogenesis", ".cache",
                                                                  "__pycache__"))
    return data


def _db(data: Path) -> Path:
    return data / ".repogenesis" / "state.db"


def test_index_rows_read_from_task_json_are_the_committed_lines() -> None:
    """One rule writes a task's index line, built or carried: the committed lines are what
    `index_row` makes of the committed task.json."""
    seen = 0
    for split in SPLITS:
        for line in (REPO_DATA / split / "index.jsonl").read_text().splitlines():
            committed = json.loads(line)
            task_json = json.loads((REPO_DATA / split / committed["id"] / "task.json")
                                   .read_text())
            assert index_row(task_json, split) == committed
            seen += 1
    assert seen >= 10


def test_publishing_from_an_empty_store_changes_no_committed_file(tmp_path: Path) -> None:
    data = _copy_committed(tmp_path)
    before = shipped_files(data)
    with Store.open(_db(data)) as store:
        written = publish_data(data, store)
    assert shipped_files(data) == before  # folders, indexes, cards and decisions alike
    assert sum(written.values()) == sum(
        len((data / s / "index.jsonl").read_text().splitlines()) for s in SPLITS)


def test_a_task_removed_from_raw_is_the_one_that_disappears(tmp_path: Path) -> None:
    data = _copy_committed(tmp_path)
    before = shipped_files(data)
    [gone] = [line for line in (data / "train" / "index.jsonl").read_text().splitlines()][:1]
    gone_id = json.loads(gone)["id"]
    shutil.rmtree(data / "raw" / gone_id)
    with Store.open(_db(data)) as store:
        publish_data(data, store)
    after = shipped_files(data)
    assert not (data / "train" / gone_id).exists()
    assert gone_id not in (data / "train" / "index.jsonl").read_text()
    assert f"| {gone_id} |" not in (data / "train" / "DATASET.md").read_text()
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert changed == {p for p in before if p.startswith(f"train/{gone_id}/")} | {
        "train/index.jsonl", "train/DATASET.md"}


def test_a_broken_committed_task_json_is_a_one_line_error(tmp_path: Path) -> None:
    data = _copy_committed(tmp_path)
    [first] = sorted((data / "verified").glob("*/task.json"))[:1]
    first.write_text("{not json")
    with Store.open(_db(data)) as store, pytest.raises(CommittedError, match="git checkout"):
        publish_data(data, store)
    assert (data / "verified" / "index.jsonl").read_text() == \
        (REPO_DATA / "verified" / "index.jsonl").read_text()  # nothing rewritten


def test_status_and_check_in_a_fresh_clone(tmp_path: Path) -> None:
    data = _copy_committed(tmp_path)
    runner = CliRunner()
    status = runner.invoke(app, ["status", "--data", str(data)])
    assert status.exit_code == 0, status.output
    assert "were not built here" in status.output and "./dev.sh build" in status.output
    shown = json.loads(runner.invoke(app, ["status", "--json", "--data", str(data)]).output)
    committed = {json.loads(line)["id"] for s in SPLITS
                 for line in (data / s / "index.jsonl").read_text().splitlines()}
    assert {t for t, e in shown["tasks"].items() if e["state"] == "not built"} == committed
    entry = shown["tasks"][sorted(committed)[0]]
    assert entry["accepted"] > 0 and entry["split"] in SPLITS
    assert not _db(data).exists()  # status wrote no state

    with Store.open(_db(data)):
        pass
    check = runner.invoke(app, ["publish", "--check", "--data", str(data)])
    assert check.exit_code == 1
    assert f"not built here: {len(committed)} task(s)" in check.output
    assert "run `./dev.sh build` to check them" in check.output
    one = sorted(committed)[0]
    narrowed = runner.invoke(app, ["publish", "--check", "--task", one, "--data", str(data)])
    assert narrowed.exit_code == 1 and "not built here: 1 task(s)" in narrowed.output
    unknown = runner.invoke(app, ["publish", "--check", "--task", "nope", "--data", str(data)])
    assert unknown.exit_code == 1 and "nope" in unknown.output


def _build(data: Path, only: list[str] | None = None) -> None:
    with Store.open(_db(data)) as store:
        results = build(BuildOptions(data_dir=data, mutation_cap=0, only=only), store,
                        lambda *_: None)
        assert {r.state for r in results} <= {"done", "reused"}
        publish_data(data, store)


def _index_ids(data: Path, split: str) -> list[str]:
    return [json.loads(line)["id"]
            for line in (data / split / "index.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_a_new_task_built_alone_keeps_every_other_committed_file(tmp_path: Path,
                                                                 task_factory) -> None:
    built = tmp_path / "built" / "data"
    for task_id in ("alpha", "beta"):
        task_factory(built / "raw", task_id, free_port())
    _build(built)
    committed = shipped_files(built)
    assert _index_ids(built, "train") == ["alpha", "beta"]

    # a fresh clone of that: committed outputs, no state; a contributor adds gamma
    clone = tmp_path / "clone" / "data"
    shutil.copytree(built, clone, ignore=shutil.ignore_patterns(".repogenesis"))
    task_factory(clone / "raw", "gamma", free_port())
    runner = CliRunner()
    for attempt in ("fresh clone", "state.db deleted"):
        _build(clone, only=["gamma"])
        after = shipped_files(clone)
        others = {p: b for p, b in committed.items() if p.startswith(("train/alpha/",
                                                                       "train/beta/"))}
        assert others and all(after.get(p) == b for p, b in others.items()), attempt
        assert _index_ids(clone, "train") == ["alpha", "beta", "gamma"], attempt
        card = (clone / "train" / "DATASET.md").read_text()
        assert all(f"| {t} |" in card for t in ("alpha", "beta", "gamma")), attempt
        assert "3 tasks" in card and "(alpha, beta) were not built in it" in card
        assert (clone / "train" / "gamma" / "task.json").is_file()
        ok = runner.invoke(app, ["publish", "--check", "--task", "gamma", "--data", str(clone)])
        assert ok.exit_code == 0, ok.output
        whole = runner.invoke(app, ["publish", "--check", "--data", str(clone)])
        assert whole.exit_code == 1 and "not built here: 2 task(s) (alpha, beta)" in whole.output
        shutil.rmtree(clone / ".repogenesis")

    # with every task built, removing one from data/raw removes its outputs on publish
    _build(clone)
    shutil.rmtree(clone / "raw" / "beta")
    with Store.open(_db(clone)) as store:
        publish_data(clone, store)
    assert not (clone / "train" / "beta").exists()
    assert _index_ids(clone, "train") == ["alpha", "gamma"]
    assert shipped_files(clone)["train/alpha/task.json"] == committed["train/alpha/task.json"]
