"""Krippendorff's alpha over reviews, checked against values worked by hand.

Interval alpha from the coincidence matrix: alpha = 1 - (n - 1) * sum_ck o_ck d_ck / sum_ck
n_c n_k d_ck, with d_ck = (c - k)^2, o_ck summing over units the ordered pairs of values
weighted 1 / (m_u - 1), n_c the pairable count of value c and n their total.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipeline.records import Review, Scores
from pipeline.stages.reliability import interval_alpha, reliability


def scores(total: int) -> Scores:
    parts, left = [], total
    for cap in (3, 3, 2, 2):
        parts.append(min(cap, left))
        left -= parts[-1]
    return Scores(correctness=parts[0], coverage=parts[1], readability=parts[2],
                  relevance=parts[3])


def from_matrix(matrix: dict[str, list[float | None]]) -> list[Review]:
    """Reviewer -> totals per unit (None: no review for that unit)."""
    out = []
    for reviewer, totals in matrix.items():
        for j, t in enumerate(totals):
            if t is not None:
                out.append(Review(case_id=f"t::c{j}", round=0, reviewer=reviewer,
                                  scores=scores(int(t)), rubric_hash="h"))
    return out


def test_two_reviewers_three_units_by_hand() -> None:
    # A = 1 2 3, B = 1 2 4.  Pairable values 1,1,2,2,3,4 (n = 6).
    # Observed: only unit 3 disagrees: o_34 = o_43 = 1 -> sum o d = 2.
    # Expected: sum over ordered pairs of the six values of (v_i - v_j)^2 = 2 * 41 = 82.
    # alpha = 1 - 5 * 2 / 82 = 36 / 41.
    rep = reliability(from_matrix({"A": [1, 2, 3], "B": [1, 2, 4]}))
    assert rep["alpha"]["total"] == pytest.approx(36 / 41)
    assert rep["units"] == 3 and rep["reviewers"] == ["A", "B"]
    assert rep["within_two_points"] == 1.0


def test_three_reviewers_with_a_missing_review_by_hand() -> None:
    # u1: A=2 B=2 (C missing); u2: 5 6 7; u3: B=9 C=9 (A missing).  n = 7.
    # Observed: u2 has m = 3, ordered pairs weighted 1/2: (1 + 4 + 1) * 2 / 2 = 6.
    # Expected over {2,2,5,6,7,9,9}: unordered sum of squared differences = 360, ordered 720.
    # alpha = 1 - 6 * 6 / 720 = 0.95.
    rep = reliability(from_matrix({"A": [2, 5, None], "B": [2, 6, 9], "C": [None, 7, 9]}))
    assert rep["alpha"]["total"] == pytest.approx(0.95)
    assert rep["within_two_points"] == 1.0  # spreads 0, 2, 0


def test_within_two_points_fraction() -> None:
    rep = reliability(from_matrix({"A": [2, 5, 9, 1], "B": [4, 8, 9, 1]}))  # spreads 2, 3, 0, 0
    assert rep["within_two_points"] == 0.75


def test_perfect_agreement_with_variance_is_one_and_constant_dimensions_undefined() -> None:
    # totals 1, 2, 3 put everything in correctness; the other dimensions are all 0.
    rep = reliability(from_matrix({"A": [1, 2, 3], "B": [1, 2, 3], "C": [1, 2, 3]}))
    assert rep["alpha"]["total"] == 1.0
    assert rep["alpha"]["correctness"] == 1.0
    for dim in ("coverage", "readability", "relevance"):
        assert rep["alpha"][dim] is None
        assert rep["undefined"][dim] == "no variance: every rating is 0"
    assert "total" not in rep["undefined"]


def test_all_equal_is_undefined_with_reason() -> None:
    rep = reliability(from_matrix({"A": [7, 7], "B": [7, 7]}))
    assert rep["alpha"]["total"] is None
    assert rep["undefined"]["total"] == "no variance: every rating is 7"


def test_one_unit_is_undefined_not_zero() -> None:
    # krippendorff.alpha itself returns 0.0 here; that number means nothing.
    rep = reliability(from_matrix({"A": [3], "B": [7], "C": [5]}))
    assert rep["alpha"]["total"] is None
    assert rep["undefined"]["total"] == (
        "fewer than two units with two or more ratings (1 such unit)"
    )
    assert rep["units"] == 1 and rep["within_two_points"] == 0.0  # spread 4


def test_variance_only_in_single_rated_units_is_undefined() -> None:
    # u1 and u2 pairable but equal (5, 5); u3 rated once: krippendorff returns NaN here.
    rep = reliability(from_matrix({"A": [5, 5, 9], "B": [5, 5, None]}))
    assert rep["alpha"]["total"] is None
    assert rep["undefined"]["total"] == "no variance: every rating is 5"


def test_failed_reviews_are_missing_values() -> None:
    reviews = from_matrix({"A": [1, 2, 3], "B": [1, 2, 4]})
    reviews.append(Review(case_id="t::c0", round=0, reviewer="C", scores=None,
                          rubric_hash="h", error="refused"))
    rep = reliability(reviews)
    assert rep["reviewers"] == ["A", "B", "C"]
    assert rep["alpha"]["total"] == pytest.approx(36 / 41)  # C adds nothing


def test_rounds_are_separate_units() -> None:
    reviews = from_matrix({"A": [1, 2], "B": [1, 2]})
    reviews += [r.model_copy(update={"round": 1}) for r in reviews]
    assert reliability(reviews)["units"] == 4


def test_no_reviews() -> None:
    rep = reliability([])
    assert rep["units"] == 0 and rep["within_two_points"] is None
    assert all(v is None for v in rep["alpha"].values())
    assert set(rep["undefined"]) == {"total", "correctness", "coverage", "readability",
                                     "relevance", "within_two_points"}


def test_matches_the_package_reference_example() -> None:
    # krippendorff's own docstring example (interval): 0.810845; empty units dropped.
    nan = math.nan
    data = [[nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
            [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
            [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4]]
    value, reason = interval_alpha(np.array(data))
    assert reason is None and round(value, 6) == 0.810845
    matrix = {f"R{i}": [None if math.isnan(v) else v for v in row] for i, row in enumerate(data)}
    assert reliability(from_matrix(matrix))["alpha"]["total"] == pytest.approx(value)
