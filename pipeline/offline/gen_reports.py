"""Offline template for an update whose documented answer reports a change: the value before
(`"old_rating": 3`) and after (`"new_rating": 5`). With no read of one record, this answer is
where a test sees what the service stored: the first change must report the created value as
the old one, and a second change the first one's new value (a lost write, or a value stored
in the wrong field, shows there)."""

from __future__ import annotations

from typing import Any

from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import VERBS, previous_key
from pipeline.offline.gen_model import Resource, response_doc
from pipeline.offline.update_bodies import update_payload
from pipeline.records import Endpoint


def _new_key(ep: Endpoint, key: str) -> str | None:
    doc = response_doc(ep)
    cap = key[:1].upper() + key[1:]
    return next((n for n in (f"new_{key}", f"new{cap}", key) if isinstance(doc, dict)
                 and n in doc), None)


def _other(value: Any) -> Any:
    """A second value of the same type as `value`."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):  # down from a top rating, up from the bottom
        return value - 1 if value > 1 else value + 1
    return f"{value} again" if isinstance(value, str) else None


def update_reports_previous(w: Writer, res: Resource) -> Case | None:
    ep = res.update
    if ep is None or not res.creatable or not w.model.reachable(ep):
        return None
    changes = update_payload(res)
    pairs = [(k, old, new) for k in (changes or {}) if (old := previous_key(ep, k))
             and (new := _new_key(ep, k)) and _other((changes or {})[k]) is not None]
    if changes is None or not pairs:
        return None
    case = Case(f"test_{VERBS[ep.method]}_{res.noun}_reports_previous_value", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    case.add(*payload_lines("changes", changes),
             w.call(case, "first", ep, bindings, "json=changes"), status_assert("first", ep))
    payload = w.payload_for(res) or {}
    case.add(*[f"assert first.json()[{literal(old)}] == payload[{literal(k)}]"
               for k, old, _ in pairs if isinstance(payload.get(k), str | int | float)])
    again = {**changes, **{k: _other(changes[k]) for k, _, _ in pairs}}
    case.add(*payload_lines("again", again),
             w.call(case, "second", ep, bindings, "json=again"), status_assert("second", ep),
             *[f"assert second.json()[{literal(old)}] == first.json()[{literal(new)}]"
               for _, old, new in pairs])
    return case


def flag_set_and_cleared(w: Writer, res: Resource) -> Case | None:
    """A yes/no field an update sets and the next one clears is stored each time (read
    back after each): an update that applies a field only when its value is truthy
    (`if private:`) never clears it."""
    ep, get = res.update, res.get
    if ep is None or get is None or not res.creatable or not res.reads_back() \
            or not (w.model.reachable(ep) and w.model.reachable(get)):
        return None
    changes = update_payload(res)
    key = next((k for k, v in (changes or {}).items() if isinstance(v, bool)), None)
    if changes is None or key is None:
        return None
    case = Case(f"test_{VERBS[ep.method]}_{res.noun}_sets_and_clears_{key.lower()}",
                "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    for value, var in ((True, "setting"), (False, "clearing")):
        body = {key: value} if ep.method == "PATCH" else {**changes, key: value}
        case.add(*payload_lines(var, body),
                 w.call(case, f"{var}_answer", ep, bindings, f"json={var}"),
                 status_assert(f"{var}_answer", ep),
                 w.call(case, f"{var}_read", get, bindings), status_assert(f"{var}_read", get),
                 f"assert {res.record_of(f'{var}_read', get)}[{literal(key)}] is {value}")
    return case
