"""Offline templates for what an update leaves alone.

- A partial update (PATCH) that names one field: that field changes and every other field the
  record was made with stays as it was. A document that lists a PATCH's arguments (`title`,
  `text`, `editor`) shows them all at once, so a test sending the whole list cannot tell a
  partial update from one that writes every argument and empties those not sent.
- An update that adds records inside the record does not edit one it is sent again.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline.offline.gen_api import appended_keys
from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import bind
from pipeline.offline.gen_model import Resource
from pipeline.offline.names import singular
from pipeline.offline.update_bodies import update_payload


def patch_names_one_field(w: Writer, res: Resource) -> Case | None:
    patch = next((e for e in w.model.spec.endpoints if e.method == "PATCH"
                  and e.path == res.item), None)
    get = res.get
    if patch is None or get is None or not res.creatable or not w.model.reachable(patch) \
            or not w.model.reachable(get) or not res.reads_back():
        return None
    changes = update_payload(replace(res, update=patch))
    echo = w.echo_fields(res, changes or {})
    kept = [k for k in w.echo_fields(res, res.payload or {}) if k != (echo or [""])[0]]
    if not changes or len(changes) < 2 or not echo or not kept:
        return None
    key = echo[0]
    case = Case(f"test_patch_{res.noun}_with_one_field_keeps_the_others", "integration")
    bindings = bind(case, w, patch)
    if bindings is None:
        return None
    case.add(*payload_lines("changes", {key: changes[key]}),
             w.call(case, "updated", patch, bindings, "json=changes"),
             status_assert("updated", patch),
             w.call(case, "reread", get, bindings, target=False),
             status_assert("reread", get),
             f"stored = {res.record_of('reread', get)}",
             f"assert stored[{literal(key)}] == changes[{literal(key)}]",
             *[f"assert stored[{literal(k)}] == payload[{literal(k)}], stored" for k in kept])
    return case


def update_keeps_inner_records(w: Writer, res: Resource) -> Case | None:
    """Where an update adds records inside the record and keeps those it has ("Only can add
    new choices": `appended_keys`), one sent again with its own id and a changed text is not
    edited in place: the record it names keeps its text."""
    ep, get = res.update, res.get
    changes = update_payload(res)
    keys = appended_keys(res, ep, changes) if ep is not None and changes else []
    if not keys or get is None or not res.creatable or not w.model.reachable(ep) \
            or not w.model.reachable(get):
        return None
    key = keys[0]
    sent = (res.payload or {}).get(key) or []
    text = next((k for k, v in sent[0].items() if isinstance(v, str)), None) if sent else None
    if text is None or not isinstance(changes, dict):
        return None
    noun = singular(key)
    case = Case(f"test_update_{res.noun}_does_not_edit_its_{key}_in_place", "integration")
    bindings = bind(case, w, ep)
    if bindings is None:
        return None
    case.add(w.call(case, "before", get, bindings, target=False), status_assert("before", get),
             f"target = {res.record_of('before', get)}[{literal(key)}][0]",
             f"target_id = id_of_record(target, {literal(noun)})",
             *payload_lines("changes", changes),
             f"changes[{literal(key)}] = [{{**target, {literal(text)}: "
             f"target[{literal(text)}] + ' (edited)'}}]",
             w.call(case, "updated", ep, bindings, "json=changes"), status_assert("updated", ep),
             w.call(case, "after", get, bindings, target=False), status_assert("after", get),
             f"kept = {{id_of_record(i, {literal(noun)}): i for i in "
             f"{res.record_of('after', get)}[{literal(key)}]}}",
             f"assert kept[target_id][{literal(text)}] == target[{literal(text)}], after.text")
    return case
