"""Who writes and who reviews: the one seam between the build loop and the models.

The build loop calls a Backend; `offline` is the deterministic default, and an LLM backend
(pipeline/llm) fills the same three roles with provider calls. Nothing else in the loop
knows which one it is talking to.
"""

from __future__ import annotations

from typing import Protocol

from pipeline.records import Evidence, Review, Spec, TestCase
from pipeline.rubric import Rubric


class Backend(Protocol):
    name: str  # "offline" or e.g. "llm"
    reviewer_count: int  # reviews per case version; the router needs this many valid ones

    def generate(self, task_id: str, spec: Spec, readme: str) -> list[TestCase]:
        """Round-0 test cases for one task."""
        ...

    def review(self, case: TestCase, evidence: Evidence | None, spec: Spec, readme: str,
               rubric: Rubric) -> list[Review]:
        """Three reviews (one per reviewer) of one case version; a failed review has
        `scores=None` and an `error`, never a made-up score."""
        ...

    def refine(self, case: TestCase, evidence: Evidence | None, reviews: list[Review],
               spec: Spec, readme: str, note: str | None = None) -> TestCase:
        """The next version of a case (round + 1), repairing what the evidence names."""
        ...

    def review_many(self, items: list[tuple[TestCase, Evidence | None]], spec: Spec,
                    readme: str, rubric: Rubric) -> list[list[Review]]:
        """`review` of every case of a round, in order (a model backend sends them at once)."""
        ...

    def refine_many(self, items: list[tuple[TestCase, Evidence | None, list[Review],
                                            str | None]], spec: Spec,
                    readme: str) -> list[TestCase]:
        """`refine` of every (case, evidence, reviews, note) of a round, in order."""
        ...

    def prefetch_reviews(self, items: list[tuple[TestCase, Evidence | None]], spec: Spec,
                         readme: str, rubric: Rubric) -> None:
        """Batch mode: answer a round's reviews in provider batch jobs first (then cached)."""
        ...

    def prefetch_refines(self, items: list[tuple[TestCase, Evidence | None, list[Review],
                                                 str | None]], spec: Spec,
                         readme: str) -> None:
        """Batch mode: the same for a round's refines."""
        ...

    writes_implementations: bool  # whether `implement` can (a model can; offline cannot)

    def implement(self, task_id: str, spec: Spec, readme: str,
                  count: int) -> list[dict[str, str] | None]:
        """`count` implementations of the README written from it alone, each as its files
        (path -> content), None where one could not be written (`build --alternatives K`)."""
        ...


class OfflineBackend:
    """Spec-driven generator, three evidence-based reviewers, evidence-driven refine."""

    name = "offline"
    reviewer_count = 3  # execution, static analysis, spec alignment (offline.REVIEWERS)

    def generate(self, task_id: str, spec: Spec, readme: str) -> list[TestCase]:
        from pipeline.offline.generate import generate_cases

        return generate_cases(task_id, spec)

    def review(self, case: TestCase, evidence: Evidence | None, spec: Spec, readme: str,
               rubric: Rubric) -> list[Review]:
        from pipeline.offline import review_all

        return review_all(case, evidence, spec, rubric)

    def refine(self, case: TestCase, evidence: Evidence | None, reviews: list[Review],
               spec: Spec, readme: str, note: str | None = None) -> TestCase:
        from pipeline.offline.refine import refine_case

        return refine_case(case, evidence, reviews, spec, note)

    def review_many(self, items: list[tuple[TestCase, Evidence | None]], spec: Spec,
                    readme: str, rubric: Rubric) -> list[list[Review]]:
        return [self.review(case, ev, spec, readme, rubric) for case, ev in items]

    def refine_many(self, items: list[tuple[TestCase, Evidence | None, list[Review],
                                            str | None]], spec: Spec,
                    readme: str) -> list[TestCase]:
        return [self.refine(c, ev, rv, spec, readme, note=note) for c, ev, rv, note in items]

    def prefetch_reviews(self, items: list[tuple[TestCase, Evidence | None]], spec: Spec,
                         readme: str, rubric: Rubric) -> None:
        return None  # nothing to batch: the offline reviewers answer at once

    def prefetch_refines(self, items: list[tuple[TestCase, Evidence | None, list[Review],
                                                 str | None]], spec: Spec,
                         readme: str) -> None:
        return None

    writes_implementations = False  # no model: `build --alternatives K` is refused up front

    def implement(self, task_id: str, spec: Spec, readme: str,
                  count: int) -> list[dict[str, str] | None]:
        return [None] * count
