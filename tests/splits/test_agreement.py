"""Reliability figures: hand-worked values, the krippendorff package, seeded intervals, and the
split filter of the store."""

from __future__ import annotations

from pathlib import Path

import krippendorff
import numpy as np
import pytest
from tiny_store import TASKS, build_tiny_store

from pipeline.records import Review, Scores
from pipeline.reports.figures import figure_lines, store_figures
from pipeline.stages.agreement import agreement, figures, key_alpha, offsets, spread_routed


def scores(total: int) -> Scores:
    parts, left = [], total
    for cap in (3, 3, 2, 2):
        parts.append(min(cap, left))
        left -= parts[-1]
    return Scores(correctness=parts[0], coverage=parts[1], readability=parts[2],
                  relevance=parts[3])


def from_matrix(matrix: dict[str, list[int | None]], rnd: int = 0, rubric: str = "h"
                ) -> list[Review]:
    return [Review(case_id=f"t::c{j}", round=rnd, reviewer=name, scores=scores(t),
                   rubric_hash=rubric)
            for name, totals in matrix.items() for j, t in enumerate(totals) if t is not None]


def test_hand_worked_alpha_shares_offsets_and_pairs() -> None:
    # A = 1 2 3, B = 1 2 4: alpha = 36/41 (see tests/core/test_reliability.py for the working).
    # Spreads 0, 0, 1: exact 2/3, within 1 and 2 all. Unit means 1, 2, 3.5: A is -0.5/3 off.
    result = figures(from_matrix({"A": [1, 2, 3], "B": [1, 2, 4]}), conflict_spread=0,
                     resamples=50)
    assert result["alpha"]["total"]["interval"] == pytest.approx(36 / 41)
    assert result["pairwise"][0]["alpha"] == pytest.approx(36 / 41)
    assert result["agreement"] == {"units": 3, "exact": pytest.approx(2 / 3),
                                   "within_1": 1.0, "within_2": 1.0}
    assert result["offsets"] == {"A": pytest.approx(-1 / 6), "B": pytest.approx(1 / 6)}
    assert result["spread_routed"]["share"] == pytest.approx(1 / 3)  # spread 1 > 0


def test_matches_the_krippendorff_package_with_missing_ratings() -> None:
    rng = np.random.default_rng(3)
    m = rng.integers(0, 11, (3, 40)).astype(float)
    m[rng.random((3, 40)) < 0.15] = np.nan
    m[:, 0] = [5, np.nan, np.nan]  # a single-rated unit adds no pairs
    entry = key_alpha(m, seed=1, resamples=20)
    keep = (~np.isnan(m)).sum(axis=0) >= 2
    for level in ("interval", "ordinal"):
        want = krippendorff.alpha(reliability_data=m[:, keep], level_of_measurement=level)
        assert entry[level] == pytest.approx(want)


def test_bootstrap_interval_is_reproducible_with_a_seed() -> None:
    rng = np.random.default_rng(0)
    base = rng.integers(2, 9, 30)
    m = np.stack([base + rng.integers(-2, 3, 30) for _ in range(3)]).astype(float)
    a = key_alpha(m, seed=11, resamples=200)
    assert a == key_alpha(m, seed=11, resamples=200)
    assert a["ci95"] != key_alpha(m, seed=12, resamples=200)["ci95"]
    lo, hi = a["ci95"]
    assert lo < a["interval"] < hi


def test_undefined_alpha_says_why() -> None:
    result = figures(from_matrix({"A": [7, 7], "B": [7, 7]}), conflict_spread=3, resamples=10)
    total = result["alpha"]["total"]
    assert total["interval"] is None and total["ci95"] is None
    assert total["undefined"]["interval"] == "no variance: every rating is 7"
    one = figures(from_matrix({"A": [3], "B": [5]}), conflict_spread=3, resamples=10)
    assert "fewer than two units" in one["alpha"]["total"]["undefined"]["interval"]
    assert any("undefined (" in line for line in figure_lines({**one, "split": "all",
                                                               "round": None}))


def test_spread_rule_share_and_empty_agreement() -> None:
    t = np.array([[1.0, 5.0, 9.0], [6.0, 5.0, 9.0]])
    assert spread_routed(t, 3) == {"units": 3, "routed": 1, "threshold": 3,
                                   "share": pytest.approx(1 / 3)}
    empty = np.full((2, 2), np.nan)
    assert agreement(empty)["within_2"] is None
    assert offsets(empty, ["A", "B"]) == {"A": None, "B": None}


def test_rounds_and_rubric_versions_are_separate_groups() -> None:
    reviews = (from_matrix({"A": [1, 2, 3], "B": [1, 2, 4]}, rnd=0, rubric="old")
               + from_matrix({"A": [1, 5, 9], "B": [9, 5, 1]}, rnd=1, rubric="new"))
    result = figures(reviews, conflict_spread=3, resamples=20, by_rubric=True)
    assert result["by_round"]["0"]["interval"] == pytest.approx(36 / 41)
    assert result["by_rubric"]["old"]["interval"] == pytest.approx(36 / 41)
    assert result["by_rubric"]["new"]["interval"] < 0
    assert result["by_round"]["1"]["units"] == 3


def test_split_filter_uses_only_that_splits_cases(tmp_path: Path) -> None:
    store = build_tiny_store(tmp_path / "state.db")
    verified = {t for t, (split, _) in TASKS.items() if split == "verified"}
    want = {(r.case_id, r.round) for r in store.all_reviews()
            if r.case_id.split("::")[0] in verified}
    got = store_figures(store, "verified", resamples=20)
    assert got["units"] == len(want) and got["split"] == "verified"
    train = store_figures(store, "train", resamples=20)
    assert got["units"] + train["units"] == store_figures(store, "all", resamples=20)["units"]
    only_0 = store_figures(store, "verified", 0, resamples=20)
    assert only_0["units"] == len({u for u in want if u[1] == 0})
    assert list(only_0["by_round"]) == ["0"]
    store.close()
