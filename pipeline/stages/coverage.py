"""Which documented endpoints a task's accepted suite leaves untested (pure).

`status` names them; a build whose task ends with no accepted case at all marks the task
failed with `no_accepted_reason`, and `publish` writes no task without accepted cases, so an
empty suite never reaches data/verified or data/train.
"""

from __future__ import annotations

from pipeline.offline.endpoints import find_endpoint, parse_target
from pipeline.records import Spec, TestCase


def endpoints_without_accepted(spec: Spec, accepted: list[TestCase],
                               sent: dict[str, list[str]] | None = None) -> list[str]:
    """Documented endpoints ("METHOD /path", document order) no accepted case targets. A
    case that declares none (an imported human test) targets what its runs sent (`sent`:
    case_id -> "METHOD /path" requests from its evidence)."""
    covered = {key for case in accepted for key in case.endpoints}
    for case in accepted:
        if case.endpoints or not sent:
            continue
        for request in sent.get(case.case_id, []):
            target = parse_target(request)
            ep = find_endpoint(spec, target) if target is not None else None
            if ep is not None:
                covered.add(f"{ep.method} {ep.path}")
    keys = [f"{e.method} {e.path}" for e in spec.endpoints]
    return [k for k in keys if k not in covered]


def no_accepted_reason(spec: Spec, counts: dict[str, int]) -> str | None:
    """Why a finished task cannot be published (None when a case was accepted or still
    waits for the Area Chair). `counts`: the build's cases per final route."""
    if counts.get("accepted", 0) or counts.get("area_chair", 0):
        return None
    discarded = sorted((k.split(":", 1)[1], v) for k, v in counts.items()
                       if k.startswith("discarded:"))
    why = ", ".join(f"{n} {reason}" for reason, n in discarded) or "no case was generated"
    n = len(spec.endpoints)
    return (f"no accepted test case for its {n} documented endpoint(s) (discarded: {why}); "
            "not published — improve the README's endpoint details or the oracle, then rebuild")
