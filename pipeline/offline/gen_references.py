"""Offline template for a record whose body names other records of the same parent (a bill's
`payer` and `payed_for`, members of its project; `references.link_siblings`).

The test makes those records first, sends their ids (two where the body takes a list), and
reads the new record back: it names every record it was sent, in a list of them (`"owers":
[{"id": 22, ...}]`) or in an id field (`payer_id`). A service that keeps one of the list's ids,
or stores another member as the payer, fails it.
"""

from __future__ import annotations

from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_model import Resource
from pipeline.offline.references import referenced_counts


def _field_for(res: Resource, key: str) -> str | None:
    """The representation's field holding the id a scalar reference sent (`payer_id`)."""
    return next((k for k in (f"{key}_id", f"{key}Id", key) if isinstance(
        res.fields.get(k), int | str) and not isinstance(res.fields.get(k), bool)), None)


def names_what_it_was_sent(w: Writer, res: Resource) -> Case | None:
    get = res.get
    if not res.refs or get is None or not res.creatable or not w.model.reachable(get):
        return None
    example = res.create.request_example if res.create is not None else None
    sent = example if isinstance(example, dict) else {}
    shown_lists = any(isinstance(v, list) and v for v in res.fields.values())
    lists = [k for k in res.refs if isinstance(sent.get(k), list) and shown_lists]
    scalars = {k: f for k in res.refs if k not in lists and (f := _field_for(res, k))}
    if not lists and not scalars:
        return None
    if not any(n > 1 for _, n in referenced_counts(res).values()) and not scalars:
        return None
    case = Case(f"test_{res.noun}_names_each_record_it_was_sent", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    case.add(w.call(case, "fetched", get, {**bindings, res.param or "id": res.id_var}),
             status_assert("fetched", get),
             f"record = {res.record_of('fetched', get)}")
    if lists:
        case.add("listed = ids_listed(record)")
        case.add(*[f"assert {{str(i) for i in payload[{literal(k)}]}} <= listed, record"
                   for k in lists])
    case.add(*[f"assert str(record[{literal(f)}]) == str(payload[{literal(k)}]), record"
               for k, f in scalars.items()])
    return case
