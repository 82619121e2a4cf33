"""An action named by a verb under a record sets the state of that verb, on that record only.

`PATCH /todos/{id}/complete`, `POST /orders/{id}/cancel`, `POST /posts/{id}/publish`: the
path names what the action does, and the record shows it as a boolean field of the verb's
name (`completed`, `is_published`) or as a status naming it (`"cancelled"`). The case
creates two records, sends the action twice to the second (marking something done twice
leaves it done: a toggle fails here), then reads both back: the second shows the state, the
first kept the one it had (an action on the wrong record, such as the first one found,
fails here). The record is read
back by its documented read, else found in a whole (unpaged) list (`gen_api.find_listed`).

Applies only when the record's documented or observed fields hold such a state, so the verb
is known to be one; the test looks the state up tolerantly (`tolerant.state_of`), so an
implementation that names the field differently (`done`, `status`) still passes. Toggles by
name (`toggle`, `flip`, `like`) and actions that take a body are left to other templates.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_api import Lookup, find_listed
from pipeline.offline.gen_code import Case, Made, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_model import Resource
from pipeline.offline.payloads import payload_of
from pipeline.offline.tolerant import verb_forms
from pipeline.records import Endpoint

_VERB = re.compile(r"^[a-z][a-z_-]{2,30}$")
_TOGGLES = re.compile(r"toggle|flip|switch|like|star|vote|follow", re.I)


def flag_cases(w: Writer) -> list[Case]:
    out = []
    for ep in w.model.spec.endpoints:
        found = _flag_action(w, ep)
        if found is not None and (case := _case(w, ep, *found)) is not None:
            out.append(case)
    return out


def _flag_action(w: Writer, ep: Endpoint) -> tuple[Resource, str] | None:
    """(the record, the verb) of a bodiless state action on a record's item path."""
    owner = w.model.owner(ep.path)
    if (ep.method not in ("POST", "PUT", "PATCH") or owner is None or owner.item is None
            or owner.parent is not None or not owner.creatable or owner.id_field is None
            or not w.model.reachable(ep) or payload_of(ep)):
        return None
    verb = ep.path[len(owner.item):].strip("/")
    if not ep.path.startswith(owner.item + "/") or not _VERB.match(verb) or _TOGGLES.search(verb):
        return None
    return (owner, verb) if _shows_state(w, owner, verb) else None


def _shows_state(w: Writer, res: Resource, verb: str) -> bool:
    """The record's documented (else observed) fields hold the verb's state."""
    forms = verb_forms(verb)
    fields: dict[str, object] = dict(res.fields)
    if not fields and res.shape is not None:
        fields = dict(res.shape.record_types)
    for key, value in fields.items():
        name = str(key).lower()
        name = name[3:] if name.startswith("is_") else name
        if name in forms and (isinstance(value, bool) or value in ("boolean", "bool")):
            return True
        if name in ("status", "state") and any(str(v).lower() in forms
                                               for v in _values(w, res, str(key))):
            return True
    return False


def _values(w: Writer, res: Resource, key: str) -> list[object]:
    """The values the document allows a record's status field: the enums of the endpoints of
    its collection and of its records."""
    out: list[object] = []
    for ep in w.model.spec.endpoints:
        if not (ep.path == res.collection or (res.item and ep.path.startswith(res.item))):
            continue
        out += [v for p in ep.params if p.name == key for v in p.constraints.get("enum") or []]
        props = (ep.response_schema or {}).get("properties") or {}
        out += list((props.get(key) or {}).get("enum") or [])
    return out


def _read(w: Writer, case: Case, res: Resource, var: str, id_var: str,
          bindings: dict[str, str]) -> str | None:
    """Lines reading the record `id_var` back into `var`; None when no read finds it."""
    assert res.param is not None
    where = {**bindings, res.param: id_var}
    if res.get is not None and w.model.reachable(res.get) and res.reads_back():
        case.add(w.call(case, f"{var}_read", res.get, where, target=False),
                 status_assert(f"{var}_read", res.get),
                 f"{var} = {res.record_of(f'{var}_read', res.get)}")
        return var
    found = find_listed(w, case, res, bindings, Lookup(f"{var}_listed", id_var, target=False))
    if found is None:
        return None
    case.add(f"{var} = {found}")
    return var


def _case(w: Writer, ep: Endpoint, res: Resource, verb: str) -> Case | None:
    """Two records; the action on the second (a lookup that ignores the id and takes the
    first record is caught), twice; the second shows the state, the first kept its own."""
    case = Case(f"test_{verb.replace('-', '_')}_sets_{res.noun}_state_and_only_its_own",
                "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    assert res.create is not None and res.param is not None
    case.add(*payload_lines("target_payload", w.payload_for(res) or {}),
             w.call(case, "target_response", res.create, bindings, "json=target_payload",
                    target=False),
             status_assert("target_response", res.create))
    if not w.take_created(case, res, bindings, Made(
            "target_response", "target_payload", "target", "target_id")):
        return None
    if res.delete is not None:
        line = w.call(case, "_", res.delete, {**bindings, res.param: "target_id"},
                      target=False)
        case.cleanup.append(line.split(" = ", 1)[1])
    if _read(w, case, res, "first_before", res.id_var, bindings) is None:
        return None
    bindings[res.param] = "target_id"
    case.add(w.call(case, "done", ep, bindings), status_assert("done", ep),
             "# the same action again leaves the state set (a toggle would clear it)",
             w.call(case, "again", ep, bindings, target=False))
    _read(w, case, res, "target_after", "target_id", bindings)
    _read(w, case, res, "first_after", res.id_var, bindings)
    case.add(f"assert state_of(target_after, {literal(verb)}) is True, target_after",
             f"assert state_of(first_after, {literal(verb)}) == "
             f"state_of(first_before, {literal(verb)}), first_after")
    return case
