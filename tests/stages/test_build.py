"""The offline build on the bundled corpus: outputs, resume, kill-and-restart, isolation.

One uninterrupted build of the whole corpus is shared by the module (about a minute and a
half); the kill test builds the corpus again in another folder and compares bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.execution import ensure_task_env, free_port, run_pytest, start_service
from pipeline.stages.build import BuildOptions, build
from pipeline.store import Store
from pipeline.tasks import load_task

ROOT = Path(__file__).resolve().parents[2]
RAW = ROOT / "data" / "raw"
pytestmark = pytest.mark.slow


def cli(data: Path, *args: str, env: dict[str, str] | None = None,
        timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args, "--data", str(data)],
        capture_output=True, text=True, timeout=timeout, env=env,
    )


def _without_mutation(value):
    """Mutation kills are credited within one shared service run per mutant, so two
    independent builds can credit a kill differently (see the mutation package's notes);
    everything else must match to the byte."""
    if isinstance(value, dict):
        return {k: _without_mutation(v) for k, v in value.items()
                if k not in ("mutation", "mutation_score")}
    if isinstance(value, list):
        return [_without_mutation(v) for v in value]
    return value


def outputs_digest(data: Path, *, mutation: bool = True) -> dict[str, str]:
    out = {}
    for split in ("verified", "train"):
        for path in sorted((data / split).rglob("*")):
            if not path.is_file():
                continue
            raw = path.read_bytes()
            if not mutation and path.suffix in (".json", ".jsonl"):
                rows = [json.loads(line) for line in raw.decode().splitlines() if line.strip()] \
                    if path.suffix == ".jsonl" else [json.loads(raw)]
                raw = json.dumps(_without_mutation(rows), sort_keys=True).encode()
            out[str(path.relative_to(data))] = hashlib.sha256(raw).hexdigest()
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("build") / "data"
    shutil.copytree(RAW, data / "raw")
    proc = cli(data, "build")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "offline" in proc.stdout
    return data


def test_every_task_is_written_with_tests_in_three_categories(built: Path) -> None:
    tasks = sorted(p.name for p in RAW.iterdir() if (p / "task.toml").is_file())
    written = {}
    for split in ("verified", "train"):
        rows = [json.loads(line) for line in (built / split / "index.jsonl").read_text()
                .splitlines()]
        written.update({r["id"]: (split, r) for r in rows})
    assert sorted(written) == tasks
    for task_id, (split, _row) in written.items():
        task_json = json.loads((built / split / task_id / "task.json").read_text())
        assert task_json["offline"] is True
        assert task_json["difficulty"]["level"] in ("Easy", "Medium", "Hard")
        assert len([c for c, n in task_json["categories"].items() if n > 0]) >= 3, task_id
        assert not (built / split / task_id / "oracle").exists()
        for case in task_json["test_cases"]:
            assert case["scores"]["mean"] >= 7 or case["route"]["route"] == "area_chair"
            assert len(case["scores"]["reviews"]) == 3
        configured = load_task(RAW / task_id).config.split
        assert configured in ("auto", split)


def test_accepted_tests_pass_when_run_by_hand_against_their_oracles(built: Path) -> None:
    failures = []
    for task_json in sorted(built.glob("*/*/task.json")):
        out_dir = task_json.parent
        task = load_task(RAW / out_dir.name)
        env = ensure_task_env(task.oracle_dir, task.config.language)
        with start_service(task.oracle_dir, free_port(), env.bin if env else None) as svc:
            run = run_pytest(out_dir / "tests", svc.base_url, 300)
        expected = len(json.loads(task_json.read_text())["test_cases"])
        assert len(run.tests) == expected, out_dir.name
        failures += [f"{out_dir.name}: {t.nodeid}" for t in run.tests if t.outcome != "passed"]
    assert failures == []


def test_second_build_does_no_work(built: Path) -> None:
    before = outputs_digest(built)
    proc = cli(built, "build")
    assert proc.returncode == 0, proc.stderr
    assert "round" not in proc.stdout  # no task ran a round
    assert outputs_digest(built) == before


def test_status_and_reliability_json(built: Path) -> None:
    status = json.loads(cli(built, "status", "--json").stdout)
    assert set(status["tasks"]) == {p.name for p in RAW.iterdir() if p.is_dir()}
    for entry in status["tasks"].values():
        assert entry["accepted"] > 0
        assert set(entry) >= {"split", "accepted", "area_chair", "refining", "discarded"}
    rel = json.loads(cli(built, "reliability", "--json").stdout)
    assert set(rel["alpha"]) == {"total", "correctness", "coverage", "readability", "relevance"}
    assert rel["units"] > 50
    assert rel["alpha"]["total"] is None or -1 <= rel["alpha"]["total"] <= 1


def test_changing_one_readme_redoes_only_that_task(built: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(built, data)
    readme = data / "raw" / "todo-tasks" / "README.md"
    readme.write_text(readme.read_text() + "\nA note added later.\n")
    with Store.open(data / ".repogenesis" / "state.db") as store:
        results = build(BuildOptions(data_dir=data), store, lambda *_: None)
    worked = sorted(r.task_id for r in results if r.state != "reused")
    assert worked == ["todo-tasks"]


def test_killed_build_resumes_to_identical_outputs(built: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(RAW, data / "raw")
    cmd = [sys.executable, "-m", "pipeline", "build", "--data", str(data)]
    for delay in (4.0, 9.0, 17.0):
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        time.sleep(delay)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    final = cli(data, "build")
    assert final.returncode == 0, final.stdout[-2000:] + final.stderr[-2000:]
    assert outputs_digest(data, mutation=False) == outputs_digest(built, mutation=False)
    assert all("mutation" in json.loads(p.read_text()) for p in data.glob("*/*/task.json"))


def test_build_on_unseen_tasks_accepts_tests_that_pass(tmp_path: Path) -> None:
    """Tasks the generator was never tuned on (other README styles, other oracles)."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "tests" / "offline" / "fixtures", data / "raw")
    proc = cli(data, "build")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    built = sorted(data.glob("*/*/task.json"))
    assert len(built) == len(list((data / "raw").iterdir()))
    for task_json in built:
        task = load_task(data / "raw" / task_json.parent.name)
        cases = json.loads(task_json.read_text())["test_cases"]
        assert len(cases) >= 5, task.id
        env = ensure_task_env(task.oracle_dir, task.config.language)
        with start_service(task.oracle_dir, free_port(), env.bin if env else None) as svc:
            run = run_pytest(task_json.parent / "tests", svc.base_url, 300)
        assert len(run.tests) == len(cases)
        assert [t.nodeid for t in run.tests if t.outcome != "passed"] == []
