"""Routing: where a reviewed test-case version goes next, and why. Pure, no I/O.

The order of the checks is the life cycle of docs/design.md, and it matters:
1. the execution gate first — a test that does not pass on the oracle (every run passed) is
   wrong or flaky whatever the reviewers think, so it is refined with the failure, and
   discarded as `fails_on_oracle` once the round budget is spent; a test that passes there
   but fails on an independent correct implementation of the document (an alternative) asserts
   what the document does not state: a generated one is refined with that failure and
   discarded as `over_specified` once the budget is spent; a human-written one goes to the
   Area Chair with the evidence (verified) or is discarded as `over_specified` (train);
2. three valid reviews are needed before the numbers mean anything — with fewer, a verified
   case goes to the Area Chair and a train case (no Area Chair there) is discarded `invalid`;
3. reviewers who disagree by more than `conflict_spread` points go to the Area Chair
   (verified) or are discarded as `conflict` (train);
4. consistent and mean >= `accept_mean` → accepted; below → refine, and discarded as
   `low_quality` once the round budget is spent.

A refine that hands back the very same test would only repeat its round, so such a case is
discarded at once (`unchanged_refine`), with the reason it was sent to refine.

Rounds count from 0 (the generated version); `round >= max_rounds` means no refine is left.
`split` is the split actually assigned: an `auto` task is routed as whatever it resolved to.

The thresholds are the rubric's `routing` block (`rubrics/rubric.yaml`, read through
`pipeline.rubric`) and the number of reviewers is the backend's: this module holds no copy of
either, so editing the rubric changes what is accepted, not only what reviewers are told.
`failing_is_rejected: false` lets the reviewers alone decide a case that fails on the oracle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.records import Evidence, Review, RouteDecision, TestCase
from pipeline.rubric import Routing

_OUTPUT_CHARS = 160
OVER_SPECIFIED = "over-specified"  # how a route's reason starts when an alternative stopped it


@dataclass(frozen=True)
class Panel:
    """What every case of a build is routed by: the rubric's routing block and how many
    reviews the backend gives each case version."""

    rules: Routing
    reviewers: int


def route_case(
    evidence: Evidence | None,
    reviews: list[Review],
    round: int,
    split: str,
    *,
    panel: Panel,
    human: bool = False,
) -> RouteDecision:
    """Route one case version from its oracle evidence and its reviews (see module doc);
    `panel` holds the rubric's routing block and how many reviews the backend gives, `human`
    whether the case is human-written (imported from the task's tests)."""
    case_id = _checked_case_id(evidence, reviews, round, split)
    valid = _latest_valid(reviews)
    totals = [r.scores.total for r in valid if r.scores is not None]
    verdict = _Verdict(case_id, round, panel.rules.max_refine_rounds,
                       mean=sum(totals) / len(totals) if totals else None,
                       spread=max(totals) - min(totals) if totals else None)
    return (_execution_gate(evidence, split, human, panel.rules, verdict)
            or _by_reviews(reviews, totals, split, panel, verdict))


@dataclass(frozen=True)
class _Verdict:
    """Writes one case version's decision: its id, round, and the reviews' mean and spread."""

    case_id: str
    round: int
    max_rounds: int
    mean: float | None
    spread: int | None

    @property
    def last_round(self) -> bool:
        return self.round >= self.max_rounds

    @property
    def none_left(self) -> str:
        return f"no refine left (round {self.round} of {self.max_rounds})"

    def __call__(self, route: str, reason: str, discard: str | None = None) -> RouteDecision:
        return RouteDecision(case_id=self.case_id, round=self.round, route=route, reason=reason,
                             discard_reason=discard, mean=self.mean, spread=self.spread)


def _checked_case_id(evidence: Evidence | None, reviews: list[Review], round: int,
                     split: str) -> str:
    if split not in ("verified", "train"):
        raise ValueError(f"route a case with its resolved split (verified|train), not {split!r}")
    case_id = evidence.case_id if evidence is not None else _case_id(reviews)
    for r in reviews:
        if (r.case_id, r.round) != (case_id, round):
            raise ValueError(f"review of {r.case_id} round {r.round} given for {case_id} "
                             f"round {round}")
    return case_id


def _execution_gate(evidence: Evidence | None, split: str, human: bool, rules: Routing,
                    decide: _Verdict) -> RouteDecision | None:
    """Step 1: a failure on the oracle, then a failure on an alternative (None: neither)."""
    failure = _oracle_failure(evidence) if rules.failing_is_rejected else None
    if failure is not None:
        if decide.last_round:
            return decide("discarded", f"{failure}; {decide.none_left}", "fails_on_oracle")
        return decide("refine", failure)
    over = alternative_failure(evidence)
    if over is None:
        return None
    if human and split == "verified":
        return decide("area_chair", f"{over}; a human-written test: the Area Chair decides "
                      "whether the document states what it asserts")
    if human or decide.last_round:
        left = "train split has no Area Chair" if human else decide.none_left
        return decide("discarded", f"{over}; {left}", "over_specified")
    return decide("refine", over)


def _by_reviews(reviews: list[Review], totals: list[int], split: str, panel: Panel,
                decide: _Verdict) -> RouteDecision:
    """Steps 2 to 4: enough valid reviews, their agreement, then their mean."""
    rules = panel.rules
    n_valid = len(_latest_valid(reviews))
    if n_valid < panel.reviewers:
        why = _invalid_reason(reviews, n_valid, panel.reviewers)
        if split == "verified":
            return decide("area_chair", why)
        return decide("discarded", f"{why}; train split has no Area Chair", "invalid")
    shown = ", ".join(str(t) for t in totals)
    if max(totals) - min(totals) > rules.conflict_spread:
        why = f"spread {max(totals) - min(totals)} > {rules.conflict_spread} (totals {shown})"
        if split == "verified":
            return decide("area_chair", why)
        return decide("discarded", f"{why}; train split has no Area Chair", "conflict")
    accept_mean = rules.accept_mean
    average = sum(totals) / len(totals)
    if sum(totals) >= accept_mean * len(totals) - 1e-9:  # exact for integer totals
        return decide("accepted", f"mean {_num(average, accept_mean)} >= {_num(accept_mean)} "
                      f"(totals {shown})")
    why = f"mean {_num(average, accept_mean)} < {_num(accept_mean)} (totals {shown})"
    if decide.last_round:
        return decide("discarded", f"{why}; {decide.none_left}", "low_quality")
    return decide("refine", why)


@dataclass(frozen=True)
class CaseFacts:
    """What a case version's route depends on besides its evidence and reviews."""

    human: bool = False  # imported from the task's tests (human work: `keep_human`)
    refine_unchanged: bool = False  # a refine was asked and handed back the very same test
    beyond: Sequence[str] = ()  # human: mutants it kills that no accepted generated test kills
    shape_only: bool = False  # human: asserts only status codes, keys or types
    suspect_others: Sequence[Evidence] | None = None  # the task's other accepted cases'
    # evidence, when model-written implementations ran (`route_with_suspects`)


def decide(evidence: Evidence | None, reviews: list[Review], round: int, split: str, *,
           panel: Panel, facts: CaseFacts = CaseFacts()) -> RouteDecision:
    """The one decision of a case version's route: the build, `resplit` and every other
    writer of a route come here. `route_case` from the evidence and the reviews, then in
    order: a refine that changed nothing discards (`unchanged_refine`), human work is kept
    (`keep_human`), a credible model-written implementation sends to review
    (`route_with_suspects`)."""
    decision = route_case(evidence, reviews, round, split, panel=panel, human=facts.human)
    if facts.refine_unchanged and decision.route == "refine":
        decision = unchanged_refine(decision, evidence)
    if facts.human:
        decision = keep_human(decision, split, facts.beyond, reviews,
                              shape_only=facts.shape_only)
    if facts.suspect_others is not None:
        decision = route_with_suspects(decision, evidence, facts.suspect_others, split)
    return decision


PUBLISHED_FAILURE = ("fails on the oracle when run as the published suite (passes in the build "
                     "runs: it depends on state or on the cases run before it)")
PUBLISHED_HUMAN_FAILURE = ("fails on the oracle when run as the published suite (its file alone "
                           "against a fresh oracle, in file order, as its author ran it)")


def published_route(case_id: str, round: int, split: str, *, human: bool,
                    oracle_failure: str | None, alternative_failure: str | None
                    ) -> RouteDecision:
    """The route of an accepted case that fails once its suite is written out as published
    (no refine is left there): on the oracle it is discarded; passing on the oracle and
    failing on an alternative, a human-written one goes to the Area Chair on verified and any
    other is discarded as over-specified."""
    if oracle_failure is not None:
        return RouteDecision(case_id=case_id, round=round, route="discarded",
                             discard_reason="fails_on_oracle",
                             reason=f"{PUBLISHED_HUMAN_FAILURE if human else PUBLISHED_FAILURE}: "
                                    f"{oracle_failure}")
    reason = (f"{OVER_SPECIFIED} in the published suite: passes on the oracle, "
              f"{alternative_failure}")
    if human and split == "verified":
        return RouteDecision(case_id=case_id, round=round, route="area_chair",
                             reason=f"{reason}; a human-written test: the Area Chair decides "
                                    "whether the document states what it asserts")
    return RouteDecision(case_id=case_id, round=round, route="discarded",
                         discard_reason="over_specified", reason=reason)


def chair_refine_route(case: TestCase, before: RouteDecision | None, *, chair: str, note: str,
                       unchanged: bool, evidence: Evidence | None) -> RouteDecision:
    """The route of a case version an Area Chair sent back with `note`: refined with it, or
    discarded at once when the refine handed back the very same test (`unchanged_refine`)."""
    base = before or RouteDecision(case_id=case.case_id, round=case.round, route="area_chair",
                                   reason="")
    route = base.model_copy(update={"route": "refine", "discard_reason": None,
                                    "reason": f"Area Chair {chair}: {note}"})
    return unchanged_refine(route, evidence) if unchanged else route


def unchanged_refine(decision: RouteDecision, evidence: Evidence | None) -> RouteDecision:
    """The route of a case whose refine changed nothing: discarded now, not refined again."""
    failed = _oracle_failure(evidence) is not None
    over = not failed and alternative_failure(evidence) is not None
    return decision.model_copy(update={
        "route": "discarded",
        "reason": f"{decision.reason}; the refiner could not change the test",
        "discard_reason": "fails_on_oracle" if failed else
        "over_specified" if over else "low_quality",
    })


KEEPABLE = ("low_quality", "conflict", "invalid")
AS_AUTHOR_RAN = ("its file run alone against a fresh oracle, in file order, as its author "
                 "ran it")


def keep_human(decision: RouteDecision, split: str, beyond: Sequence[str],
               reviews: Sequence[Review] = (), *, shape_only: bool) -> RouteDecision:
    """A human-written test that passes on the oracle is never discarded by the reviewers:
    their low scores, disagreement or failures are about style or about themselves, and the
    test is human work. Discarded as low quality, conflict or invalid, it goes to the Area
    Chair (verified); on train, which has no Area Chair, it is accepted (its author stands in
    for the Area Chair). The reason says why it is worth keeping: the mutants it kills that no
    accepted generated test kills (`beyond`), or substance the reviewers find sound (mean
    correctness and coverage >= 2). Only a failure on the oracle, run as its author ran it,
    still discards it, and its reason says so.

    The other way round, a human-written test the reviewers accept that asserts only status
    codes, keys or types (`shape_only`, `pipeline.offline.strength`) and kills no mutant the
    accepted generated tests miss adds nothing a wrong value would fail: on verified the Area
    Chair decides whether it stays; on train its author stands in, it stays accepted."""
    if decision.route == "accepted" and shape_only and not beyond and split == "verified":
        return decision.model_copy(update={"route": "area_chair", "reason": (
            f"{decision.reason}; but it asserts only status codes, keys or types and kills no "
            "mutant the accepted generated tests miss (the Area Chair decides whether it "
            "stays)")})
    if decision.route != "discarded":
        return decision
    if decision.discard_reason == "fails_on_oracle":
        return decision.model_copy(update={"reason": f"{decision.reason} ({AS_AUTHOR_RAN})"})
    if decision.discard_reason not in KEEPABLE:
        return decision
    if beyond:
        shown = ", ".join(sorted(beyond)[:3]) + (f" and {len(beyond) - 3} more"
                                                 if len(beyond) > 3 else "")
        why = (f"kept: a human-written test that kills {len(beyond)} mutant"
               f"{'s' if len(beyond) != 1 else ''} no accepted generated test kills ({shown})")
    elif _sound(reviews):
        why = ("kept: a human-written test whose correctness and coverage the reviewers find "
               "sound; it is not discarded for style alone")
    else:
        why = ("kept: a human-written test that passes on the oracle is not discarded on the "
               "reviewers' scores alone")
    where = ("the Area Chair decides" if split == "verified"
             else "accepted: train has no Area Chair, its human author stands in")
    route = "area_chair" if split == "verified" else "accepted"
    return decision.model_copy(update={"route": route, "reason": f"{decision.reason}; {why} "
                                       f"({where})", "discard_reason": None})


def _sound(reviews: Sequence[Review]) -> bool:
    scores = [r.scores for r in _latest_valid(reviews) if r.scores is not None]
    if not scores:
        return False
    n = len(scores)
    return (sum(s.correctness for s in scores) >= 2 * n
            and sum(s.coverage for s in scores) >= 2 * n)


def _case_id(reviews: Sequence[Review]) -> str:
    if not reviews:
        raise ValueError("route_case needs evidence or at least one review to know the case")
    return reviews[0].case_id


def _latest_valid(reviews: Sequence[Review]) -> list[Review]:
    """One review per reviewer (the last given wins): a retried reviewer is not a second
    independent opinion. Reviews without scores are the reviewer's failure, not a vote."""
    by_reviewer = {r.reviewer: r for r in reviews}
    return [r for r in by_reviewer.values() if r.scores is not None]


def _oracle_failure(evidence: Evidence | None) -> str | None:
    """None when every run passed on the oracle, else a sentence naming the failure."""
    if evidence is None:
        return "not executed on the oracle (no evidence)"
    if not evidence.runs:
        return "not executed on the oracle (no runs recorded)"
    if evidence.passed:
        return None
    n = len(evidence.runs)
    bad = [(i, r) for i, r in enumerate(evidence.runs, 1) if r.outcome != "passed"]
    i, first = bad[0]
    detail = _last_line(first.output)
    where = f"run {i} of {n}: {first.outcome}" + (f": {detail}" if detail else "")
    if len(bad) < n:
        return f"flaky on the oracle: passed {n - len(bad)} of {n} runs ({where})"
    return f"fails on the oracle ({where})"


def alternative_failure(evidence: Evidence | None) -> str | None:
    """None unless the case passes on the oracle and fails on an alternative; then a sentence
    naming the alternatives and the first failure."""
    bad = evidence.rejects_alternative if evidence is not None else []
    if not bad:
        return None
    names = ", ".join(repr(a.name) for a in bad)
    detail = _last_line(bad[0].output)
    return (f"{OVER_SPECIFIED}: passes on the oracle, {bad[0].outcome} on the independent correct "
            f"implementation{'s' if len(bad) > 1 else ''} {names}"
            + (f" ({detail})" if detail else ""))


SUSPECT = "suspect"  # how a route's reason starts when a model-written implementation sent it
SUSPECT_CREDIBLE = 0.9  # share of the task's other accepted cases a suspect must pass
SUSPECT_MINIMUM = 5  # other accepted cases run on it, fewer is too few to judge it by


def suspect_failure(evidence: Evidence | None, others: Sequence[Evidence]) -> str | None:
    """None unless the case passes on the oracle and fails on a model-written implementation
    (`build --alternatives K`) that passes at least `SUSPECT_CREDIBLE` of `others` (the task's
    other accepted cases, at least `SUSPECT_MINIMUM` of them run on it); then why."""
    for run in evidence.fails_on_suspects if evidence is not None else []:
        ran = [a for ev in others for a in ev.alternatives if a.suspect and a.name == run.name]
        passed = sum(a.outcome == "passed" for a in ran)
        if len(ran) >= SUSPECT_MINIMUM and passed >= SUSPECT_CREDIBLE * len(ran):
            detail = _last_line(run.output)
            return (f"{SUSPECT}: passes on the oracle, {run.outcome} on {run.name!r}, an "
                    f"implementation the generator model wrote from the README that passes "
                    f"{passed} of the task's {len(ran)} other accepted cases"
                    + (f" ({detail})" if detail else ""))
    return None


def route_with_suspects(decision: RouteDecision, evidence: Evidence | None,
                        others: Sequence[Evidence], split: str) -> RouteDecision:
    """An accepted case a credible suspect fails goes to review with that evidence: the Area
    Chair on verified; on train (no Area Chair) the reviewers, who saw the runs, decided.
    A suspect never discards a case: it is a model's reading, not a reference."""
    if decision.route != "accepted":
        return decision
    why = suspect_failure(evidence, others)
    if why is None:
        return decision
    if split == "verified":
        return decision.model_copy(update={
            "route": "area_chair",
            "reason": f"{why}; the Area Chair decides whether the document states what it "
                      f"asserts ({decision.reason})"})
    return decision.model_copy(update={
        "reason": f"{decision.reason}; {why} (train: the reviewers saw the runs)"})


def _last_line(output: str) -> str:
    """The most telling line of pytest output: the last `E ` assertion line, else the last."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("E ")]
    line = (errors or lines or [""])[-1]
    return line if len(line) <= _OUTPUT_CHARS else line[: _OUTPUT_CHARS - 1] + "…"


def _invalid_reason(reviews: Sequence[Review], n_valid: int, needed: int) -> str:
    failed = [r for r in {r.reviewer: r for r in reviews}.values() if r.scores is None]
    named = "; ".join(f"{r.reviewer} failed" + (f" ({r.error})" if r.error else "")
                      for r in failed)
    missing = needed - n_valid - len(failed)
    parts = [named] if named else []
    if missing > 0:
        parts.append(f"{missing} review{'s' if missing > 1 else ''} missing")
    return f"only {n_valid} of {needed} valid reviews: " + "; ".join(parts)


def _num(x: float, threshold: float | None = None) -> str:
    """Short decimal for a reason; with a threshold, enough digits that the shown number
    stays on the same side of it (6.99 is never printed as "7" next to "< 7")."""
    for digits in (1, 2, 3, 6):
        shown = float(f"{x:.{digits}f}")
        if threshold is None or (shown >= threshold) == (x >= threshold - 1e-9):
            break
    text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return text or "0"
