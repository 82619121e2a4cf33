"""Export round trip: the files load with pandas and HF datasets and give the store's rows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import krippendorff
import pandas as pd
import pytest
from tiny_store import build_tiny_data

from pipeline.reports.export import export
from pipeline.reports.figures import store_figures

ROOT = Path(__file__).resolve().parents[2]


def expected(store) -> tuple[dict, dict]:
    """Straight from the store's records, not through the export's tables: the published
    case versions, and every valid review of every round of the tasks."""
    cases, reviews = {}, {}
    for task in store.tasks():
        for case in store.latest_cases(task.id):
            for rnd in range(case.round + 1):
                for r in store.reviews_for(case.case_id, rnd):
                    reviews[(case.case_id, rnd, r.reviewer)] = (
                        r.scores.correctness, r.scores.coverage, r.scores.readability,
                        r.scores.relevance, r.scores.total)
            if store.latest_route(case.case_id).route == "accepted":
                cases[case.case_id] = (task.id, task.split, case.round, case.category,
                                       case.code)
    return cases, reviews


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_export_round_trips_with_pandas(tmp_path: Path, fmt: str) -> None:
    data = tmp_path / "data"
    store = build_tiny_data(data)
    counts = export(store, data, tmp_path / "out", fmt)
    want_cases, want_reviews = expected(store)
    read = (pd.read_parquet if fmt == "parquet"
            else lambda p: pd.read_json(p, lines=True, dtype=False))
    tasks = read(tmp_path / "out" / f"tasks.{fmt}")
    cases = read(tmp_path / "out" / f"cases.{fmt}")
    reviews = read(tmp_path / "out" / f"reviews.{fmt}")
    assert counts == {"tasks": 3, "cases": len(want_cases), "reviews": len(want_reviews)}
    assert sorted(tasks["id"]) == ["alpha", "beta", "gamma"]
    assert dict(zip(tasks["id"], tasks["split"], strict=True)) == {
        t.id: t.split for t in store.tasks()}
    assert tasks.set_index("id").loc["beta", "license"] == "MIT"
    got_cases = {r.case_id: (r.task_id, r.split, int(r.round), r.category, r.code)
                 for r in cases.itertuples()}
    assert got_cases == want_cases
    assert cases["published"].all()
    got_reviews = {(r.case_id, int(r.round), r.reviewer): (
        int(r.correctness), int(r.coverage), int(r.readability), int(r.relevance),
        int(r.total)) for r in reviews.itertuples()}
    assert got_reviews == want_reviews
    means = reviews.groupby(["case_id", "round"])["total"].mean()
    for row in cases.itertuples():
        assert row.mean_total == pytest.approx(means[(row.case_id, row.round)])
    store.close()


def test_alpha_recomputed_from_the_export_matches_reliability(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = build_tiny_data(data)
    export(store, data, tmp_path / "out", "parquet")
    reviews = pd.read_parquet(tmp_path / "out" / "reviews.parquet")
    for split in ("verified", "train"):
        rows = reviews[reviews["split"] == split]
        matrix = rows.pivot_table(index="reviewer", columns=["case_id", "round"],
                                  values="total").to_numpy(dtype=float)
        want = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
        got = store_figures(store, split, resamples=10)
        assert got["alpha"]["total"]["interval"] == pytest.approx(want)
        assert got["units"] == matrix.shape[1]
    assert "| `mean_total` |" in (tmp_path / "out" / "COLUMNS.md").read_text()
    store.close()


def test_all_cases_adds_the_unpublished_with_their_route(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = build_tiny_data(data)
    export(store, data, tmp_path / "out", "jsonl", all_cases=True)
    cases = pd.read_json(tmp_path / "out" / "cases.jsonl", lines=True, dtype=False)
    latest = {c.case_id: store.latest_route(c.case_id) for t in store.tasks()
              for c in store.latest_cases(t.id)}
    assert set(cases["case_id"]) == set(latest)
    for row in cases.itertuples():
        assert row.route == latest[row.case_id].route
        assert row.published == (row.route == "accepted")
    assert {"area_chair", "discarded"} <= set(cases["route"])
    store.close()


def test_export_loads_with_hf_datasets_offline(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = build_tiny_data(data)
    export(store, data, tmp_path / "out", "parquet")
    want_cases, want_reviews = expected(store)
    store.close()
    script = (
        "import sys, json\n"
        "from datasets import load_dataset\n"
        "d = sys.argv[1]\n"
        "ds = {n: load_dataset('parquet', data_files=f'{d}/{n}.parquet', split='train', "
        "cache_dir=sys.argv[2]) for n in ('tasks', 'cases', 'reviews')}\n"
        "print(json.dumps({n: ds[n].num_rows for n in ds} | "
        "{'ids': sorted(ds['cases']['case_id']), 'totals': list(ds['reviews']['total'])}))\n"
    )
    env = {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf"),
           "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out"),
                           str(tmp_path / "hf-cache")], capture_output=True, text=True,
                          env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    import json
    shown = json.loads(proc.stdout.strip().splitlines()[-1])
    assert shown["tasks"] == 3 and shown["cases"] == len(want_cases)
    assert shown["ids"] == sorted(want_cases)
    assert sorted(shown["totals"]) == sorted(v[4] for v in want_reviews.values())


def test_export_cli_names_a_bad_format(tmp_path: Path) -> None:
    data = tmp_path / "data"
    build_tiny_data(data).close()
    proc = subprocess.run([sys.executable, "-m", "pipeline", "export", "--format", "csv",
                           "--out", str(tmp_path / "o"), "--data", str(data)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1 and "--format 'csv': choose parquet or jsonl" in proc.stderr
