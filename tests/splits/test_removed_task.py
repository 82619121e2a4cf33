"""A task removed from data/raw leaves every output: the split folders, the index, the dataset
card's figures and `reliability`; its state stays until `forget`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tiny_store import build_tiny_data

from pipeline.reports.figures import store_figures
from pipeline.reports.release import publish_data

ROOT = Path(__file__).resolve().parents[2]


def test_removed_task_leaves_the_outputs(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = build_tiny_data(data)
    publish_data(data, store)
    before = store_figures(store, "verified", resamples=20)["units"]
    assert (data / "verified" / "gamma").is_dir()
    assert store_figures(store, "verified", resamples=20, tasks={"alpha", "gamma"})["units"] \
        == before

    shutil.rmtree(data / "raw" / "gamma")
    publish_data(data, store)
    assert not (data / "verified" / "gamma").exists()
    assert "gamma" not in (data / "verified" / "index.jsonl").read_text()
    after = store_figures(store, "verified", resamples=20, tasks={"alpha", "beta"})["units"]
    assert 0 < after < before
    card = (data / "verified" / "DATASET.md").read_text()
    assert card.startswith("# ") and "1 tasks," in card
    store.close()

    proc = subprocess.run([sys.executable, "-m", "pipeline", "reliability", "--json",
                           "--resamples", "20", "--data", str(data)],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    assert json.loads(proc.stdout)["units"] == after
