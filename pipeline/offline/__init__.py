"""The offline mode: a generator (`generate`, from the document and the oracle's observed
answers), a refiner (`refine`) and three reviewers, all deterministic (no network, no LLM).

The offline reviewers: three deterministic, evidence-based reviewers.

Each is a pure function `review(case, evidence, spec, rubric) -> Review` scoring all four rubric
dimensions from its own evidence, with a rationale that names that evidence:
- `offline:execution` (`review_execution`): runs on the oracle, stability, requests sent;
- `offline:static` (`review_static`): the test's code read with `ast`;
- `offline:spec` (`review_spec`): the test against the requirement document's endpoint spec.

`review_all(case, evidence, spec, rubric)` returns the three reviews in that order.
"""

from __future__ import annotations

from collections.abc import Callable

from pipeline.offline import review_execution, review_spec, review_static
from pipeline.records import Evidence, Review, Spec, TestCase
from pipeline.rubric import Rubric

ReviewFn = Callable[[TestCase, Evidence | None, Spec, Rubric], Review]

REVIEWERS: dict[str, ReviewFn] = {
    review_execution.REVIEWER: review_execution.review,
    review_static.REVIEWER: review_static.review,
    review_spec.REVIEWER: review_spec.review,
}


def review_all(case: TestCase, evidence: Evidence | None, spec: Spec,
               rubric: Rubric) -> list[Review]:
    """The three offline reviews of one test-case version (execution, static, spec)."""
    return [fn(case, evidence, spec, rubric) for fn in REVIEWERS.values()]


__all__ = ["REVIEWERS", "ReviewFn", "review_all"]
