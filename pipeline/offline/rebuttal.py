"""The offline refiner's answer to each review: what it changed, and where it disagrees.

The paper's loop is a review-rebuttal: the refiner answers the reviewers and the next
reviewers read that answer beside the code. Offline, an action answers a review when the
review named what it repairs (a failure on the oracle answers every review; added body
assertions answer a review that called the test status- or shape-only; removed sleeps answer
one that named them). The refiner disagrees only from evidence: a review that scored a test
as unable to pass (correctness 0) while every run passed on the oracle, or as unable to fail
(correctness <= 1, "cannot fail", "checks nothing") while it killed mutants of the oracle.
Pure: records in, `Answer`s out.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from pipeline.records import Answer, Evidence, Review

_CANNOT_FAIL = re.compile(r"cannot fail|checks nothing|proves nothing|no assertion", re.I)
_MAX = 240


@dataclass(frozen=True)
class Action:
    """One repair the refiner made, and the review words it answers (None: every review)."""

    what: str
    answers: re.Pattern[str] | None = None


def code_change(old: str, new: str, limit: int = 2) -> str:
    """'removed `x`; added `y`' for the first lines that changed (for a failure repair)."""
    removed, added = [], []
    for line in difflib.ndiff(old.splitlines(), new.splitlines()):
        text = line[2:].strip()
        if not text:
            continue
        if line.startswith("- "):
            removed.append(f"`{text}`")
        elif line.startswith("+ "):
            added.append(f"`{text}`")
    parts = []
    if removed:
        parts.append("removed " + ", ".join(removed[:limit]) + (" ..." if len(removed) > limit
                                                                 else ""))
    if added:
        parts.append("added " + ", ".join(added[:limit]) + (" ..." if len(added) > limit
                                                             else ""))
    return "; ".join(parts)


def answers(reviews: list[Review], evidence: Evidence | None,
            actions: list[Action]) -> list[Answer]:
    """One answer per review (in the reviews' order), from the actions and the evidence."""
    out = []
    for review in reviews:
        done = [a.what for a in actions
                if a.answers is None or a.answers.search(review.rationale or "")]
        out.append(Answer(reviewer=review.reviewer, changed=_cut("; ".join(done)),
                          disagree=_cut(_disagreement(review, evidence))))
    return out


def _disagreement(review: Review, evidence: Evidence | None) -> str:
    if review.scores is None or evidence is None:
        return ""
    runs = len(evidence.runs)
    if review.scores.correctness == 0 and evidence.passed:
        return (f"correctness 0 says it does not pass, but it passed on the oracle in all "
                f"{runs} runs")
    m = evidence.mutation
    kills = len(m.killed) if m is not None and m.excluded is None else 0
    if kills and (review.scores.correctness == 0 or _CANNOT_FAIL.search(review.rationale)):
        return (f"it can fail and checks something: it kills {kills} of the oracle's "
                f"{m.valid if m else 0} mutants")
    return ""


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX else text[: _MAX - 1] + "…"
