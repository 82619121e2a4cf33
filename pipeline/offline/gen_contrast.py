"""Contrast: a refused call followed, in the same test, by the corrected call, checked by value.

A test that only asserts "this bad create answers 422" passes on a service that refuses every
create, and one that only asserts "an unknown id answers 404" passes on a service that answers
404 for every id. Both are shape-only: status and error keys, no value. The corrected call
turns them into behaviour checks:
- a create refused (empty body, malformed JSON, missing field, wrong type, too long, out of
  range) is followed by the same create with the documented valid body (a value of exactly
  the documented limit, which catches off-by-one limits), which is accepted, echoes the
  values sent or the documented constants, and reads back the same;
- an action refused on an unknown id is followed by the same action on a record the test
  created, which succeeds and answers about that record (its id, what was sent, documented
  constants); a delete is followed by the read that no longer finds the record.
Each helper returns no lines, and writes nothing into the case, when the document gives no
value to check on the corrected call: the refusal test then stays as it was.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.offline.gen_api import constant_checks
from pipeline.offline.gen_code import Case, Made, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import path_params
from pipeline.offline.gen_model import (
    Resource,
    error_code,
    has_reference,
    response_doc,
    schema_constants,
    schema_record,
)
from pipeline.offline.gen_state_rules import STAMP, echo_checks, turn_of
from pipeline.records import Endpoint

_NO_LIMIT = re.compile(r"pass|secret|token|email|url|uri|link|date|time|phone", re.I)
MAX_READ_BACK = 4


def _answer_fields(ep: Endpoint) -> dict[str, Any]:
    """The documented success body's top-level fields (example first, else the schema)."""
    doc = response_doc(ep)
    return doc if isinstance(doc, dict) else schema_record(ep)


def _constants(var: str, ep: Endpoint) -> list[str]:
    """Values the document pins for this answer (`"status": "in_progress"`)."""
    out = [f"assert {var}[{literal(k)}] == {literal(v)}"
           for k, v in schema_constants(ep).items()]
    return out + [c for c in constant_checks(var, response_doc(ep)) if c not in out]


def limit_edit(var: str, field: str, value: dict[str, Any], limit: int) -> str | None:
    """The edit that gives `field` a plain text of exactly `limit` characters (None for text
    whose form is checked beyond its length: e-mail, URL, secrets, dates)."""
    if _NO_LIMIT.search(field) or not isinstance(value.get(field), str) or "@" in value[field]:
        return None
    text = f'unique("x" * {limit})' if limit >= 6 else f'"x" * {limit}'  # fresh, same length
    return f"{var}[{literal(field)}] = {text}"


def accepted_create(w: Writer, case: Case, res: Resource, bindings: dict[str, str],
                    edits: list[str] | None = None) -> list[str]:
    """Lines sending the documented valid create (plus `edits` on `valid`) after a refusal:
    accepted, the values sent echoed, documented constants, and the record read back with
    the answer's values. Empty when none of these can be checked."""
    ep, delete = res.create, res.delete
    if delete is not None and not w.model.reachable(delete):
        delete = None
    payload = w.payload_for(res, deletable=delete is not None)
    if (ep is None or payload is None or not res.creatable or res.id_field is None
            or has_reference(payload) or not w.model.reachable(ep)):
        return []
    answer = _answer_fields(ep)  # only what the document says the answer holds
    checks = [f"assert accepted_record[{literal(k)}] == valid[{literal(k)}]"
              for k in w.echo_fields(res, payload) if k in answer]
    checks += _constants("accepted_record", ep)
    read: list[str] = []
    get = res.get
    if get is not None and w.model.reachable(get) and res.param and all(
            p in bindings or p == res.param for p in path_params(get.path)):
        shared = [k for k in answer if k in _answer_fields(get)
                  and k != res.id_field and not STAMP.search(k)][:MAX_READ_BACK]
        if shared:
            # the read-back is not what the case tests
            call = w.call(case, "fetched", get, {**bindings, res.param: "accepted_id"},
                          target=False)
            read = [call, status_assert("fetched", get)] + [
                f"assert fetched.json()[{literal(k)}] == accepted_record[{literal(k)}]"
                for k in shared]
    if not checks and not read:
        return []
    lines = ["# the same create with a valid body is accepted",
             *payload_lines("valid", payload), *(edits or []),
             w.call(case, "accepted", ep, bindings, "json=valid"),
             status_assert("accepted", ep), "accepted_record = accepted.json()", *checks]
    if read or delete is not None:
        key = literal(res.created_id_key or res.id_field)
        lines.append("accepted_id = accepted_record" + ("" if res.created_bare else f"[{key}]"))
    lines += read
    if delete is not None and res.param and all(
            p in bindings or p == res.param for p in path_params(delete.path)):
        lines.append(w.call(case, "_", delete, {**bindings, res.param: "accepted_id"},
                            target=False).split(" = ", 1)[1])  # leave no record behind
    return lines


def known_action(w: Writer, case: Case, ep: Endpoint, payload: dict | None) -> list[str]:
    """For an action refused on an unknown id: create a record now (lines written into the
    case) and return the lines doing the same action on it, checked by value. Empty, and
    nothing written, when the answer has no documented value to check."""
    owner = w.model.owner(ep.path)
    if (owner is None or not owner.creatable or owner.id_field is None or owner.param is None
            or path_params(ep.path) != [owner.param] or not w.model.reachable(ep)):
        return []
    if ep.method == "DELETE":
        get = owner.get
        if get is None or not w.model.reachable(get) or not error_code(get, 404):
            return []
        checks = [w.call(case, "gone", get, {owner.param: owner.id_var}, target=False),
                  "assert gone.status_code == 404, gone.text"]  # the read is not tested here
    else:
        fields = _answer_fields(ep)
        checks = _constants("answer", ep)
        if owner.id_field in fields:  # the answer names the record of the URL
            checks.append(f"assert answer[{literal(owner.id_field)}] == {owner.id_var}")
        if payload:
            echoed = echo_checks(ep, payload)
            echoed += [f"assert answer[{literal(k)}] == sent[{literal(k)}]" for k in payload
                       if k in fields and isinstance(payload[k], str | int | float | bool)
                       and not STAMP.search(k) and f"answer[{literal(k)}]" not in
                       "\n".join(echoed)]
            checks += echoed
        if not checks:
            return []
        checks.insert(0, "answer = done.json()")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, owner, bindings, Made("known", "known_payload")):
        return []
    lines = ["# the same call on a record that exists succeeds"]
    extra = ""
    if payload and ep.method != "DELETE":
        lines += payload_lines("sent", payload, unique_keys=False)
        turn = turn_of(ep, owner)
        if turn is not None:  # the first turn is read from the created record
            lines.append(f"sent[{literal(turn[0])}] = {owner.var}[{literal(turn[1])}]")
        extra = "json=sent"
    return [*lines, w.call(case, "done", ep, bindings, extra), status_assert("done", ep),
            *checks]
