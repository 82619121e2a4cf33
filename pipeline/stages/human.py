"""Which mutants a human-written test kills that no accepted generated test kills.

The evidence for keeping a human-written test that the reviewers would discard for style
(`routing.keep_human`): the kills it adds beyond what the accepted generated suite already
catches, counting the cases accepted in earlier rounds and those accepted in this round.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.records import Evidence, RouteDecision, TestCase
from pipeline.store import Store


def is_human(case: TestCase) -> bool:
    """A test imported from the task's own tests/ (its refined versions keep the module)."""
    return case.origin == "existing" or case.module is not None


def _kills(evidence: Evidence | None) -> set[str]:
    m = evidence.mutation if evidence is not None else None
    return set(m.killed) if m is not None and m.excluded is None else set()


def generated_kills(store: Store, task_id: str,
                    decided: Iterable[tuple[TestCase, Evidence | None, object, RouteDecision]]
                    ) -> set[str]:
    """Mutants killed by the task's accepted generated cases (stored, and this round's)."""
    out: set[str] = set()
    for case in store.latest_cases(task_id):
        route = store.latest_route(case.case_id)
        if route is not None and route.route == "accepted" and not is_human(case):
            out |= _kills(store.evidence_for(case.case_id, route.round))
    for case, evidence, _, decision in decided:
        if decision.route == "accepted" and not is_human(case):
            out |= _kills(evidence)
    return out


def beyond_generated(case: TestCase, evidence: Evidence | None, accepted: set[str]) -> list[str]:
    """The mutants this human-written case kills that `accepted` does not (empty otherwise)."""
    return sorted(_kills(evidence) - accepted) if is_human(case) else []
