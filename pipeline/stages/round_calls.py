"""A round's model calls, all at once: the reviews of every pending case, then the refines.

Why: a case's three reviews alone keep at most three requests in flight; with model latencies
of seconds a corpus took days. Here a round's reviews (every pending case, every reviewer) go
to the backend together, then the refines together, so the per-provider concurrency limits in
`pipeline.llm` are the only bound. A backend that offers `review_many` / `refine_many` (the LLM
backend) gets the whole round in one call; any other backend (offline) is called case by case.

Nothing here writes to the store: the build loop saves each case's reviews, route and refined
version in one transaction, in case order, as before. A build killed between the calls and
those writes loses no paid call: every answer is already in the response cache.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.backend import Backend
from pipeline.records import Evidence, Review, RouteDecision, Spec, TestCase
from pipeline.routing import Panel, route_case
from pipeline.rubric import Routing, Rubric
from pipeline.stages.human import is_human
from pipeline.store import Store

Decided = tuple[TestCase, Evidence | None, list[Review], RouteDecision]


@dataclass(frozen=True)
class RoundContext:
    """What every call of one task's round shares."""

    spec: Spec
    readme: str
    split: str
    rubric: Rubric
    rules: Routing
    reviewers: int  # reviews per case version the router needs

    @property
    def panel(self) -> Panel:
        """What the round's cases are routed by (`pipeline.routing`)."""
        return Panel(self.rules, self.reviewers)


def review_round(cases: list[TestCase], ctx: RoundContext, backend: Backend, store: Store,
                 evidence: list[Evidence | None] | None = None) -> list[Decided]:
    """Each case with its evidence (`evidence`, in the order of `cases`, when the caller holds
    it; else read from the store), reviews (stored ones reused when complete) and the pure
    routing decision, in the order of `cases`."""
    if evidence is None:
        evidence = [store.evidence_for(c.case_id, c.round) for c in cases]
    reviews = [store.reviews_for(c.case_id, c.round, as_given=True) for c in cases]
    todo = [i for i, got in enumerate(reviews) if len(got) < ctx.reviewers]
    fresh = review_many(backend, [(cases[i], evidence[i]) for i in todo], ctx)
    for i, got in zip(todo, fresh, strict=True):
        reviews[i] = got
    return [(case, ev, rv, route_case(ev, rv, case.round, ctx.split, panel=ctx.panel,
                                      human=is_human(case)))
            for case, ev, rv in zip(cases, evidence, reviews, strict=True)]


def review_many(backend: Backend, items: list[tuple[TestCase, Evidence | None]],
                ctx: RoundContext) -> list[list[Review]]:
    if not items:
        return []
    return backend.review_many(items, ctx.spec, ctx.readme, ctx.rubric)


def refine_round(decided: list[Decided], ctx: RoundContext,
                 backend: Backend) -> list[TestCase | None]:
    """The refined version of each case routed to `refine` (None for the others), in order;
    a failed refine is the case unchanged, as `Backend.refine` returns it."""
    todo = [i for i, d in enumerate(decided) if d[3].route == "refine"]
    items = [(decided[i][0], decided[i][1], decided[i][2], None) for i in todo]
    out: list[TestCase | None] = [None] * len(decided)
    if not items:
        return out
    refined = backend.refine_many(items, ctx.spec, ctx.readme)
    for i, case in zip(todo, refined, strict=True):
        out[i] = case
    return out
