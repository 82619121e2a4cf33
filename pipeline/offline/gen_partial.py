"""Offline template for a partial update (PATCH) that names one field: that field changes and
every other field the record was made with stays as it was.

A document that lists a PATCH's arguments (`title`, `text`, `editor`) shows them all at once,
so a test sending the whole list cannot tell a partial update from one that writes every
argument and empties those not sent. Sending one does.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import bind
from pipeline.offline.gen_model import Resource
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
