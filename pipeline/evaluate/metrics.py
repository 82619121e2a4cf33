"""The evaluation metrics as pure functions of outcomes (no I/O): Pass@k, test pass rate, API
coverage and their aggregation per task, per metric, per language.

- Pass@1 of one sample is 1 when the service deployed and every one of the task's tests passed
  (a skipped or unrun test is not a pass), else 0.
- Pass@k over n samples of which c pass is the unbiased estimator of Chen et al. 2021
  ("Evaluating Large Language Models Trained on Code"): 1 - C(n-c, k) / C(n, k), computed as
  the product 1 - prod_{i=n-c+1}^{n} (1 - k/i), which never forms the huge binomials.
- The test pass rate is the fraction of the task's tests that passed (0 when nothing deployed).
- API coverage is the share of the task's documented endpoints that the candidate's source
  routes (`pipeline.routes.match_endpoints`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pipeline.routes import RouteMatch

#: The per-sample metrics, in the order reports show them.
METRICS = ("dsr", "pass_at_1", "test_pass_rate", "api_coverage")
PASSED = "passed"
DIGITS = 4


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased Pass@k: the chance that at least one of k samples drawn (without replacement)
    from n samples, c of them correct, is correct. Requires 0 <= c <= n and 1 <= k <= n."""
    for name, value in (("n", n), ("c", c), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an integer, got {value!r}")
    if n < 1:
        raise ValueError(f"n must be at least 1 (got {n})")
    if not 0 <= c <= n:
        raise ValueError(f"c must be between 0 and n={n} (got {c})")
    if not 1 <= k <= n:
        raise ValueError(f"k must be between 1 and n={n} (got {k}): Pass@k needs k <= n samples")
    if n - c < k:
        return 1.0  # every draw of k samples contains a correct one
    failing_draws = 1.0
    for i in range(n - c + 1, n + 1):
        failing_draws *= 1.0 - k / i
    return 1.0 - failing_draws


def pass_at_ks(n: int, c: int, ks: Iterable[int] | None = None) -> dict[str, float]:
    """Pass@k for each k (default 1..n), keyed by str(k) so the dict is JSON as it stands."""
    return {str(k): round(pass_at_k(n, c, k), DIGITS) for k in (ks or range(1, n + 1))}


def sample_pass(dsr: bool, outcomes: Sequence[str]) -> int:
    """Pass@1 of one sample: 1 if it deployed and it has tests and all of them passed."""
    return int(bool(dsr) and bool(outcomes) and all(o == PASSED for o in outcomes))


def pass_rate(dsr: bool, outcomes: Sequence[str]) -> float | None:
    """Fraction of tests passed; 0.0 when nothing deployed; None when the task has no tests."""
    if not outcomes:
        return None if dsr else 0.0
    if not dsr:
        return 0.0
    return round(sum(o == PASSED for o in outcomes) / len(outcomes), DIGITS)


def api_coverage(match: RouteMatch) -> float | None:
    """Share of distinct documented endpoints routed; None when the task documents none."""
    return None if match.coverage is None else round(match.coverage, DIGITS)


def mean(values: Iterable[float | int | bool | None]) -> float | None:
    """Mean of the values that are not None (booleans count as 0/1); None if there are none."""
    kept = [float(v) for v in values if v is not None]
    return round(sum(kept) / len(kept), DIGITS) if kept else None


def metric_means(rows: Sequence[Mapping[str, Any]],
                 metrics: Sequence[str] = METRICS) -> dict[str, float | None]:
    """{metric: mean over rows}; rows missing a metric (or holding None) are left out."""
    return {m: mean(row.get(m) for row in rows) for m in metrics}


def group_means(rows: Sequence[Mapping[str, Any]], key: str,
                metrics: Sequence[str] = METRICS) -> dict[str, dict[str, Any]]:
    """Per value of `key` (e.g. language): the number of rows and each metric's mean."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        groups.setdefault(str(row.get(key) or "unknown"), []).append(row)
    return {name: {"n_tasks": len(members), **metric_means(members, metrics)}
            for name, members in sorted(groups.items())}


def summarize(rows: Sequence[Mapping[str, Any]],
              group_keys: Sequence[str] = ("language",)) -> dict[str, Any]:
    """Leaderboard aggregate of per-task rows: overall means and the same per group key
    (`by_language`, `by_difficulty`, ...)."""
    out: dict[str, Any] = {"n_tasks": len(rows), "metrics": metric_means(rows)}
    for key in group_keys:
        out[f"by_{key}"] = group_means(rows, key)
    return out
