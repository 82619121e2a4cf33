"""Offline templates for actions on a record whose rules the document states as conflicts
and resets (a move in a game, a step in a workflow), read from the endpoint's own documents:

- the action succeeds for the caller whose turn it is, answers with what was sent (a field of
  the same name, or an object holding the sent fields) and the record read back afterwards
  shows the answer's state;
- "non-current <param>" in a documented conflict: the same action by anyone but the one the
  record names as current (`next_<param>`) is refused with that status and changes nothing;
- "already occupied / taken / exists" in a documented conflict: the same target again, by the
  caller whose turn it now is, is refused and changes nothing;
- a record with a capacity (`capacity`, `max_capacity`, `seats`) and an action documented to be
  refused when the record is full: created with room for two, it takes two sign-ups and
  refuses the third with that status;
- an action whose summary says it resets the record to its initial state: after another
  action changed it, the reset answers with, and the record reads back, the values the record
  was created with.
Values are taken from the answers at run time, never assumed (the first turn is read from
the created record).
"""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Writer, literal, payload_lines
from pipeline.offline.gen_common import VERBS, action_name, bind
from pipeline.offline.gen_model import (
    Resource,
    conflict_code,
    error_code,
    has_reference,
    schema_record,
    snake,
)
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint

_RESET = re.compile(r"\breset|\brestart|initial\s+state|重置", re.I)
STAMP = re.compile(r"(?:_at|_time|timestamp|date)$", re.I)


def record_actions(w: Writer) -> list[tuple[Endpoint, Resource]]:
    """POST endpoints under a record's item path that are not its create."""
    out = []
    for ep in w.model.spec.endpoints:
        owner = w.model.owner(ep.path)
        if (ep.method == "POST" and owner is not None and owner.item is not None
                and ep.path.startswith(owner.item + "/") and owner.creatable
                and owner.id_field is not None and w.model.reachable(ep)):
            out.append((ep, owner))
    return out


def turn_of(ep: Endpoint, owner: Resource) -> tuple[str, str, list[str]] | None:
    """(body param, record field naming whose turn it is, the param's allowed values)."""
    for param in ep.params:
        allowed = param.constraints.get("enum") or []
        if param.location != "body" or len(allowed) < 2:
            continue
        for name in owner.fields:
            if name != param.name and name.endswith("_" + param.name):
                return param.name, name, [str(v) for v in allowed]
    return None


def _payload(ep: Endpoint) -> dict | None:
    payload = payload_of(ep)
    if not isinstance(payload, dict) or not payload or has_reference(payload):
        return None
    return payload


def echo_checks(ep: Endpoint, payload: dict) -> list[str]:
    """Checks that the answer carries what was sent: a field of the same name, or a nested
    object the schema lists with every sent field."""
    props = (ep.response_schema or {}).get("properties") or {}
    out = []
    for key, sub in props.items():
        inner = (sub or {}).get("properties") if isinstance(sub, dict) else None
        if isinstance(inner, dict) and set(payload) <= set(inner):
            out.append(f"assert {{k: answer[{literal(key)}][k] for k in sent}} == sent")
    for key in payload:
        if key in props:
            out.append(f"assert answer[{literal(key)}] == sent[{literal(key)}]")
    return out


def _start(w: Writer, ep: Endpoint, owner: Resource, name: str) -> tuple[Case, dict] | None:
    case = Case(name, "integration")
    bindings = bind(case, w, ep, target_var="created")
    return (case, bindings) if bindings is not None else None


def _read(w: Writer, case: Case, owner: Resource, bindings: dict[str, str], var: str) -> bool:
    if owner.get is None or not w.model.reachable(owner.get):
        return False
    case.add(w.call(case, var, owner.get, bindings),
             f"assert {var}.status_code == 200, {var}.text")
    return True


def unchanged_record(w: Writer, case: Case, owner: Resource,
                     bindings: dict[str, str]) -> list[str]:
    """Read the record now; the lines that check it reads the same after a refusal."""
    targets = list(case.endpoints)
    if not _read(w, case, owner, bindings, "before"):
        return []
    after = w.call(case, "after", owner.get, bindings) if owner.get else ""
    case.endpoints[:] = targets
    return [after, "assert after.json() == before.json()"]


def action_applied(w: Writer, ep: Endpoint, owner: Resource) -> Case | None:
    """The current caller's action succeeds, echoes what was sent and is visible on read."""
    payload, turn = _payload(ep), turn_of(ep, owner)
    read = schema_record(owner.get) if owner.get else {}
    shared = [k for k in schema_record(ep) if k in read and not STAMP.search(k)]
    if payload is None or not (shared or echo_checks(ep, payload)):
        return None  # nothing to check beyond the status: the plain action template's job
    made = _start(w, ep, owner, f"test_{VERBS[ep.method]}_{action_name(w.model, ep)}"
                                f"_is_applied_and_read_back")
    if made is None:
        return None
    case, bindings = made
    case.add(*payload_lines("sent", payload, unique_keys=False))
    if turn is not None:
        case.add(f"sent[{literal(turn[0])}] = {owner.var}[{literal(turn[1])}]")
    case.add(w.call(case, "response", ep, bindings, "json=sent"),
             "assert 200 <= response.status_code < 300, response.text",
             "answer = response.json()", *echo_checks(ep, payload))
    if owner.id_field in schema_record(ep):  # the answer names the record of the URL
        case.add(f"assert answer[{literal(owner.id_field)}] == {owner.id_var}")
    if shared and _read(w, case, owner, bindings, "fetched"):
        case.add("stored = fetched.json()",
                 *[f"assert stored[{literal(k)}] == answer[{literal(k)}]" for k in shared])
    return case


def wrong_turn(w: Writer, ep: Endpoint, owner: Resource) -> Case | None:
    """Anyone but the caller the record names as current is refused; nothing changes."""
    payload, turn = _payload(ep), turn_of(ep, owner)
    if payload is None or turn is None or not error_code(ep, 409, f"non-current {turn[0]}",
                                                           f"not {turn[0]}'s turn", "turn"):
        return None
    made = _start(w, ep, owner, f"test_{VERBS[ep.method]}_{action_name(w.model, ep)}"
                                f"_by_non_current_{turn[0].lower()}_returns_409")
    if made is None:
        return None
    case, bindings = made
    case.category = "error_handling"
    param, field, allowed = turn
    case.add(*payload_lines("sent", payload, unique_keys=False),
             f"sent[{literal(param)}] = next(v for v in {literal(allowed)} "
             f"if v != {owner.var}[{literal(field)}])")
    after = unchanged_record(w, case, owner, bindings)
    case.add(w.call(case, "response", ep, bindings, "json=sent"),
             "assert response.status_code == 409, response.text",
             *w.errors("response", 409), *after)
    return case


def same_target_again(w: Writer, ep: Endpoint, owner: Resource) -> Case | None:
    """The same target a second time, by the caller whose turn it now is, is refused."""
    payload, turn = _payload(ep), turn_of(ep, owner)
    if payload is None or turn is None or not error_code(ep, 409, "already", "occupied", "taken"):
        return None
    made = _start(w, ep, owner, f"test_{VERBS[ep.method]}_{action_name(w.model, ep)}"
                                f"_on_a_taken_target_returns_409")
    if made is None:
        return None
    case, bindings = made
    case.category = "error_handling"
    param, field, _ = turn
    case.add(*payload_lines("sent", payload, unique_keys=False),
             f"sent[{literal(param)}] = {owner.var}[{literal(field)}]",
             w.call(case, "first", ep, bindings, "json=sent"),
             "assert 200 <= first.status_code < 300, first.text")
    if not _read(w, case, owner, bindings, "now"):
        return None
    case.add("again = dict(sent)",
             f"again[{literal(param)}] = now.json()[{literal(field)}]",
             f"assert again[{literal(param)}] in {literal(turn[2])}, now.text")
    after = unchanged_record(w, case, owner, bindings)
    case.add(w.call(case, "response", ep, bindings, "json=again"),
             "assert response.status_code == 409, response.text",
             *w.errors("response", 409), *after)
    return case


def reset_restores(w: Writer, ep: Endpoint, owner: Resource,
                   others: list[Endpoint]) -> Case | None:
    """After another action changed the record, a reset brings back its created state."""
    if not _RESET.search(f"{ep.summary} {ep.path}") or _payload(ep) is not None:
        return None
    change = next((o for o in others if o is not ep and _payload(o) is not None), None)
    created = schema_record(owner.create) if owner.create else {}
    kept = [k for k in schema_record(ep) if k in created and not STAMP.search(k)
            and k != owner.id_field]
    if change is None or not kept:
        return None
    made = _start(w, ep, owner, f"test_{VERBS[ep.method]}_{action_name(w.model, ep)}"
                                f"_restores_the_created_state")
    if made is None:
        return None
    case, bindings = made
    turn = turn_of(change, owner)
    case.add(*payload_lines("sent", _payload(change) or {}, unique_keys=False))
    if turn is not None:
        case.add(f"sent[{literal(turn[0])}] = {owner.var}[{literal(turn[1])}]")
    case.add(w.call(case, "changed", change, bindings, "json=sent"),
             "assert 200 <= changed.status_code < 300, changed.text",
             w.call(case, "response", ep, bindings),
             "assert 200 <= response.status_code < 300, response.text",
             "answer = response.json()",
             *[f"assert answer[{literal(k)}] == {owner.var}[{literal(k)}]" for k in kept])
    read = schema_record(owner.get) if owner.get else {}
    if any(k in read for k in kept) and _read(w, case, owner, bindings, "fetched"):
        case.add(*[f"assert fetched.json()[{literal(k)}] == {owner.var}[{literal(k)}]"
                   for k in kept if k in read])
    return case


CAPACITY_KEY = re.compile(r"capacity|seats|slots|spots|places|max_?(?:attendees|participants"
                           r"|members|size)", re.I)
_FULL = ("full", "capacity", "sold out", "no seats", "no places", "no room", "已满")


def full_refuses(w: Writer, ep: Endpoint, owner: Resource) -> Case | None:
    """A record created with room for two takes two sign-ups and refuses a third with the
    status the document gives a full record."""
    code = conflict_code(ep, *_FULL)
    key = next((k for k, v in (owner.payload or {}).items() if CAPACITY_KEY.search(k)
                and isinstance(v, int) and not isinstance(v, bool) and v >= 3), None)
    payload = _payload(ep)
    if code is None or key is None or payload is None or not any(
            "unique(" in ln for ln in payload_lines("x", payload)):
        return None  # sign-ups must differ, or a duplicate rule would refuse the second
    case = Case(f"test_{VERBS[ep.method]}_{action_name(w.model, ep)}_beyond_{snake(key)}"
                f"_returns_{code}", "error_handling")
    bindings: dict[str, str] = {}
    if owner.parent is not None or not w.create_chain(case, owner, bindings,
                                                     overrides={key: "2"}):
        return None
    for n in (1, 2):
        case.add(*payload_lines(f"signup_{n}", payload),
                 w.call(case, f"joined_{n}", ep, bindings, f"json=signup_{n}"),
                 f"assert 200 <= joined_{n}.status_code < 300, joined_{n}.text")
    case.add(*payload_lines("signup_3", payload),
             w.call(case, "refused", ep, bindings, "json=signup_3"),
             f"assert refused.status_code == {code}, refused.text",
             *w.errors("refused", code))
    return case


def state_rule_cases(w: Writer) -> list[Case | None]:
    """Every state-rule template over every action on a record, in document order."""
    actions = record_actions(w)
    out: list[Case | None] = []
    for ep, owner in actions:
        mates = [a for a, o in actions if o is owner]
        out += [action_applied(w, ep, owner), wrong_turn(w, ep, owner),
                same_target_again(w, ep, owner), reset_restores(w, ep, owner, mates),
                full_refuses(w, ep, owner)]
    return out
