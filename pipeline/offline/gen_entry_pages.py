"""Offline template for entries a record collects through an action and lists in pages.

`POST /events/{id}/register` files an entry under the event; `GET /events/{id}/attendees`
lists them with `limit (default: 10)` and `offset`. The test makes one entry more than the
default page holds, reads the list with no paging parameters (exactly the default number) and
again from `offset` = that number (the rest): together every entry once. A wrong default, an
ignored offset or a page that repeats the one before fails here; the order is left open.

The action and the list are linked by evidence, not by their names: the list the oracle
answered after the documented action shows the value the action sent, or the list's
documented record carries the action's fields.
"""

from __future__ import annotations

from pipeline.offline.gen_behaviour import OFFSET_PARAMS
from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import SIZE_PARAMS, Resource, first_record, response_doc
from pipeline.offline.gen_state_rules import CAPACITY_KEY, record_actions
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint

MAX_DEFAULT = 50  # more entries than this in one test is a load test, not a rule check


def _default(ep: Endpoint, names: tuple[str, ...]) -> tuple[str, object] | None:
    param = next((p for p in ep.params if p.location == "query" and p.name in names), None)
    return (param.name, param.constraints.get("default")) if param is not None else None


def _shown_key(w: Writer, action: Endpoint, listing: Endpoint, sent: dict) -> str | None:
    """A sent text field the list shows: as the oracle answered after the documented action
    (the example's value listed), else as the list's documented record names it."""
    lines = "\n".join(payload_lines("x", sent))  # entries differ in the fields made unique
    texts = [k for k, v in sent.items() if isinstance(v, str) and v
             and f"{literal(k)}: unique(" in lines]
    for obs in w.model.spec.observed:
        if obs.method == "GET" and obs.path == listing.path and isinstance(obs.answer, list):
            rows = [r for r in obs.answer if isinstance(r, dict)]
            shown = [k for k in texts if any(r.get(k) == sent[k] for r in rows)]
            if shown:
                return shown[0]
    record = first_record(response_doc(listing))
    return next((k for k in texts if k in record), None) if isinstance(record, dict) else None


def entries_in_pages(w: Writer, action: Endpoint, owner: Resource) -> Case | None:
    item = owner.item or ""
    listing = next((e for e in w.model.spec.endpoints if e.method == "GET"
                    and e.path.startswith(item + "/") and e.path.count("{") == 1
                    and w.model.reachable(e)), None)
    sent = payload_of(action)
    if listing is None or not isinstance(sent, dict) or not sent:
        return None
    size, offset = _default(listing, SIZE_PARAMS), _default(listing, OFFSET_PARAMS)
    if size is None or offset is None or not isinstance(size[1], int) \
            or isinstance(size[1], bool) or not 0 < size[1] <= MAX_DEFAULT:
        return None
    key = _shown_key(w, action, listing, sent)
    if key is None:
        return None
    page = size[1]
    room = {k: str(page + 1) for k, v in (owner.payload or {}).items()
            if CAPACITY_KEY.search(k) and isinstance(v, int) and not isinstance(v, bool)
            and v <= page}
    case = Case(f"test_{thing(listing.path)}_pages_by_{offset[0]}_hold_every_entry_once",
                "edge_case")
    bindings: dict[str, str] = {}
    if owner.parent is not None or not w.create_chain(case, owner, bindings, overrides=room):
        return None
    case.add("made = []", f"for _ in range({page + 1}):",
             *["    " + line for line in payload_lines("entry", sent)],
             "    " + w.call(case, "joined", action, bindings, "json=entry"),
             "    assert 200 <= joined.status_code < 300, joined.text",
             f"    made.append(entry[{literal(key)}])",
             w.call(case, "first", listing, bindings), status_assert("first", listing),
             f"first_page = [row[{literal(key)}] for row in records_in(first.json())]",
             f"assert len(first_page) == {page}, first_page",
             w.call(case, "rest", listing, bindings, f"params={{{literal(offset[0])}: {page}}}"),
             status_assert("rest", listing),
             f"rest_page = [row[{literal(key)}] for row in records_in(rest.json())]",
             "assert sorted(first_page + rest_page) == sorted(made), (first_page, rest_page)")
    return case


def entry_page_cases(w: Writer) -> list[Case | None]:
    return [entries_in_pages(w, ep, owner) for ep, owner in record_actions(w)]
