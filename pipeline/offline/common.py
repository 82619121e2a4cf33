"""Shared helpers for the offline reviewers (pure)."""

from __future__ import annotations

from pipeline.offline.endpoints import Target, parse_target
from pipeline.offline.facts import CodeFacts
from pipeline.records import Evidence, Review, Scores, Spec, TestCase
from pipeline.rubric import Rubric


def make_review(case: TestCase, reviewer: str, rubric: Rubric, scores: dict[str, int],
                sentences: list[str]) -> Review:
    """A Review with every score clamped to the rubric's range and a 1-3 sentence rationale."""
    clamped = {k: rubric.clamp(k, v) for k, v in scores.items()}
    return Review(
        case_id=case.case_id,
        round=case.round,
        reviewer=reviewer,
        scores=Scores(**clamped),
        rationale=rationale(sentences) + answer_sentence(case, reviewer),
        rubric_hash=rubric.hash,
    )


def answer_sentence(case: TestCase, reviewer: str) -> str:
    """The refiner's answer to this reviewer's review of the previous version, as read beside
    the code (the rebuttal); "" for a first version or when the answer was to another."""
    answer = next((a for a in case.rebuttal if a.reviewer == reviewer), None)
    if answer is None:
        return ""
    text = f" Refiner's answer read: changed {answer.changed or 'nothing for this review'}"
    if answer.disagree:
        text += f"; disagrees: {answer.disagree}"
    return text.rstrip(".") + "."


def rationale(sentences: list[str]) -> str:
    parts = [s.strip().rstrip(".") + "." for s in sentences if s and s.strip()][:3]
    return " ".join(parts)


def declared_targets(case: TestCase) -> list[Target]:
    out: list[Target] = []
    for text in case.endpoints:
        t = parse_target(text)
        if t and t not in out:
            out.append(t)
    return out


def listing(items: list[str], limit: int = 4, conj: str = "and") -> str:
    """'a, b and c' / 'a, b, c, d and 2 more' (or 'none')."""
    if not items:
        return "none"
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" {conj} {len(items) - limit} more"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {conj} " + items[-1]


def failed_on_oracle(evidence: Evidence | None) -> bool:
    """The runs show the test does not pass on the oracle (the rubric: correctness 0)."""
    return evidence is not None and bool(evidence.runs) and not evidence.passed


FAILED_NOTE = "; the runs show it does not pass on the oracle, so correctness is 0 by the rubric"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def error_status_test(case: TestCase, facts: CodeFacts) -> bool:
    """An error or edge case whose core is an exact 4xx status (the heart of an error contract).

    Such a test is not "status only = weak" the way a success test is: an exact documented 4xx
    catches a wrong implementation; the error body adds to it when the document describes one.
    """
    return case.category in ("error_handling", "edge_case") and any(
        not c.permissive and any(400 <= code < 500 for code in c.codes) for c in facts.checks)


def error_body_documented(spec: Spec) -> bool:
    """Whether the document describes error bodies (a format or an example for a 4xx)."""
    return spec.error_format is not None or any(
        code >= 400 for ep in spec.endpoints for code in ep.response_examples)
