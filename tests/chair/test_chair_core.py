"""The pure Area Chair core with hand-worked values: version matching, staleness, states,
decision parsing against the rubric ranges, triage order, agreement."""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace as D

import pytest

from pipeline.chair import core
from pipeline.chair.core import (
    CaseVersion,
    ChairError,
    TriageInput,
    Verdict,
    case_state,
    code_hash,
    effective,
    parse_decision,
    stale,
    triage_order,
)
from pipeline.records import TestCase as Case

ACCEPT = 7.0  # the rubric's routing.accept_mean, which the service passes
triage = partial(core.triage, accept_mean=ACCEPT)
agrees = partial(core.agrees, accept_mean=ACCEPT)

RANGES = {"correctness": (0, 3), "coverage": (0, 3), "readability": (0, 2), "relevance": (0, 2)}
V = CaseVersion("t::a", 1, "code1", "in1")


def dec(id: int, decision: str = "accept", round: int = 1, code: str | None = "code1",
        inp: str | None = "in1", case: str = "t::a") -> D:
    return D(id=id, case_id=case, round=round, decision=decision, code_hash=code,
             input_hash=inp)


def test_code_hash_covers_code_prelude_and_class_only() -> None:
    a = Case(case_id="t::a", task_id="t", round=0, category="edge_case", name="a", code="x")
    assert code_hash(a) == code_hash(a.model_copy(update={"round": 3, "author": "h"}))
    assert code_hash(a) != code_hash(a.model_copy(update={"code": "y"}))
    assert code_hash(a) != code_hash(a.model_copy(update={"prelude": "import os"}))
    assert code_hash(a) != code_hash(a.model_copy(update={"test_class": "class T: ..."}))


def test_the_latest_decision_on_exactly_this_version_applies() -> None:
    decisions = [dec(1, "reject"), dec(2, "accept"), dec(3, "refine", inp="in0"),
                 dec(4, "reject", code="other"), dec(5, "reject", round=0),
                 dec(6, "reject", case="t::b")]
    assert effective(decisions, V).id == 2
    assert effective([dec(3, inp="in0"), dec(4, code="other")], V) is None
    assert effective([], V) is None


def test_decisions_without_a_version_are_never_applied_and_are_stale() -> None:
    legacy = dec(1, code=None, inp=None)
    assert effective([legacy], V) is None
    assert stale([legacy], {1: "code1"}, "in1") == [legacy]


def test_stale_means_the_version_is_gone() -> None:
    current, older_round = dec(1), dec(2, round=0, code="code0")
    other_input, gone_round, changed = dec(3, inp="in0"), dec(4, round=7), dec(5, code="zz")
    versions = {0: "code0", 1: "code1"}
    found = stale([current, older_round, other_input, gone_round, changed], versions, "in1")
    assert [d.id for d in found] == [3, 4, 5]  # an earlier round that still exists is history


@pytest.mark.parametrize(("route", "reason", "decision", "state"), [
    ("area_chair", None, None, "waiting"),
    ("area_chair", None, "accept", "chair_accepted"),
    ("area_chair", None, "reject", "chair_rejected"),
    ("area_chair", None, "refine", "chair_refine"),
    ("accepted", None, "reject", "accepted"),  # decisions only act on chair cases
    ("discarded", "conflict", None, "discarded:conflict"),
    ("refine", None, None, "refining"),
    (None, None, None, "pending"),
])
def test_case_state(route, reason, decision, state) -> None:
    assert case_state(route, reason, decision) == state


def test_parse_decision_accept_reject_refine() -> None:
    verdict, scores, note = parse_decision("3, 2,1,0", None, None, RANGES)
    assert verdict is Verdict.ACCEPT and scores.total == 6 and note == ""
    assert parse_decision(None, " wrong endpoint ", None, RANGES) == (
        Verdict.REJECT, None, "wrong endpoint")
    assert parse_decision(None, None, "assert the body", RANGES)[0] is Verdict.REFINE


@pytest.mark.parametrize(("args", "message"), [
    ((None, None, None), "exactly one of"),
    (("3,2,2,2", "bad", None), "exactly one of"),
    (("3,2,2", None, None), "four integers"),
    (("3,2,x,2", None, None), "four integers"),
    (("4,2,2,2", None, None), "correctness 4 is outside the rubric's 0-3"),
    (("3,2,2,3", None, None), "relevance 3 is outside the rubric's 0-2"),
    ((None, "  ", None), "reject needs a reason"),
    ((None, None, ""), "refine needs a note"),
])
def test_parse_decision_refuses_with_one_line(args, message) -> None:
    with pytest.raises(ChairError, match=message) as err:
        parse_decision(*args, RANGES)
    assert "\n" not in str(err.value)


def test_triage_evidence_against_reviewers_outranks_a_bigger_spread() -> None:
    # totals 3, 8, 9: spread 6, execution 5.5 below the other two, 3 kills but mean 6.67
    a = triage(TriageInput("t::a", {"x": 3, "y": 8, "z": 9}, killed=3, valid_mutants=5))
    assert a.priority == 6 + 3 + 1 and a.mean == 6.67 and a.spread == 6
    assert a.reason == ("evidence against the reviewers: kills 3 of 5 mutants but mean 6.7 < 7; "
                        "x is 5.5 below the other two; spread 6 (totals 3, 8, 9)")
    # totals 2, 6, 10: spread 8, no outlier pattern, no evidence signal
    b = triage(TriageInput("t::b", {"x": 2, "y": 6, "z": 10}, killed=1, valid_mutants=5))
    assert b.priority == 8 and b.reason == "spread 8 (totals 2, 6, 10)"
    # totals 6, 6, 10: the high reviewer is 4 above; passes, kills nothing, mean 7.33
    c = triage(TriageInput("t::c", {"x": 6, "y": 6, "z": 10}, killed=0, valid_mutants=4))
    assert c.priority == 4 + 3 + 1
    assert "kills none of 4 mutants but mean 7.3 >= 7" in c.reason
    assert "z is 4 above the other two" in c.reason
    order = triage_order([("t::b", b), ("t::c", c), ("t::a", a)])
    assert [cid for cid, _ in order] == ["t::a", "t::b", "t::c"]  # 10, then 8 (spread 8 > 4)


def test_triage_failing_case_gets_no_evidence_signal_and_no_reviews_go_first() -> None:
    t = triage(TriageInput("t::a", {"x": 1, "y": 6}, passed=False, killed=4, valid_mutants=5))
    assert t.priority == 5 and t.reason == "spread 5 (totals 1, 6)"
    assert triage(TriageInput("t::b", {})).priority == 100


def test_agreement_with_the_reviewers_mean() -> None:
    assert agrees("accept", 7.0) is True and agrees("accept", 6.67) is False
    assert agrees("reject", 6.67) is True and agrees("reject", 8) is False
    assert agrees("refine", 8) is None and agrees("accept", None) is None
