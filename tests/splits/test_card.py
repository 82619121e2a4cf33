"""Dataset cards agree with the store and are the same bytes for the same store."""

from __future__ import annotations

from pathlib import Path

from tiny_store import build_tiny_data

from pipeline.reports.card import write_cards
from pipeline.reports.figures import store_figures
from pipeline.stages.publish import raw_tasks


def test_cards_state_counts_alpha_and_licences(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = build_tiny_data(data)
    paths = write_cards(data, store, raw_tasks(data))
    verified = (data / "verified" / "DATASET.md").read_text()
    train = (data / "train" / "DATASET.md").read_text()
    accepted = {s: 0 for s in ("verified", "train")}
    for task in store.tasks():
        accepted[task.split] += sum(store.latest_route(c.case_id).route == "accepted"
                                    for c in store.latest_cases(task.id))
    assert f"2 tasks, {accepted['verified']} test cases" in verified
    assert f"1 tasks, {accepted['train']} test cases" in train
    alpha = store_figures(store, "verified")["alpha"]["total"]
    assert f"{alpha['interval']:.3f} (95% bootstrap interval {alpha['ci95'][0]:.3f}" in verified
    assert "licences: MIT 1" in train and "Area Chair" in verified
    assert "difficulty: Easy 1, Hard 1" in verified
    first = [p.read_bytes() for p in paths]
    write_cards(data, store, raw_tasks(data))
    assert [p.read_bytes() for p in paths] == first
    store.close()
