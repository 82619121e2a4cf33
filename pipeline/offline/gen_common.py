"""Helpers shared by the offline case templates: names, owner binding, body checks."""

from __future__ import annotations

import re
from typing import Any

from pipeline.offline.gen_code import Case, Made, Writer, field_asserts, literal, status_assert
from pipeline.offline.gen_model import (
    Model,
    Resource,
    has_reference,
    is_param,
    list_key,
    response_doc,
    schema_record,
    segments,
    snake,
    success_status,
)
from pipeline.records import Endpoint

_PREFIX = re.compile(r"^(?:api|v\d+(?:\.\d+)?|rest)$", re.I)
VERBS = {"GET": "get", "POST": "post", "PUT": "put", "PATCH": "patch", "DELETE": "delete"}


def thing(path: str) -> str:
    """A readable name for a path: its static segments without api/v1 prefixes."""
    segs = [s for s in segments(path) if not is_param(s)]
    while len(segs) > 1 and _PREFIX.match(segs[0]):
        segs = segs[1:]
    return snake("_".join(segs)) if segs else "root"


def action_name(model: Model, ep: Endpoint) -> str:
    owner = model.owner(ep.path)
    if owner is not None and ep.path == owner.item:
        return owner.noun
    if owner is None or owner.item is None or not ep.path.startswith(owner.item + "/"):
        return thing(ep.path)
    tail = ep.path[len(owner.item) + 1:]
    return f"{owner.noun}_{snake(re.sub(r'{[^}]+}', '', tail)) or 'item'}"


def path_params(path: str) -> list[str]:
    return re.findall(r"\{([^{}]+)\}", path)


def bind(case: Case, w: Writer, ep: Endpoint, deletable: bool = False,
         target_var: str = "response") -> dict[str, str] | None:
    """Create the record(s) `ep`'s path params name; None when the document does not allow it."""
    params = path_params(ep.path)
    bindings: dict[str, str] = {}
    if not params:
        return bindings
    owner = w.model.owner(ep.path)
    if owner is None or not w.create_chain(case, owner, bindings, Made(target_var), deletable):
        return None
    if any(p not in bindings for p in params):
        return None
    return bindings


def unknown_bindings(w: Writer, ep: Endpoint) -> dict[str, str]:
    """Path params bound to ids no record has."""
    out = {}
    for param in path_params(ep.path):
        res = next((r for r in w.model.resources if r.param == param), None)
        out[param] = w.unknown_id(res)
    return out


def unknown_url(w: Writer, ep: Endpoint) -> tuple[list[str], dict[str, str]]:
    """Lines assigning unknown ids to variables, and the bindings naming them."""
    lines, bindings = [], {}
    for param, src in unknown_bindings(w, ep).items():
        var = f"unknown_{snake(param)}"
        lines.append(f"{var} = {src}")
        bindings[param] = var
    return lines, bindings


def body_checks(var: str, ep: Endpoint, body_var: str = "body",
                constants: dict[str, bool] | None = None) -> list[str]:
    """Assertions on a success body from the documented example (type, fields).

    Records inside a list are not checked in a loop: the list may be empty, and a loop over
    an empty list asserts nothing. The behaviour templates check records the test created.
    """
    doc = response_doc(ep)
    times: list[str] = []
    if doc is None:  # a schema without an example still names the fields the body holds
        doc = schema_record(ep) or None
        times = time_checks(body_var, ep)
    if doc is None:
        return []
    lines = [f"{body_var} = {var}.json()"]
    if isinstance(doc, list):
        lines.append(f"assert isinstance({body_var}, list)")
        return lines
    if not isinstance(doc, dict) or not doc:
        return []
    return lines + field_asserts(body_var, doc, constants=constants) + times


ISO_TIME = r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}"


def time_checks(body_var: str, ep: Endpoint) -> list[str]:
    """Top-level answer fields the document says are ISO 8601 times hold one."""
    props = (ep.response_schema or {}).get("properties") or {}
    return [f"assert re.match({ISO_TIME!r}, {body_var}[{literal(k)}]), {body_var}"
            for k, sub in props.items()
            if isinstance(sub, dict) and sub.get("format") == "date-time"][:2]


def record_checks(res: Resource, body_var: str, payload_var: str | None,
                  payload: dict | None, w: Writer, read: Endpoint | None = None) -> list[str]:
    """Assertions that a returned record has its documented fields and the values sent;
    `read`: the answer of this read, where the document shows it, names the fields (a
    detail view may show other fields than the create's answer)."""
    shown = response_doc(read) if read is not None else None
    fields = shown if isinstance(shown, dict) and res.id_field in shown else res.fields
    lines = field_asserts(body_var, fields, constants=w.model.envelope) if fields else []
    for key in w.echo_fields(res, payload or {}) if payload_var else []:
        lines.append(f"assert {body_var}[{literal(key)}] == {payload_var}[{literal(key)}]")
    for key in nested_items(payload or {}, fields or {}) if payload_var else []:
        lines.append(holds_items(f"{body_var}[{literal(key)}]", f"{payload_var}[{literal(key)}]"))
    return lines


def nested_items(payload: dict, fields: dict) -> list[str]:
    """Keys of records sent inside the body (`"choices": [{"choice_text": "Jazz"}, ...]`)
    that the representation shows as a list of records: each sent one must come back there
    (in any order, with fields of its own added)."""
    return [k for k, v in payload.items() if isinstance(v, list) and v
            and all(isinstance(i, dict) and i and not has_reference(i) and all(
                isinstance(x, str | int | float | bool) for x in i.values()) for i in v)
            and isinstance(fields.get(k), list)
            and any(isinstance(r, dict) for r in fields[k])]


def holds_items(stored: str, sent: str) -> str:
    """Source: every record in `sent` is among `stored`, its fields as sent."""
    return (f"assert all(any(item.items() <= row.items() for row in {stored}) "
            f"for item in {sent}), {stored}")


def records_expr(doc: object, body_var: str) -> str | None:
    """Source for the list of records in a list response (None: shape unknown)."""
    if isinstance(doc, list):
        return body_var
    key = list_key(doc)
    return f"{body_var}[{literal(key)}]" if key else None


def listed_records(res: Resource | None, ep: Endpoint | None, body_var: str) -> str | None:
    """`records_expr` of the documented list answer; where the document shows none and the
    oracle's list held the record it made, wherever an implementation puts its records."""
    if ep is None:
        return None
    doc = response_doc(ep)
    if doc is not None or res is None:
        return records_expr(doc, body_var)
    shape = res.observed(ep)
    if shape is None and res.parent is not None:
        # nothing documented or observed, but a list under a record made for the test
        # holds only what the test made there: no page can hide it
        return f"records_in({body_var})"
    return None if shape is None or not shape.listed_found else f"records_in({body_var})"


def query_param(model: Model, ep: Endpoint, names: tuple[str, ...]) -> str | None:
    """A documented query parameter among `names` (params first, then response keys)."""
    documented = [p.name for p in ep.params if p.location == "query"]
    for name in names:
        if name in documented:
            return name
    doc = response_doc(ep)
    if isinstance(doc, dict):
        for name in names:
            if name in doc and name not in ("size",):
                return name
    return None



_TOTALS = ("total", "count", "total_count")
_INT_TYPES = ("integer", "int", "number")


def _is_count(value: Any) -> bool:
    """An example count (7) or a schema-only document's type placeholder ("integer")."""
    return isinstance(value, int) and not isinstance(value, bool) or \
        isinstance(value, str) and value.strip().lower() in _INT_TYPES


def _schema_shape(schema: dict[str, Any], depth: int = 0) -> Any:
    """A JSON Schema as the skeleton `_count_expr` reads: objects two levels deep, arrays as
    lists, other values as their type name."""
    kind = schema.get("type")
    if kind == "array":
        return []
    if kind == "object" and depth < 2:
        props = schema.get("properties") or {}
        return {k: _schema_shape(v, depth + 1) for k, v in props.items() if isinstance(v, dict)}
    return kind if isinstance(kind, str) else None


def _count_expr(res: Resource, var: str) -> str | None:
    """How to read the collection's size from its list answer: the list's length, or a
    total documented at the top or one level down (`{"pagination": {"total": ...}}`)."""
    ep = res.listing
    doc = response_doc(ep) if ep is not None else None
    if doc is None and ep is not None and ep.response_schema:
        doc = _schema_shape(ep.response_schema)  # a schema-only document
    if isinstance(doc, list):
        return f"len({var}.json())"
    if doc is None and res.shape is not None and res.shape.listed_found \
            and not res.shape.list_paged:  # undocumented: the list the oracle was seen to keep
        return f"len(records_in({var}.json()))"
    if not isinstance(doc, dict):
        return None
    top = next((k for k in _TOTALS if _is_count(doc.get(k))), None)
    if top is not None:
        return f"{var}.json()[{literal(top)}]"
    for outer, inner in doc.items():
        key = next((k for k in _TOTALS if isinstance(inner, dict) and _is_count(inner.get(k))),
                   None)
        if key is not None:
            return f"{var}.json()[{literal(outer)}][{literal(key)}]"
    return None


def no_write(w: Writer, case: Case, res: Resource, bindings: dict[str, str]) -> list[str]:
    """Count the collection now; the lines that check a refused write left it unchanged
    (empty when the list's size cannot be read)."""
    ep = res.listing
    before = _count_expr(res, "count_before")
    if ep is None or before is None or success_status(ep) not in (200, None) \
            or not w.model.reachable(ep):
        return []
    # counting is not what the case tests
    case.add(w.call(case, "count_before", ep, bindings, target=False),
             status_assert("count_before", ep))
    after_call = w.call(case, "count_after", ep, bindings, target=False)
    return [after_call, f"assert {_count_expr(res, 'count_after')} == {before}"]


def collection_owner(model: Model, ep: Endpoint) -> Resource | None:
    """The resource `ep` belongs to: by item path, else the one it lists or creates."""
    return model.owner(ep.path) or next(
        (r for r in model.resources if ep in (r.listing, r.create)), None)


def no_leak(w: Writer, case: Case, ep: Endpoint) -> tuple[dict[str, str], list[str]] | None:
    """Create a record `ep` would show (with credentials), for a read that must be refused:
    the bindings to read it, and the lines checking the refused answer does not carry the
    record's text. None when no such record can be made."""
    res = collection_owner(w.model, ep)
    if res is None or not res.creatable or res.parent is not None or not w.model.auth_usable:
        return None
    if ep not in (res.listing, res.get):
        return None
    text = next((k for k in w.echo_fields(res, res.payload or {})
                 if isinstance((res.payload or {}).get(k), str)), None)
    if text is None:
        return None
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    value = f"payload[{literal(text)}]"
    # raw, and as JSON escapes it (`\\u8bfb...`) when the service answers in ASCII
    return bindings, [f"assert {value} not in response.text",
                      f"assert ascii({value})[1:-1] not in response.text"]


def reported_key(ep: Endpoint, key: str) -> str | None:
    """Where `ep`'s documented answer reports the value sent for `key`: under `key`, or as the
    new value of a change it reports (`"new_rating": 5` beside `"old_rating": 3`), there only
    where the document's own example shows the value sent coming back (an answer adding the
    value sent to the old one shows another: `"score": "2"` -> `"new_score": 3`). None:
    nowhere."""
    doc = response_doc(ep)
    if not isinstance(doc, dict):
        return key  # no answer shown: where the record's field is
    if key in doc:  # the record itself (an example copied from a read may show old values)
        return key
    sent = ep.request_example if isinstance(ep.request_example, dict) else {}
    for name in (f"new_{key}", f"new{key[:1].upper()}{key[1:]}"):
        if name in doc:
            return name if key not in sent or str(sent[key]) == str(doc[name]) else None
    return None


def previous_key(ep: Endpoint, key: str) -> str | None:
    """The key `ep`'s documented answer reports `key`'s value before the change under
    (`old_rating`, `previous_rating`, `oldRating`)."""
    doc = response_doc(ep)
    cap = key[:1].upper() + key[1:]
    return next((n for n in (f"old_{key}", f"previous_{key}", f"old{cap}", f"previous{cap}")
                 if isinstance(doc, dict) and n in doc), None)
