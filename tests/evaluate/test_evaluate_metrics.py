"""Pure metrics with hand-worked values."""

from __future__ import annotations

from math import comb

import pytest

from pipeline.evaluate import metrics
from pipeline.evaluate.metrics import pass_at_k, pass_at_ks, pass_rate, sample_pass, summarize
from pipeline.routes import Route, match_endpoints


@pytest.mark.parametrize(("n", "c", "k", "expected"), [
    (1, 1, 1, 1.0),
    (1, 0, 1, 0.0),
    (3, 2, 1, 2 / 3),          # 1 - C(1,1)/C(3,1) = 1 - 1/3
    (3, 2, 2, 1.0),            # C(1,2) = 0: every pair holds a correct sample
    (3, 1, 1, 1 / 3),
    (3, 1, 2, 2 / 3),          # 1 - C(2,2)/C(3,2) = 1 - 1/3
    (3, 1, 3, 1.0),
    (5, 2, 2, 0.7),            # 1 - C(3,2)/C(5,2) = 1 - 3/10
    (10, 3, 5, 11 / 12),       # 1 - C(7,5)/C(10,5) = 1 - 21/252
    (10, 0, 10, 0.0),
    (4, 4, 1, 1.0),
])
def test_pass_at_k_hand_worked(n, c, k, expected):
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_pass_at_k_matches_binomials_where_they_are_huge():
    n, c, k = 200, 37, 60
    exact = 1 - comb(n - c, k) / comb(n, k)
    assert pass_at_k(n, c, k) == pytest.approx(exact, rel=1e-9)


@pytest.mark.parametrize(("n", "c", "k"), [
    (3, 2, 4),   # k > n
    (3, 2, 0),   # k < 1
    (3, 4, 1),   # c > n
    (3, -1, 1),  # c < 0
    (0, 0, 1),   # no samples
])
def test_pass_at_k_rejects_impossible_arguments(n, c, k):
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_pass_at_k_rejects_non_integers():
    with pytest.raises(TypeError):
        pass_at_k(3, 1.5, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        pass_at_k(3, True, 1)


def test_pass_at_ks_gives_every_k_keyed_for_json():
    assert pass_at_ks(3, 2) == {"1": 0.6667, "2": 1.0, "3": 1.0}
    assert pass_at_ks(4, 1, ks=[2]) == {"2": 0.5}  # 1 - C(3,2)/C(4,2) = 1 - 3/6


def test_sample_pass_needs_deployment_and_every_test():
    assert sample_pass(True, ["passed", "passed"]) == 1
    assert sample_pass(True, ["passed", "failed"]) == 0
    assert sample_pass(True, ["passed", "skipped"]) == 0
    assert sample_pass(False, ["passed"]) == 0
    assert sample_pass(True, []) == 0


def test_pass_rate():
    assert pass_rate(True, ["passed", "failed", "passed", "error"]) == 0.5
    assert pass_rate(True, ["passed", "passed", "failed"]) == 0.6667
    assert pass_rate(False, ["not_run", "not_run"]) == 0.0
    assert pass_rate(False, []) == 0.0
    assert pass_rate(True, []) is None


class _Ep:
    def __init__(self, method: str, path: str) -> None:
        self.method, self.path = method, path


def test_api_coverage_from_a_route_match():
    endpoints = [_Ep("GET", "/items"), _Ep("POST", "/items"), _Ep("GET", "/items/{id}"),
                 _Ep("DELETE", "/items/{id}")]
    routes = [Route("GET", "/items"), Route("GET", "/items/{item_id}")]
    assert metrics.api_coverage(match_endpoints(endpoints, routes)) == 0.5
    assert metrics.api_coverage(match_endpoints([], routes)) is None
    assert metrics.api_coverage(match_endpoints(endpoints, [])) == 0.0


def test_mean_skips_none_and_counts_booleans():
    assert metrics.mean([True, False, True, None]) == 0.6667
    assert metrics.mean([None]) is None
    assert metrics.mean([]) is None


def test_summarize_per_metric_and_per_language():
    rows = [
        {"id": "a", "language": "python", "dsr": True, "pass_at_1": 1, "test_pass_rate": 1.0,
         "api_coverage": 1.0},
        {"id": "b", "language": "python", "dsr": False, "pass_at_1": 0, "test_pass_rate": 0.0,
         "api_coverage": 0.5},
        {"id": "c", "language": "java", "dsr": True, "pass_at_1": 0, "test_pass_rate": 0.5,
         "api_coverage": None},
    ]
    out = summarize(rows)
    assert out["n_tasks"] == 3
    assert out["metrics"] == {"dsr": 0.6667, "pass_at_1": 0.3333, "test_pass_rate": 0.5,
                              "api_coverage": 0.75}
    assert out["by_language"] == {
        "java": {"n_tasks": 1, "dsr": 1.0, "pass_at_1": 0.0, "test_pass_rate": 0.5,
                 "api_coverage": None},
        "python": {"n_tasks": 2, "dsr": 0.5, "pass_at_1": 0.5, "test_pass_rate": 0.5,
                   "api_coverage": 0.75},
    }
    assert summarize([]) == {"n_tasks": 0, "metrics": dict.fromkeys(metrics.METRICS),
                             "by_language": {}}
