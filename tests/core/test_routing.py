"""route_case at every boundary of the life cycle, with hand-worked totals."""

from __future__ import annotations

import pytest

from pipeline import routing
from pipeline.records import (
    AlternativeRun,
    Evidence,
    Review,
    RouteDecision,
    RunResult,
    Scores,
    TestCase,
)
from pipeline.rubric import load_rubric

RULES = load_rubric().routing  # the shipped rubric: accept_mean 7, spread 3, 5 rounds


def route_case(*args, **kw):
    """The router with the shipped rubric's rules and three reviewers, unless overridden."""
    rules = RULES.model_copy(update={k: kw.pop(k) for k in list(kw) if k in (
        "accept_mean", "conflict_spread", "failing_is_rejected")})
    if "max_rounds" in kw:
        rules = rules.model_copy(update={"max_refine_rounds": kw.pop("max_rounds")})
    panel = routing.Panel(rules, kw.pop("reviewers", 3))
    return routing.route_case(*args, panel=panel, **kw)

CASE = "t1::test_create_item"


def scores(total: int) -> Scores:
    """A valid rubric score with the given total (fills correctness, coverage, then the rest)."""
    parts, left = [], total
    for cap in (3, 3, 2, 2):
        parts.append(min(cap, left))
        left -= parts[-1]
    assert left == 0
    return Scores(correctness=parts[0], coverage=parts[1], readability=parts[2],
                  relevance=parts[3])


def reviews(*totals: int | None, round: int = 0) -> list[Review]:
    return [
        Review(case_id=CASE, round=round, reviewer=f"r{i}",
               scores=None if t is None else scores(t), rubric_hash="h",
               error="timeout after 60s" if t is None else None)
        for i, t in enumerate(totals)
    ]


def passed(round: int = 0, runs: int = 2) -> Evidence:
    return Evidence(case_id=CASE, round=round,
                    runs=[RunResult(outcome="passed") for _ in range(runs)])


def route(totals: tuple[int | None, ...], *, round: int = 0, split: str = "verified",
          evidence: Evidence | None = None, **kw):
    ev = evidence if evidence is not None else passed(round)
    return route_case(ev, reviews(*totals, round=round), round, split, **kw)


# --- accept / refine threshold ---------------------------------------------------------------

def test_mean_exactly_seven_is_accepted() -> None:
    d = route((6, 7, 8))  # 21 / 3 = 7.0, spread 2
    assert d.route == "accepted" and d.discard_reason is None
    assert d.mean == 7.0 and d.spread == 2
    assert d.reason == "mean 7 >= 7 (totals 6, 7, 8)"


def test_mean_just_below_seven_is_refined() -> None:
    d = route((6, 7, 6))  # 19 / 3 = 6.333
    assert d.route == "refine"
    assert d.reason == "mean 6.3 < 7 (totals 6, 7, 6)"
    assert d.mean == pytest.approx(19 / 3)


def test_mean_6_99_vs_7_0() -> None:
    # 100 reviewers: 99 give 7, one gives 6 -> mean 6.99 (spread 1): below the bar
    d = route((7,) * 99 + (6,))
    assert d.route == "refine" and d.mean == pytest.approx(6.99)
    assert d.reason.startswith("mean 6.99 < 7 ")  # never printed as "7 < 7"
    assert route((7,) * 100).route == "accepted"


def test_accept_mean_is_configurable() -> None:
    assert route((6, 7, 6), accept_mean=6.3).route == "accepted"  # 6.333 >= 6.3


# --- conflict --------------------------------------------------------------------------------

def test_spread_exactly_three_is_not_a_conflict() -> None:
    d = route((5, 8, 8))  # spread 3, mean 7
    assert d.route == "accepted" and d.spread == 3


def test_spread_four_goes_to_area_chair_on_verified() -> None:
    d = route((4, 8, 8))  # spread 4 > 3, although mean 6.67
    assert d.route == "area_chair" and d.discard_reason is None
    assert d.reason == "spread 4 > 3 (totals 4, 8, 8)"
    assert d.spread == 4


def test_spread_four_is_discarded_as_conflict_on_train() -> None:
    d = route((4, 8, 8), split="train")
    assert (d.route, d.discard_reason) == ("discarded", "conflict")
    assert "spread 4 > 3" in d.reason and "no Area Chair" in d.reason


def test_conflict_wins_over_a_high_mean() -> None:
    assert route((6, 10, 10)).route == "area_chair"  # mean 8.67 but spread 4


def test_auto_split_must_be_resolved_first() -> None:
    with pytest.raises(ValueError, match="resolved split"):
        route((7, 7, 7), split="auto")


# --- rounds ----------------------------------------------------------------------------------

def test_low_mean_at_round_4_refines_at_round_5_discards() -> None:
    assert route((5, 5, 5), round=4).route == "refine"
    d = route((5, 5, 5), round=5)
    assert (d.route, d.discard_reason) == ("discarded", "low_quality")
    assert d.reason == "mean 5 < 7 (totals 5, 5, 5); no refine left (round 5 of 5)"


def test_max_rounds_is_configurable() -> None:
    assert route((5, 5, 5), round=2, max_rounds=2).discard_reason == "low_quality"


def test_accepted_at_last_round_is_still_accepted() -> None:
    assert route((7, 7, 7), round=5).route == "accepted"


# --- execution gate --------------------------------------------------------------------------

def failing(round: int = 0) -> Evidence:
    out = "def test_x():\n>   assert r.status_code == 201\nE   assert 404 == 201\n"
    return Evidence(case_id=CASE, round=round,
                    runs=[RunResult(outcome="failed", output=out)] * 2)


def test_failing_on_oracle_refines_with_the_failure_even_if_reviewers_love_it() -> None:
    d = route((10, 10, 10), evidence=failing())
    assert d.route == "refine"
    assert d.reason == "fails on the oracle (run 1 of 2: failed: E   assert 404 == 201)"


def test_failing_on_oracle_at_round_5_is_discarded() -> None:
    assert route((10, 10, 10), round=4, evidence=failing(4)).route == "refine"
    d = route((10, 10, 10), round=5, evidence=failing(5))
    assert (d.route, d.discard_reason) == ("discarded", "fails_on_oracle")
    assert d.reason.endswith("no refine left (round 5 of 5)")


def test_flaky_evidence_is_never_accepted() -> None:
    ev = Evidence(case_id=CASE, round=0, runs=[
        RunResult(outcome="passed"), RunResult(outcome="timeout", output="timed out after 30s"),
    ])
    d = route((9, 9, 9), evidence=ev)
    assert d.route == "refine"
    assert d.reason == (
        "flaky on the oracle: passed 1 of 2 runs (run 2 of 2: timeout: timed out after 30s)"
    )


def test_missing_or_empty_evidence_is_a_failure() -> None:
    d = route_case(None, reviews(9, 9, 9), 0, "verified")
    assert d.route == "refine" and "not executed" in d.reason
    empty = Evidence(case_id=CASE, round=0, runs=[])
    assert route((9, 9, 9), evidence=empty).route == "refine"


# --- invalid reviews -------------------------------------------------------------------------

def test_a_failed_reviewer_sends_verified_to_area_chair_naming_it() -> None:
    d = route((8, None, 8))
    assert d.route == "area_chair"
    assert d.reason == "only 2 of 3 valid reviews: r1 failed (timeout after 60s)"


def test_a_failed_reviewer_discards_train_as_invalid() -> None:
    d = route((8, 8, None), split="train")
    assert (d.route, d.discard_reason) == ("discarded", "invalid")
    assert "r2 failed" in d.reason


def test_missing_reviews_are_counted() -> None:
    d = route((8, 8))
    assert d.route == "area_chair" and d.reason == "only 2 of 3 valid reviews: 1 review missing"


def test_a_retried_reviewer_counts_once() -> None:
    rs = reviews(8, 8) + [reviews(8)[0]]  # r0 twice
    d = route_case(passed(), rs, 0, "verified")
    assert d.route == "area_chair"


def test_reviews_of_another_round_are_refused() -> None:
    with pytest.raises(ValueError):
        route_case(passed(1), reviews(7, 7, 7, round=0), 1, "verified")


def test_a_refine_that_changes_nothing_is_discarded_at_once() -> None:
    from pipeline.routing import unchanged_refine

    low = route((6, 4, 4), round=1)
    assert low.route == "refine"
    stalled = unchanged_refine(low, passed(1))
    assert (stalled.route, stalled.discard_reason) == ("discarded", "low_quality")
    assert stalled.reason.startswith(low.reason) and "could not change" in stalled.reason
    assert (stalled.round, stalled.mean) == (low.round, low.mean)
    failing = Evidence(case_id=CASE, round=0, runs=[RunResult(outcome="failed")] * 2)
    broken = route((9, 9, 9), evidence=failing)
    assert broken.route == "refine"
    assert unchanged_refine(broken, failing).discard_reason == "fails_on_oracle"


def test_failing_is_rejected_false_lets_reviewers_decide() -> None:
    failed = Evidence(case_id=CASE, round=0, runs=[RunResult(outcome="failed")] * 2)
    assert route((8, 8, 8), evidence=failed).route == "refine"
    assert route((8, 8, 8), evidence=failed, failing_is_rejected=False).route == "accepted"


def test_reviewer_count_comes_from_the_caller() -> None:
    assert route((8, 8), reviewers=2).route == "accepted"
    assert route((8, 8, 8), reviewers=4).reason == "only 3 of 4 valid reviews: 1 review missing"


# --- human-written tests are not discarded for style alone ------------------------------------

def test_human_test_with_kills_beyond_the_generated_suite_is_kept():
    from pipeline.routing import keep_human

    low = route((5, 5, 6), round=5)
    assert low.route == "discarded" and low.discard_reason == "low_quality"
    verified = keep_human(low, "verified", ["app.py:9:return:1"], shape_only=False)
    assert verified.route == "area_chair" and verified.discard_reason is None
    assert "kills 1 mutant no accepted generated test kills (app.py:9:return:1)" in \
        verified.reason
    assert keep_human(low, "train", ["a", "b"], shape_only=False).route == "accepted"
    conflict = route((2, 9, 9), split="train")
    assert keep_human(conflict, "train", ["a"], shape_only=False).route == "accepted"


def test_human_test_failing_on_the_oracle_stays_discarded_and_says_how_it_ran():
    from pipeline.routing import keep_human

    failing = Evidence(case_id=CASE, round=5, runs=[RunResult(outcome="failed")])
    broken = route((9, 9, 9), round=5, evidence=failing)
    assert broken.discard_reason == "fails_on_oracle"
    kept = keep_human(broken, "verified", ["a"], shape_only=False)
    assert (kept.route, kept.discard_reason) == ("discarded", "fails_on_oracle")
    assert kept.reason.startswith(broken.reason) and "as its author ran it" in kept.reason
    accepted = route((9, 9, 9))
    assert keep_human(accepted, "train", ["a"], shape_only=False) == accepted
    refining = route((5, 5, 6), round=1)
    assert keep_human(refining, "verified", [], shape_only=False) == refining


def test_human_test_passing_on_the_oracle_is_never_discarded_by_the_reviewers():
    from pipeline.routing import keep_human

    low = route((5, 5, 6), round=5)
    verified = keep_human(low, "verified", [], shape_only=False)
    assert (verified.route, verified.discard_reason) == ("area_chair", None)
    assert "not discarded on the reviewers' scores alone" in verified.reason
    train = keep_human(route((5, 5, 6), round=5, split="train"), "train", [], shape_only=False)
    assert train.route == "accepted" and "train has no Area Chair" in train.reason
    invalid = route((8, 8), split="train")
    assert invalid.discard_reason == "invalid"
    assert keep_human(invalid, "train", [], shape_only=False).route == "accepted"


def test_human_test_low_only_on_style_is_kept():
    from pipeline.routing import keep_human

    style = [Review(case_id=CASE, round=5, reviewer=f"r{i}", rubric_hash="h",
                    scores=Scores(correctness=2, coverage=2, readability=0, relevance=1))
             for i in range(3)]  # totals 5: low only on readability and relevance
    low = route_case(passed(5), style, 5, "verified")
    assert low.discard_reason == "low_quality"
    kept = keep_human(low, "verified", [], style, shape_only=False)
    assert kept.route == "area_chair" and "not discarded for style alone" in kept.reason
    weak = [r.model_copy(update={"scores": Scores(correctness=1, coverage=2, readability=2,
                                                  relevance=2)}) for r in style]
    low_weak = route_case(passed(5), weak, 5, "train")
    kept_weak = keep_human(low_weak, "train", [], weak,
                           shape_only=False)  # substance weak: kept, said plainly
    assert kept_weak.route == "accepted" and "not discarded for style alone" not in \
        kept_weak.reason


def test_accepted_human_test_that_checks_only_shape_goes_to_the_area_chair_on_verified():
    from pipeline.routing import keep_human

    accepted = route((8, 8, 7))
    assert accepted.route == "accepted"
    chair = keep_human(accepted, "verified", [], shape_only=True)
    assert (chair.route, chair.discard_reason) == ("area_chair", None)
    assert chair.reason.startswith(accepted.reason)
    assert "only status codes, keys or types" in chair.reason
    # train has no Area Chair: its author stands in
    assert keep_human(route((8, 8, 7), split="train"), "train", [], shape_only=True).route \
        == "accepted"
    # a shape-only test that kills what no accepted generated test kills earns its place
    assert keep_human(accepted, "verified", ["app.py:9:return:1"], shape_only=True) == accepted
    # one that checks values stays accepted
    assert keep_human(accepted, "verified", [], shape_only=False) == accepted


# --- over-specified: passes on the oracle, fails on an alternative ---------------------------

def over_specified(round: int = 0) -> Evidence:
    return passed(round).model_copy(update={"alternatives": [
        AlternativeRun(name="a", outcome="passed"),
        AlternativeRun(name="b", outcome="failed", output="E   assert 422 == 400")]})


def test_over_specified_generated_case_is_refined_with_the_failure() -> None:
    d = route((9, 9, 9), evidence=over_specified())
    assert d.route == "refine"
    assert "'b'" in d.reason and "assert 422 == 400" in d.reason and "'a'" not in d.reason


def test_over_specified_generated_case_without_rounds_left_is_discarded() -> None:
    d = route((9, 9, 9), round=5, evidence=over_specified(5))
    assert (d.route, d.discard_reason) == ("discarded", "over_specified")


def test_over_specified_human_case_goes_to_the_chair_on_verified_only() -> None:
    chair = route((9, 9, 9), evidence=over_specified(), human=True)
    assert chair.route == "area_chair" and "Area Chair" in chair.reason
    train = route((9, 9, 9), split="train", evidence=over_specified(), human=True)
    assert (train.route, train.discard_reason) == ("discarded", "over_specified")


def test_a_case_passing_on_every_alternative_is_routed_on_its_reviews() -> None:
    ev = passed().model_copy(update={"alternatives": [AlternativeRun(name="a",
                                                                    outcome="passed")]})
    assert route((8, 8, 8), evidence=ev).route == "accepted"


def test_unchanged_refine_of_an_over_specified_case_names_the_reason() -> None:
    ev = over_specified()
    d = routing.unchanged_refine(route((9, 9, 9), evidence=ev), ev)
    assert (d.route, d.discard_reason) == ("discarded", "over_specified")


# --- model-written implementations (`build --alternatives K`): suspects, not references ------

def on_suspect(outcome: str, name: str = "m1", case: str = CASE) -> Evidence:
    return passed().model_copy(update={"case_id": case, "alternatives": [
        AlternativeRun(name=name, outcome=outcome, output="E   assert 'x' == 'y'", suspect=True)]})


def accepted() -> RouteDecision:
    return RouteDecision(case_id=CASE, round=0, route="accepted", reason="mean 9 >= 7",
                         mean=9.0, spread=0)


def others(passing: int, failing: int) -> list[Evidence]:
    return [on_suspect("passed", case=f"t::p{i}") for i in range(passing)] + \
        [on_suspect("failed", case=f"t::f{i}") for i in range(failing)]


def test_a_suspect_failure_is_not_over_specified_and_never_discards() -> None:
    ev = on_suspect("failed")
    assert ev.rejects_alternative == [] and [a.name for a in ev.fails_on_suspects] == ["m1"]
    assert routing.alternative_failure(ev) is None
    assert route((9, 9, 9), evidence=ev).route == "accepted"  # the reviewers' route stands


def test_a_credible_suspect_sends_an_accepted_case_to_the_area_chair_on_verified() -> None:
    d = routing.route_with_suspects(accepted(), on_suspect("failed"), others(9, 1), "verified")
    assert d.route == "area_chair" and d.discard_reason is None
    assert d.reason.startswith("suspect: passes on the oracle, failed on 'm1'")
    assert "passes 9 of the task's 10 other accepted cases" in d.reason
    kept = routing.route_with_suspects(accepted(), on_suspect("failed"), others(9, 1), "train")
    assert kept.route == "accepted" and "train: the reviewers saw the runs" in kept.reason


@pytest.mark.parametrize(("passing", "failing"), [(8, 2), (4, 0), (0, 0)])
def test_a_suspect_that_fails_much_or_ran_little_is_not_credible(passing: int,
                                                                 failing: int) -> None:
    d = routing.route_with_suspects(accepted(), on_suspect("failed"),
                                    others(passing, failing), "verified")
    assert d == accepted()


def test_only_accepted_cases_are_reconsidered_and_other_suspects_do_not_count() -> None:
    refine = accepted().model_copy(update={"route": "refine"})
    assert routing.route_with_suspects(refine, on_suspect("failed"), others(10, 0),
                                       "verified") == refine
    other_name = [on_suspect("passed", name="m2", case=f"t::q{i}") for i in range(10)]
    assert routing.route_with_suspects(accepted(), on_suspect("failed"), other_name,
                                       "verified") == accepted()


def test_a_published_suite_failure_is_routed_by_the_one_decision_module() -> None:
    """The published-suite check has no refine left: an oracle failure discards, an
    alternative failure sends human work to the Area Chair on verified only."""
    on_oracle = routing.published_route("c", 2, "verified", human=True,
                                        oracle_failure="AssertionError: 3 != 4",
                                        alternative_failure=None)
    assert (on_oracle.route, on_oracle.discard_reason) == ("discarded", "fails_on_oracle")
    assert "as its author ran it" in on_oracle.reason and "3 != 4" in on_oracle.reason
    human = routing.published_route("c", 1, "verified", human=True, oracle_failure=None,
                                    alternative_failure="fails on the alternative 'a'")
    assert human.route == "area_chair" and human.reason.startswith(routing.OVER_SPECIFIED)
    for split, is_human in (("train", True), ("verified", False)):
        other = routing.published_route("c", 1, split, human=is_human, oracle_failure=None,
                                        alternative_failure="fails on the alternative 'a'")
        assert (other.route, other.discard_reason) == ("discarded", "over_specified")


def test_a_chair_refine_is_routed_by_the_one_decision_module() -> None:
    case = TestCase(case_id=CASE, task_id="t1", round=2, category="api_compliance",
                    name="test_create_item", code="def test_create_item():\n    assert 1\n")
    sent = routing.chair_refine_route(case, None, chair="alice", note="assert the id",
                                      unchanged=False, evidence=None)
    assert (sent.route, sent.round, sent.reason) == ("refine", 2, "Area Chair alice: assert the id")
    same = routing.chair_refine_route(case, sent, chair="alice", note="assert the id",
                                      unchanged=True, evidence=passed(2))
    assert (same.route, same.discard_reason) == ("discarded", "low_quality")
    assert same.reason.endswith("the refiner could not change the test")
