"""Reviewer agreement: Krippendorff's alpha (interval) over totals and each rubric dimension.

Pure: a function of `Review` records. The reliability matrix is reviewers x units, a unit being
one reviewed case version (case_id, round); a missing or failed review is NaN.

Why the guards before calling `krippendorff.alpha`: alpha is undefined without at least two
units rated by two or more reviewers, or without any variance among pairable ratings, and the
package does not always say so — it raises ValueError when every rating is equal, returns NaN
(with a RuntimeWarning) when the only variance is in single-rated units, and returns 0.0 for a
single unit. A report must say "undefined, because ..." and never show a made-up number.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import krippendorff
import numpy as np

from pipeline.records import RUBRIC_DIMENSIONS, Review

KEYS: tuple[str, ...] = ("total", *RUBRIC_DIMENSIONS)
WITHIN_POINTS = 2


def reliability(reviews: Sequence[Review]) -> dict[str, Any]:
    """Alpha per key, units, reviewers, share of units within two points, and why undefined.

    Shape: {"alpha": {"total": x, "correctness": x, ...}, "units": n, "reviewers": [...],
    "within_two_points": f, "undefined": {key: reason}} with None where undefined. A reviewer
    reviewing the same unit twice counts once (the last review given).
    """
    units = sorted({(r.case_id, r.round) for r in reviews})
    reviewers = sorted({r.reviewer for r in reviews})
    matrices = matrices_of(reviews, units, reviewers)
    alpha: dict[str, float | None] = {}
    undefined: dict[str, str] = {}
    for key in KEYS:
        value, reason = interval_alpha(matrices[key])
        alpha[key] = value
        if reason is not None:
            undefined[key] = reason
    within, reason = _within(matrices["total"])
    if reason is not None:
        undefined["within_two_points"] = reason
    return {"alpha": alpha, "units": len(units), "reviewers": reviewers,
            "within_two_points": within, "undefined": undefined}


def interval_alpha(matrix: np.ndarray) -> tuple[float | None, str | None]:
    """(alpha, None), or (None, why) when alpha is undefined for this matrix."""
    return alpha_of(matrix, "interval")


def alpha_of(matrix: np.ndarray, level: str) -> tuple[float | None, str | None]:
    """Alpha at `level` (interval | ordinal), or (None, why) when it is undefined."""
    pairable = pairable_units(matrix)
    if pairable.shape[1] < 2:
        return None, (f"fewer than two units with two or more ratings "
                      f"({pairable.shape[1]} such unit{'s' if pairable.shape[1] != 1 else ''})")
    values = pairable[~np.isnan(pairable)]
    if np.all(values == values[0]):
        return None, f"no variance: every rating is {_num(values[0])}"
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            value = float(krippendorff.alpha(reliability_data=pairable,
                                              level_of_measurement=level))
    except ValueError as exc:  # the guards above should make this unreachable
        return None, f"krippendorff: {exc}"
    if math.isnan(value):
        return None, "no expected disagreement (krippendorff returned NaN)"
    return value, None


def matrices_of(
    reviews: Sequence[Review], units: list[tuple[str, int]], reviewers: list[str]
) -> dict[str, np.ndarray]:
    col = {u: j for j, u in enumerate(units)}
    row = {r: i for i, r in enumerate(reviewers)}
    out = {k: np.full((len(reviewers), len(units)), np.nan) for k in KEYS}
    for r in reviews:
        if r.scores is None:
            continue
        i, j = row[r.reviewer], col[(r.case_id, r.round)]
        out["total"][i, j] = r.scores.total
        for dim in RUBRIC_DIMENSIONS:
            out[dim][i, j] = getattr(r.scores, dim)
    return out


def pairable_units(matrix: np.ndarray) -> np.ndarray:
    """Only units with at least two ratings take part in alpha (others add no pairs)."""
    if matrix.size == 0:
        return matrix.reshape(matrix.shape[0], 0)
    keep = (~np.isnan(matrix)).sum(axis=0) >= 2
    return matrix[:, keep]


def _within(totals: np.ndarray) -> tuple[float | None, str | None]:
    """Fraction of pairable units whose totals' spread (max - min) is at most two points."""
    pairable = pairable_units(totals)
    if pairable.shape[1] == 0:
        return None, "no unit with two or more valid reviews"
    with np.errstate(all="ignore"):
        spread = np.nanmax(pairable, axis=0) - np.nanmin(pairable, axis=0)
    return float(np.mean(spread <= WITHIN_POINTS)), None


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
