"""Area Chair work over the store: the cases with the chair, deciding, and what each case's
state is once decisions apply. Every decision is checked and appended in one transaction, so
two chairs (or two tabs) can never both decide on what one of them saw."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pipeline.chair.core import (
    CaseVersion,
    ChairError,
    Triage,
    TriageInput,
    Verdict,
    case_state,
    case_version,
    code_hash,
    effective,
    stale,
    triage,
    triage_order,
)
from pipeline.chair.files import append_decision
from pipeline.records import Evidence, Review, RouteDecision, Scores, TestCase
from pipeline.rubric import load_rubric
from pipeline.spec.passages import Passage, case_passages
from pipeline.store import AreaChairDecision, Store, TaskRow

LEASE = timedelta(minutes=15)


def now_iso(at: datetime | None = None) -> str:
    return (at or datetime.now(UTC)).isoformat(timespec="milliseconds")


def rubric_ranges() -> dict[str, tuple[int, int]]:
    return {d.key: (d.min, d.max) for d in load_rubric().dimensions}


@dataclass
class CaseView:
    """Everything about one case's latest version that a chair decides on."""

    case: TestCase
    task: TaskRow
    route: RouteDecision | None
    version: CaseVersion
    decisions: list[AreaChairDecision]  # every decision ever made on this case id
    decision: AreaChairDecision | None  # the one that applies to this version
    stale: list[AreaChairDecision]
    reviews: list[Review] = field(default_factory=list)
    evidence: Evidence | None = None

    @property
    def state(self) -> str:
        route = self.route if self.route is not None and self.route.round == self.case.round \
            else None
        if route is None and self.route is not None:  # a refined version not yet reviewed
            return "refining"
        return case_state(route.route if route else None,
                          route.discard_reason if route else None,
                          self.decision.decision if self.decision else None)

    @property
    def with_chair(self) -> bool:
        return self.state in ("waiting", "chair_accepted", "chair_rejected", "chair_refine")

    def triage(self) -> Triage:
        mutation = self.evidence.mutation if self.evidence else None
        return triage(TriageInput(
            self.case.case_id,
            {r.reviewer: r.scores.total for r in self.reviews if r.scores is not None},
            passed=bool(self.evidence and self.evidence.passed),
            killed=len(mutation.killed) if mutation and mutation.excluded is None else 0,
            valid_mutants=mutation.valid if mutation else 0),
            accept_mean=load_rubric().routing.accept_mean)


def decision_input(task: TaskRow) -> str:
    """The task input a decision names: its own files (README, oracle, tests), not the
    pipeline version, so a pipeline upgrade keeps decisions while a README edit ends them."""
    return task.content_hash or task.input_hash or ""


def _view(store: Store, task: TaskRow, case: TestCase,
          decisions: list[AreaChairDecision] | None = None, full: bool = True) -> CaseView:
    version = case_version(case, decision_input(task))
    decisions = store.ac_decisions(case.case_id) if decisions is None else decisions
    versions = {v.round: code_hash(v) for v in store.case_versions(case.case_id)} if full \
        else {case.round: version.code_hash}
    view = CaseView(case, task, store.latest_route(case.case_id), version, decisions,
                    effective(decisions, version), stale(decisions, versions, version.input_hash))
    if full or (view.route is not None and view.route.route == "area_chair"):
        view.reviews = store.reviews_for(case.case_id, case.round)
        view.evidence = store.evidence_for(case.case_id, case.round)
    return view


def task_views(store: Store, task: TaskRow) -> list[CaseView]:
    """The latest version of every case of a task, with decisions applied."""
    by_case: dict[str, list[AreaChairDecision]] = {}
    for d in store.ac_decisions():
        by_case.setdefault(d.case_id, []).append(d)
    return [_view(store, task, c, by_case.get(c.case_id, []), full=False)
            for c in store.latest_cases(task.id)]


def chair_cases(store: Store, task_id: str | None = None) -> list[CaseView]:
    """Cases whose latest version the reviewers sent to the Area Chair (decided or not)."""
    out: list[CaseView] = []
    for task in store.tasks():
        if task_id is None or task.id == task_id:
            out.extend(v for v in task_views(store, task) if v.with_chair)
    return out


def load_case(store: Store, case_id: str) -> CaseView:
    for task in store.tasks():
        if case_id.startswith(f"{task.id}::"):
            versions = store.case_versions(case_id)
            if versions:
                return _view(store, task, versions[-1])
    raise ChairError(f"no case {case_id!r}; list the cases with `repogenesis chair queue`")


@dataclass
class QueueItem:
    view: CaseView
    triage: Triage
    claimed_by: str | None


def queue(store: Store, *, task_id: str | None = None, state: str = "waiting",
          search: str | None = None, at: datetime | None = None) -> list[QueueItem]:
    """Cases with the chair in triage order. `state`: waiting (undecided, incl. claimed),
    claimed, decided, stale (waiting, with a decision made on an older version) or all."""
    if state not in ("waiting", "claimed", "decided", "stale", "all"):
        raise ChairError(f"state {state!r}: use waiting, claimed, decided, stale or all")
    claims = store.chair_claims(now_iso(at))
    needle = (search or "").strip().lower()
    items = []
    for view in chair_cases(store, task_id):
        waiting = view.state == "waiting"
        claimed = claims.get(view.case.case_id, (None, ""))[0] if waiting else None
        if (state == "waiting" and not waiting) or (state == "claimed" and not claimed) or \
                (state == "decided" and waiting) or (state == "stale" and not
                                                     (waiting and view.stale)):
            continue
        if needle and needle not in _haystack(view):
            continue
        items.append(QueueItem(view, view.triage(), claimed))
    order = triage_order([(i.view.case.case_id, i.triage) for i in items])
    by_id = {i.view.case.case_id: i for i in items}
    return [by_id[case_id] for case_id, _ in order]


def _haystack(view: CaseView) -> str:
    return "\n".join([view.case.case_id, view.case.code, *(r.rationale for r in view.reviews)]
                     ).lower()


def counts(store: Store, at: datetime | None = None) -> dict[str, int]:
    claims = store.chair_claims(now_iso(at))
    views = chair_cases(store)
    waiting = [v for v in views if v.state == "waiting"]
    return {"waiting": len(waiting),
            "claimed": sum(v.case.case_id in claims for v in waiting),
            "decided": len(views) - len(waiting),
            "stale": sum(bool(v.stale) for v in waiting)}


def claim(store: Store, case_id: str, chair: str, at: datetime | None = None) -> str:
    """Lease the case to `chair` (renewed on every open); returns who holds it."""
    at = at or datetime.now(UTC)
    return store.claim_case(case_id, chair, now_iso(at), now_iso(at + LEASE))


@dataclass(frozen=True)
class Submission:
    """One decision as a chair submits it, with what their page showed when they did.

    `expected_version` / `expected_last` come from the page the chair saw: the version token
    and the id of the decision it showed (0 for none); any difference refuses the submission.
    `revise` lets a chair without a page (the CLI) add a newer decision over a standing one.
    """

    verdict: Verdict
    chair: str
    scores: Scores | None = None
    note: str = ""
    expected_version: str | None = None
    expected_last: int | None = None
    revise: bool = False


def decide(store: Store, data_dir: Path, case_id: str, sub: Submission,
           *, at: datetime | None = None) -> AreaChairDecision:
    """Check and append one decision in one transaction, then write it to decisions.jsonl."""
    if sub.verdict is Verdict.ACCEPT and sub.scores is None:
        raise ChairError("accept needs the chair's four rubric scores C,V,R,L")
    if sub.verdict is not Verdict.ACCEPT and not sub.note.strip():
        raise ChairError(f"{sub.verdict.value} needs a "
                         f"{'reason' if sub.verdict is Verdict.REJECT else 'note'}")
    now = now_iso(at)
    with store.transaction():
        view = load_case(store, case_id)
        _check_unchanged(case_id, view, sub)
        claims = store.chair_claims(now)
        holder, opened = claims.get(case_id, (sub.chair, None))
        if holder != sub.chair:
            raise ChairError(f"{case_id} is claimed by {holder} until their lease ends; "
                             f"pick another case")
        decision_id = store.add_ac_decision(
            case_id, view.case.round, sub.verdict.value, chair=sub.chair, scores=sub.scores,
            note=sub.note, submitted_at=now, task_id=view.task.id,
            code_hash=view.version.code_hash, input_hash=view.version.input_hash,
            state_before=view.state, opened_at=opened)
        store.release_claim(case_id)
    stored = next(d for d in store.ac_decisions(case_id) if d.id == decision_id)
    append_decision(data_dir, stored)
    return stored


def _check_unchanged(case_id: str, view: CaseView, sub: Submission) -> None:
    """ChairError unless the case is with the chair and still what the page showed."""
    if not view.with_chair:
        raise ChairError(f"{case_id} is not with the Area Chair (its state is "
                         f"{view.state}); nothing to decide")
    if sub.expected_version is not None and sub.expected_version != view.version.token:
        raise ChairError(f"{case_id} changed since the page was opened (now round "
                         f"{view.case.round}); reload it and decide on what is shown")
    current = view.decision
    if sub.expected_last is not None and (current.id if current else 0) != sub.expected_last:
        who = f"{current.decision} by {current.chair} at {current.submitted_at}" \
            if current else "withdrawn"
        raise ChairError(f"{case_id} was already decided ({who}) after the page was "
                         f"opened; reload it: nothing was overwritten")
    if current is not None and sub.expected_last is None and not sub.revise:
        raise ChairError(f"{case_id} is already decided ({current.decision} by "
                         f"{current.chair}); pass --revise to add a newer decision")


def case_json(view: CaseView) -> dict[str, Any]:
    """A case as `chair show --json` and `queue --json` print it."""
    t = view.triage()
    return {
        "case_id": view.case.case_id, "task": view.task.id, "round": view.case.round,
        "category": view.case.category, "endpoints": view.case.endpoints,
        "state": view.state, "mean": t.mean, "spread": t.spread, "triage": t.reason,
        "version": view.version.token,
        "decision": decision_json(view.decision) if view.decision else None,
        "stale": [decision_json(d) for d in view.stale],
    }


def readme_passages(data_dir: Path, view: CaseView) -> list[Passage]:
    """The requirement document's passages on the case's endpoints and on each literal its
    assertions compare with (a literal the document does not state is listed as such)."""
    readme = data_dir / "raw" / view.task.id / "README.md"
    if not readme.is_file():
        return []
    return case_passages(readme.read_text(encoding="utf-8"), view.task.spec,
                         list(view.case.endpoints), view.case.code)


def passage_json(p: Passage) -> dict[str, Any]:
    return {"kind": p.kind, "about": p.about, "stated": p.stated,
            "lines": [{"line": n, "text": t} for n, t in p.lines], "more": p.more,
            "within": list(p.within)}


def decision_json(d: AreaChairDecision) -> dict[str, Any]:
    return {"id": d.id, "decision": d.decision, "chair": d.chair, "note": d.note,
            "scores": d.scores.model_dump() if d.scores else None, "round": d.round,
            "submitted_at": d.submitted_at}
