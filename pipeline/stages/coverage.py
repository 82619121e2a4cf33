"""Which documented endpoints a task's accepted suite leaves untested (pure).

`status` names them; a build whose task ends with no accepted case at all marks the task
failed with `no_accepted_reason`, and `publish` writes no task without accepted cases, so an
empty suite never reaches data/verified or data/train.
"""

from __future__ import annotations

from pipeline.offline.endpoints import Target, find_endpoint, parse_target
from pipeline.offline.facts import code_facts
from pipeline.offline.strength import WRITES, checked_requests
from pipeline.records import Endpoint, Spec, TestCase


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


def states_behaviour(ep: Endpoint) -> bool:
    """The document gives the endpoint an effect a test can check by value: a write stores,
    changes or removes something; a read of one record or with query parameters answers that
    record or that selection; any other read, when the document shows what it answers."""
    return (ep.method in WRITES or bool(ep.path_params) or any(p.location == "query"
                                                               for p in ep.params)
            or ep.response_example is not None or bool(ep.response_schema)
            or bool(ep.response_text))


def behaviour_endpoints(spec: Spec, case: TestCase) -> set[str]:
    """Documented endpoints ("METHOD /path") whose outcome the case checks by value (see
    `strength.checked_requests`). A checked request whose URL cannot be read from the code,
    and the declared endpoints no request of the function names (a helper or fixture sends
    them: setup the checked value depends on), count for the case's declared endpoints."""
    facts = code_facts(case.code, case.name)
    checked = checked_requests(facts) if facts.ok else []
    if not checked:
        return set()
    out: set[str] = set()
    for request in checked:
        ep = (find_endpoint(spec, Target(request.method, request.path, request.query))
              if request.path is not None else None)
        if ep is not None:
            out.add(f"{ep.method} {ep.path}")
    named = {f"{ep.method} {ep.path}" for r in facts.requests if r.path is not None
             if (ep := find_endpoint(spec, Target(r.method, r.path, r.query))) is not None}
    unread = any(r.path is None for r in checked)
    out.update(key for key in case.endpoints if unread or key not in named)
    return out


def endpoints_without_behaviour(spec: Spec, accepted: list[TestCase]) -> list[str]:
    """Documented endpoints with a behaviour the document states (`states_behaviour`) that no
    accepted case checks by value: tested at most for status and shape (document order)."""
    checked = {key for case in accepted for key in behaviour_endpoints(spec, case)}
    return [f"{ep.method} {ep.path}" for ep in spec.endpoints
            if states_behaviour(ep) and f"{ep.method} {ep.path}" not in checked]


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
