"""Area Chair core, pure: which decision applies to which case version, what is stale, what a
case's state is, validating a decision, and the queue's triage order. No I/O.

A decision names the version it was made on: (case id, round, hash of the test code, input hash
of the task). It applies only to exactly that version, so a rebuilt task (new input hash) or a
changed test never inherits a decision its chair did not see; such a decision is *stale*.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from pipeline.records import RUBRIC_DIMENSIONS, Scores, TestCase


class ChairError(ValueError):
    """A decision or command the chair must correct; the message is one line saying how."""


class Verdict(enum.StrEnum):
    ACCEPT = "accept"
    REJECT = "reject"
    REFINE = "refine"


@dataclass(frozen=True)
class CaseVersion:
    case_id: str
    round: int
    code_hash: str
    input_hash: str

    @property
    def token(self) -> str:
        """What a page sends back so an outdated submission can be refused."""
        return f"{self.round}:{self.code_hash}:{self.input_hash}"


def code_hash(case: TestCase) -> str:
    """Hash of everything that makes the test what it is (code, its module prelude, class)."""
    digest = hashlib.sha256()
    for part in (case.code, case.prelude, case.test_class):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:16]


def case_version(case: TestCase, input_hash: str) -> CaseVersion:
    return CaseVersion(case.case_id, case.round, code_hash(case), input_hash)


def matches(decision: object, version: CaseVersion) -> bool:
    """True when a stored decision was made on exactly this version."""
    return (getattr(decision, "case_id", None) == version.case_id
            and getattr(decision, "round", None) == version.round
            and getattr(decision, "code_hash", None) == version.code_hash
            and getattr(decision, "input_hash", None) == version.input_hash)


def effective(decisions: Sequence[object], version: CaseVersion) -> object | None:
    """The latest decision (by id, i.e. submission order) made on this version, or None."""
    mine = [d for d in decisions if matches(d, version)]
    return max(mine, key=lambda d: getattr(d, "id", 0)) if mine else None


def stale(decisions: Iterable[object], versions: dict[int, str], input_hash: str) -> list:
    """Decisions whose version no longer exists: another task input, a round that is gone or
    holds other code now, or an old decision that never named its version."""
    out = []
    for d in decisions:
        current = versions.get(getattr(d, "round", -1))
        if (getattr(d, "input_hash", None) != input_hash or current is None
                or getattr(d, "code_hash", None) != current):
            out.append(d)
    return out


def case_state(route: str | None, discard_reason: str | None, decision: str | None) -> str:
    """One word for where a case stands: accepted, chair_accepted, chair_rejected, waiting,
    chair_refine (sent back, the next build refines it), refining, discarded:<reason>."""
    if route == "area_chair":
        return {"accept": "chair_accepted", "reject": "chair_rejected",
                "refine": "chair_refine"}.get(decision or "", "waiting")
    if route == "discarded":
        return f"discarded:{discard_reason or 'unspecified'}"
    if route == "refine":
        return "refining"
    return route or "pending"


def parse_decision(accept: str | None, reject: str | None, refine: str | None,
                   ranges: dict[str, tuple[int, int]]) -> tuple[Verdict, Scores | None, str]:
    """Exactly one of accept ("C,V,R,L" scores), reject (reason) or refine (note), checked
    against the rubric's `ranges`; returns (verdict, scores, note)."""
    given = [(v, x) for v, x in ((Verdict.ACCEPT, accept), (Verdict.REJECT, reject),
                                 (Verdict.REFINE, refine)) if x is not None]
    if len(given) != 1:
        raise ChairError("give exactly one of --accept C,V,R,L, --reject REASON or "
                         "--refine NOTE")
    verdict, value = given[0]
    if verdict is Verdict.ACCEPT:
        return verdict, parse_scores(value, ranges), ""
    if not value.strip():
        what = "reason" if verdict is Verdict.REJECT else "note"
        raise ChairError(f"{verdict.value} needs a {what}: say why in a sentence")
    return verdict, None, value.strip()


def parse_scores(text: str, ranges: dict[str, tuple[int, int]]) -> Scores:
    """"C,V,R,L" (correctness, coverage, readability, relevance) within the rubric ranges."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != len(RUBRIC_DIMENSIONS) or not all(p.lstrip("-").isdigit() for p in parts):
        raise ChairError(f"accept scores {text!r}: give four integers C,V,R,L "
                         f"({', '.join(RUBRIC_DIMENSIONS)}), e.g. 3,2,2,2")
    values = dict(zip(RUBRIC_DIMENSIONS, (int(p) for p in parts), strict=True))
    for key, value in values.items():
        lo, hi = ranges[key]
        if not lo <= value <= hi:
            raise ChairError(f"accept scores: {key} {value} is outside the rubric's "
                             f"{lo}-{hi}; see rubrics/rubric.yaml")
    try:
        return Scores(**values)
    except ValidationError as exc:  # the rubric and Scores agree; kept as a guard
        raise ChairError(f"accept scores: {exc.errors()[0]['msg']}") from None


# --- triage -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TriageInput:
    case_id: str
    totals: dict[str, int]  # reviewer → total (valid reviews only)
    passed: bool = True  # every oracle run passed
    killed: int = 0  # mutants this case kills
    valid_mutants: int = 0  # mutants that ran


@dataclass(frozen=True)
class Triage:
    priority: float
    reason: str
    mean: float | None
    spread: int | None


OUTLIER_GAP = 3  # one reviewer at least this far from the nearer of the other two ...
PAIR_GAP = 1  # ... while those two agree within this
KILLS_AGAINST = 2  # this many kills with a failing mean: the evidence contradicts the reviewers


def triage(item: TriageInput, *, accept_mean: float) -> Triage:
    """Why a chair should look at this case first, and how urgently (higher first).

    Signals, strongest first: execution evidence against the reviewers (kills mutants but the
    mean fails, or passes while killing none yet the mean accepts), one reviewer far from the
    other two, and the spread itself (the base of the priority)."""
    totals = sorted(item.totals.items(), key=lambda kv: (kv[1], kv[0]))
    values = [t for _, t in totals]
    if not values:
        return Triage(100.0, "no valid reviews: only a chair can judge it", None, None)
    mean = sum(values) / len(values)
    spread = values[-1] - values[0]
    reasons: list[str] = []
    priority = float(spread)
    if item.passed and item.killed >= KILLS_AGAINST and mean < accept_mean:
        reasons.append(f"evidence against the reviewers: kills {item.killed} of "
                       f"{item.valid_mutants} mutants but mean {mean:.1f} < {accept_mean:g}")
        priority += 3
    elif item.passed and item.valid_mutants and not item.killed and mean >= accept_mean:
        reasons.append(f"evidence against the reviewers: kills none of {item.valid_mutants} "
                       f"mutants but mean {mean:.1f} >= {accept_mean:g}")
        priority += 3
    if len(values) == 3:
        low, high = values[1] - values[0], values[2] - values[1]
        if low >= OUTLIER_GAP and high <= PAIR_GAP:
            name, far = totals[0][0], (values[1] + values[2]) / 2 - values[0]
            reasons.append(f"{name} is {far:g} below the other two")
            priority += 1
        elif high >= OUTLIER_GAP and low <= PAIR_GAP:
            name, far = totals[2][0], values[2] - (values[0] + values[1]) / 2
            reasons.append(f"{name} is {far:g} above the other two")
            priority += 1
    shown = ", ".join(str(v) for v in values)
    reasons.append(f"spread {spread} (totals {shown})")
    return Triage(priority, "; ".join(reasons), round(mean, 2), spread)


def triage_order(items: Sequence[tuple[str, Triage]]) -> list[tuple[str, Triage]]:
    """Highest priority first, then the larger spread, then case id (deterministic)."""
    return sorted(items, key=lambda it: (-it[1].priority, -(it[1].spread or 0), it[0]))


def agrees(verdict: str, reviewers_mean: float | None, *, accept_mean: float) -> bool | None:
    """Did an accept/reject agree with the reviewers' mean ≥ 7? None for refine/no mean."""
    if reviewers_mean is None or verdict not in ("accept", "reject"):
        return None
    return (verdict == "accept") == (reviewers_mean >= accept_mean - 1e-9)
