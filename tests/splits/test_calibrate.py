"""calibrate: a fixed stratified sample, alpha with its interval, history across rubrics."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tiny_store import build_tiny_data

from pipeline.reports.calibrate import HISTORY_NAME, calibrate, sample_cases, stratified_sample
from pipeline.rubric import DEFAULT_RUBRIC_PATH, from_text, load_rubric

ROOT = Path(__file__).resolve().parents[2]


def test_stratified_sample_is_proportional_by_largest_remainder() -> None:
    strata = {("a", "x"): [f"a{i}" for i in range(8)], ("b", "x"): [f"b{i}" for i in range(4)],
              ("c", "x"): ["c0", "c1"]}
    # quotas 2.86, 1.43, 0.71 -> floors 2, 1, 0; the two largest remainders (a, c) get one more
    picked = stratified_sample(strata, 5, seed=1)
    assert [sum(k.startswith(p) for k in picked) for p in "abc"] == [3, 1, 1]
    assert picked == stratified_sample(strata, 5, seed=1)
    assert any(stratified_sample(strata, 5, seed=s) != picked for s in range(2, 6))
    assert len(stratified_sample(strata, 99, seed=1)) == 14  # all of them


def test_calibrate_keeps_a_trajectory_over_rubric_versions(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = build_tiny_data(data)
    sampled = sample_cases(store, 9, seed=3)
    assert len(sampled) == 9 and sampled == sample_cases(store, 9, seed=3)
    splits = {store.get_task(c.task_id).split for c in sampled}
    assert splits == {"verified", "train"}  # both strata drawn from
    first = calibrate(store, data, load_rubric(), sample=9, seed=3, resamples=100)
    text = DEFAULT_RUBRIC_PATH.read_text(encoding="utf-8")
    revised = from_text(text.replace("version: 1", "version: 2"))
    second = calibrate(store, data, revised, sample=9, seed=3, resamples=100)
    assert first["units"] == second["units"] == 9
    assert first["cases"] == second["cases"]  # the same fixed sample for both versions
    assert first["alpha"] is None or first["ci95"] is None or \
        first["ci95"][0] <= first["alpha"] <= first["ci95"][1]
    lines = [json.loads(x) for x in (data / HISTORY_NAME).read_text().splitlines()]
    assert [e["rubric_version"] for e in lines] == [1, 2]
    again = calibrate(store, data, load_rubric(), sample=9, seed=3, resamples=100)
    assert again == first  # deterministic, and replaced in place
    lines = [json.loads(x) for x in (data / HISTORY_NAME).read_text().splitlines()]
    assert [e["rubric_version"] for e in lines] == [1, 2]
    store.close()


def test_calibrate_cli_names_a_bad_rubric(tmp_path: Path) -> None:
    data = tmp_path / "data"
    build_tiny_data(data).close()
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nname: x\n")
    proc = subprocess.run([sys.executable, "-m", "pipeline", "calibrate", "--rubric", str(bad),
                           "--data", str(data), "--offline"], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 1 and "not a valid rubric" in proc.stderr
    assert "bad.yaml" in proc.stderr
