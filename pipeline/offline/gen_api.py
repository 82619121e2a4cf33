"""Offline templates: API compliance (documented status, fields, types) and edge cases."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pipeline.offline.gen_code import (
    Case,
    Made,
    Writer,
    add_payload,
    literal,
    payload_lines,
    status_assert,
)
from pipeline.offline.gen_common import (
    VERBS,
    action_name,
    bind,
    body_checks,
    holds_items,
    listed_records,
    nested_items,
    path_params,
    query_param,
    record_checks,
    records_expr,
    reported_key,
    thing,
)
from pipeline.offline.gen_model import (
    PAGE_PARAMS,
    SEARCH_PARAMS,
    SIZE_PARAMS,
    UNSAFE_PATH,
    Resource,
    error_code,
    has_reference,
    response_doc,
    schema_constants,
    success_status,
)
from pipeline.offline.payloads import payload_of
from pipeline.offline.update_bodies import update_payload
from pipeline.records import Endpoint


def _status_words(code: int | None) -> str:
    return f"returns_{code}" if code else "succeeds"


def static_get(w: Writer, ep: Endpoint) -> Case | None:
    """GET on a path without parameters: documented status and body."""
    code = success_status(ep)
    if code is None or not w.model.reachable(ep):
        return None
    checks = body_checks("response", ep, constants=w.model.envelope)
    if checks:
        checks += constant_checks("body", response_doc(ep))
    suffix = "_with_documented_fields" if checks else ""
    case = Case(f"test_get_{thing(ep.path)}_{_status_words(code)}{suffix}", "api_compliance")
    listed = _created_for_listing(w, case, ep) if checks else []
    case.add(w.call(case, "response", ep, {}), status_assert("response", ep), *checks, *listed)
    counted = _counted(w, ep) if checks and not listed else None
    if counted is not None:  # a count the document ties to a resource: one more after a create
        res, key = counted
        if w.create_chain(case, res, {}, Made("created")):
            case.add(w.call(case, "recount", ep, {}), status_assert("recount", ep),
                     f"assert recount.json()[{literal(key)}] == body[{literal(key)}] + 1")
    return case


def _counted(w: Writer, ep: Endpoint) -> tuple[Resource, str] | None:
    """A top-level count in `ep`'s documented answer that creating a record must raise by
    one: `total` of a summary under the resource's path (`/todos/stats`), or a count named
    after the collection (`{"status": "ok", "books": 12}` beside `/api/books`)."""
    doc = response_doc(ep)
    if not isinstance(doc, dict):
        return None
    for res in w.model.resources:
        if not res.creatable or res.parent is not None or res.create is None:
            continue
        base = res.create.path.rstrip("/")
        last = base.rsplit("/", 1)[-1].lower()
        for key, value in doc.items():
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            named = len(key) > 3 and (last == key.lower() or last.endswith(("-" + key.lower(),
                                                                            "_" + key.lower())))
            under = ep.path.startswith(base + "/") and key.lower() in ("total", "count")
            if named or under:
                return res, key
    return None


def _created_for_listing(w: Writer, case: Case, ep: Endpoint) -> list[str]:
    """For the list of a resource the test can create: create one first, then the lines that
    find it in the list (an unpaged list), or at least one record and a total to match (a
    paged one, where the new record may sit on a later page)."""
    res = next((r for r in w.model.resources if r.listing is ep and r.creatable
                and r.parent is None and r.id_field), None)
    doc = response_doc(ep)
    records = listed_records(res, ep, "body")
    if res is None or records is None or not w.create_chain(case, res, {}):
        return []
    shape = res.observed(ep) if res is not None else None
    if isinstance(doc, list) or (shape is not None and not shape.list_paged):
        return [f"assert {res.id_var} in [{res.id_of('record', ep)} for record in {records}]"]
    total = next((k for k in ("total", "count", "total_count") if isinstance(doc, dict)
                  and isinstance(doc.get(k), int)), None)
    out = [f"assert len({records}) >= 1"]
    if total:
        out.append(f"assert body[{literal(total)}] >= len({records})")
    return out


_CONSTANT_KEYS = ("status", "state", "health", "pong", "ok", "alive", "ready", "healthy")
_CONSTANT_WORD = re.compile(r"^[A-Za-z][A-Za-z_-]{0,19}$")


def constant_checks(body_var: str, doc: object) -> list[str]:
    """Documented literal values a health-like answer always carries (`{"status": "ok"}`,
    `{"pong": true}`): the value, not only its type, is the contract."""
    if not isinstance(doc, dict):
        return []
    out = []
    for key, value in doc.items():
        if str(key).lower() not in _CONSTANT_KEYS:
            continue
        if isinstance(value, bool) or (isinstance(value, str) and _CONSTANT_WORD.match(value)):
            out.append(f"assert {body_var}[{literal(key)}] == {literal(value)}")
    return out


def create(w: Writer, res: Resource) -> Case | None:
    if not res.creatable or res.create is None or not w.model.reachable(res.create):
        return None
    code = success_status(res.create)
    case = Case(f"test_create_{res.noun}_{_status_words(code)}_with_record", "api_compliance")
    if not w.create_chain(case, res, {}):
        return None
    case.add(*[f"assert payload[{literal(k)}] not in response.text, response.text"
               for k, v in (res.payload or {}).items()  # a service never shows a password back
               if "pass" in k.lower() and isinstance(v, str) and len(v) >= 6][:1])
    if res.created_id_key:  # the answer reports the creation: what it documents, nothing more
        case.add(*body_checks("response", res.create, "answer", w.model.envelope))
        return case
    if res.created_bare:  # the answer is the id; the document's shows which sent value it is
        doc, sent = response_doc(res.create), res.create.request_example
        same = [k for k, v in sent.items() if v == doc] if isinstance(sent, dict) else []
        if len(same) > 1:  # `name=yay&id=yay` answered "yay": the id is the id
            same = [k for k in same if k == res.id_field]
        case.add(*[f"assert {res.id_var} == payload[{literal(k)}]" for k in same[:1]
                   if len(same) == 1])
        return case
    checks = record_checks(res, res.var, "payload", res.payload, w)
    checks += [f"assert {res.var}[{literal(k)}] == {literal(v)}"
               for k, v in schema_constants(res.create).items()]
    case.add(*(checks or [f"assert {res.id_var} is not None"]))
    return case


def get_item(w: Writer, res: Resource) -> Case | None:
    ep = res.get
    if ep is None or not res.creatable or not w.model.reachable(ep) or not res.reads_back():
        return None
    case = Case(f"test_get_{res.noun}_returns_created_{res.noun}", "api_compliance")
    bindings = bind(case, w, ep)
    if bindings is None:
        return None
    case.add(w.call(case, "fetched", ep, bindings), status_assert("fetched", ep),
             f"body = {res.record_of('fetched', ep)}",
             *[f"assert {res.id_of('body', ep)} == {res.id_var}"][:int(res.shows_id)])
    case.add(*record_checks(res, "body", "payload", res.payload, w, read=ep))
    return case


def location_names_record(w: Writer, res: Resource) -> Case | None:
    """The create's `Location` header names the new record: reading it gives back the
    values sent (the header may be absolute or relative to the service)."""
    ep, get = res.create, res.get
    if ep is None or get is None or not ep.location_header or not res.creatable \
            or res.parent is not None or not (w.model.reachable(ep) and w.model.reachable(get)):
        return None
    case = Case(f"test_create_{res.noun}_location_header_names_the_new_{res.noun}",
                "api_compliance")
    case.add(*payload_lines("payload", w.payload_for(res) or {}),
             w.call(case, "response", ep, {}, "json=payload"), status_assert("response", ep),
             'location = response.headers["Location"]',
             'url = requests.compat.urljoin(base_url + "/", location)')
    if res.delete is not None and w.model.reachable(res.delete):
        auth = ", headers=auth_headers" if w.model.needs_auth(res.delete) else ""
        case.cleanup.append(f"session.delete(url{auth})")
    case.target(get)
    headers = ", headers=auth_headers" if w.model.needs_auth(get) else ""
    case.add(f"fetched = session.get(url{headers})", status_assert("fetched", get),
             f"body = {res.record_of('fetched', get)}")
    case.add(*[f"assert body[{literal(k)}] == payload[{literal(k)}]"
               for k in w.echo_fields(res, res.payload or {})])
    return case


def emit_update(w: Writer, case: Case, res: Resource, bindings: dict[str, str]) -> bool:
    """Send the update, assert what it changed, then read the record back and see it stored."""
    ep, changes = res.update, update_payload(res)
    if ep is None or changes is None:
        return False
    case.add(*payload_lines("changes", changes))
    case.add(w.call(case, "updated", ep, bindings, "json=changes"), status_assert("updated", ep))
    echo = w.echo_fields(res, changes)
    doc = response_doc(ep)
    if doc is not None and not isinstance(doc, dict | list):  # `80`: no record comes back
        if res.create is not None and response_doc(res.create) == doc:  # the id, as made
            case.add(f"assert str(updated.json()) == str({res.id_var}), updated.text")
    elif success_status(ep) != 204 and res.observed(ep) is None:  # a shown answer only
        shown = {k: reported_key(ep, k) for k in echo}
        case.add("after = updated.json()")
        case.add(*[f"assert after[{literal(r)}] == changes[{literal(k)}]"
                   for k, r in shown.items() if r is not None])
        if not any(shown.values()):
            case.add(f"assert after[{literal(_id_key(res, ep))}] == {res.id_var}")
    if res.get is not None and w.model.reachable(res.get) and echo:
        case.add(w.call(case, "reread", res.get, bindings), status_assert("reread", res.get),
                 f"stored = {res.record_of('reread', res.get)}",
                 *[f"assert stored[{literal(k)}] == changes[{literal(k)}]" for k in echo])
        case.add(*[holds_items(f"stored[{literal(k)}]",
                               f"payload[{literal(k)}] + changes[{literal(k)}]")
                   for k in appended_keys(res, ep, changes)])
        if ep.method == "PATCH":  # a partial update leaves the fields it did not name alone
            kept = [k for k in w.echo_fields(res, res.payload or {}) if k not in changes]
            case.add(*[f"assert stored[{literal(k)}] == payload[{literal(k)}]" for k in kept[:2]])
    elif echo and (found := find_listed(w, case, res, bindings)) is not None:
        case.add(f"stored = {found}",
                 *[f"assert stored[{literal(k)}] == changes[{literal(k)}]" for k in echo])
    return True


def appended_keys(res: Resource, ep: Endpoint, changes: dict) -> list[str]:
    """Keys of records an update adds to those the record holds: the documented answer lists
    more of them than the update sent ("Only can add new choices": the old ones stay)."""
    doc = response_doc(ep)
    sent = nested_items(changes, doc if isinstance(doc, dict) else {})
    return [k for k in sent if k in nested_items(res.payload or {}, res.fields)
            and isinstance(doc, dict) and len(doc[k]) > len(changes[k])]


def _id_key(res: Resource, ep: Endpoint) -> str:
    """The key the documented answer of `ep` gives the record's id under: the record's id
    field, else the one id it reports (`"updated_question_id": 2`)."""
    doc = response_doc(ep)
    if isinstance(doc, dict) and res.id_field not in doc:
        named = [k for k in doc if re.search(r"(?:^|_)id$|[a-z]Id$", str(k))
                 and res.noun.lower() in str(k).lower()]
        if len(named) == 1:
            return named[0]
    return res.id_field or "id"


@dataclass(frozen=True)
class Lookup:
    """A record looked up in its list: the list's answer variable, the id variable naming the
    record (empty: the resource's own), and whether the list call is what the case tests."""

    var: str = "relisted"
    id_var: str = ""
    target: bool = True


def find_listed(w: Writer, case: Case, res: Resource, bindings: dict[str, str],
                lookup: Lookup = Lookup()) -> str | None:
    """No read of one record: list them (answer in `lookup.var`) and find the one
    `lookup.id_var` names (a whole list only: an unpaged list the document shows, or one the
    oracle answered unpaged). Source of the found record; None when no whole list finds it."""
    var, id_var = lookup.var, lookup.id_var
    ep = res.listing
    doc = response_doc(ep) if ep is not None else None
    shape = res.observed(ep)
    whole = isinstance(doc, list) or (shape is not None and not shape.list_paged)
    records = listed_records(res, ep, f"{var}.json()")
    if ep is None or records is None or not whole or not w.model.reachable(ep) or (
            res.parent is not None):
        return None
    case.add(w.call(case, var, ep, bindings, target=lookup.target), status_assert(var, ep))
    return (f"next(record for record in {records} "
            f"if {res.id_of('record', ep)} == {id_var or res.id_var})")


def update(w: Writer, res: Resource) -> Case | None:
    ep = res.update
    if ep is None or not res.creatable or not w.model.reachable(ep):
        return None
    case = Case(f"test_{VERBS[ep.method]}_{res.noun}_applies_changes", "api_compliance")
    bindings = bind(case, w, ep)
    if bindings is None or not emit_update(w, case, res, bindings):
        return None
    return case


def delete(w: Writer, res: Resource) -> Case | None:
    ep = res.delete
    code = success_status(ep) if ep else None
    if ep is None or code is None or not res.creatable or not w.model.reachable(ep):
        return None
    case = Case(f"test_delete_{res.noun}_returns_{code}", "api_compliance")
    bindings = bind(case, w, ep, deletable=True)
    if bindings is None:
        return None
    case.add(w.call(case, "deleted", ep, bindings), status_assert("deleted", ep))
    if code == 204:
        case.add('assert deleted.content == b""')
    return case


def action(w: Writer, ep: Endpoint) -> Case | None:
    """An endpoint under a record (or naming one): create the record, call, check the answer."""
    code = success_status(ep)
    if code is None or not w.model.reachable(ep) or ep.method == "DELETE":
        return None
    if error_code(ep, 409) and not error_code(ep, 409, "already"):
        return None  # succeeds only in a state the document does not let us set up
    payload = payload_of(ep)
    if ep.method in ("PUT", "PATCH") and payload is None:
        return None
    if payload is not None and has_reference(payload):
        return None
    case = Case(f"test_{VERBS[ep.method]}_{action_name(w.model, ep)}_{_status_words(code)}",
                "api_compliance")
    bindings = bind(case, w, ep)
    if bindings is None:
        return None
    extra = add_payload(case, "body_sent", payload)
    if 300 <= code < 400:
        extra = "allow_redirects=False"
    case.add(w.call(case, "result", ep, bindings, extra), status_assert("result", ep))
    if 300 <= code < 400:
        case.add(*redirect_checks(w, ep))
    else:
        case.add(*body_checks("result", ep, "answer", w.model.envelope))
    return case


def redirect_checks(w: Writer, ep: Endpoint) -> list[str]:
    """The redirect goes where the record says: `Location` equals the URL the test stored."""
    owner = w.model.owner(ep.path)
    target = next((k for k, v in (owner.payload or {}).items() if isinstance(v, str)
                   and v.startswith(("http://", "https://"))), None) if owner else None
    if target is None:
        return ['assert result.headers.get("Location")']
    return [f'assert result.headers["Location"] == payload[{literal(target)}]']


def static_post(w: Writer, ep: Endpoint) -> Case | None:
    """A POST on a fixed path that is not a collection's create (batch operations...)."""
    doc = response_doc(ep)
    code, payload = success_status(ep), payload_of(ep, doc if isinstance(doc, dict) else None)
    if (code is None or payload is None or has_reference(payload) or UNSAFE_PATH.search(ep.path)
            or not w.model.reachable(ep) or response_doc(ep) is None):
        return None
    case = Case(f"test_post_{thing(ep.path)}_{_status_words(code)}_with_documented_fields",
                "api_compliance")
    case.add(*payload_lines("payload", payload))
    case.add(w.call(case, "response", ep, {}, "json=payload"), status_assert("response", ep))
    case.add(*body_checks("response", ep, constants=w.model.envelope))
    return case


# --- edge cases --------------------------------------------------------------------------


def _list_case(w: Writer, ep: Endpoint, name: str, params: str) -> tuple[Case, str] | None:
    doc = response_doc(ep)
    records = records_expr(doc, "body")
    if ep.method != "GET" or path_params(ep.path) or records is None or success_status(ep) != 200:
        return None
    if not w.model.reachable(ep):
        return None
    case = Case(name, "edge_case")
    case.add(w.call(case, "response", ep, {}, f"params={params}"), status_assert("response", ep),
             "body = response.json()")
    return case, records


def search_no_match(w: Writer, ep: Endpoint) -> Case | None:
    param = query_param(w.model, ep, SEARCH_PARAMS)
    if param is None:
        return None
    made = _list_case(w, ep, f"test_search_{thing(ep.path)}_without_match_returns_empty_list",
                      f'{{{literal(param)}: unique("nomatch")}}')
    if made is None:
        return None
    case, records = made
    case.add(f"assert {records} == []")
    doc = response_doc(ep)
    if isinstance(doc, dict) and isinstance(doc.get("total"), int):
        case.add('assert body["total"] == 0')
    return case


def page_past_end(w: Writer, ep: Endpoint) -> Case | None:
    param = query_param(w.model, ep, PAGE_PARAMS)
    if param is None:
        return None
    if error_code(ep, 404, "page"):  # "404 ... (i.e. a page of questions that don't exist)"
        return _page_past_end_404(w, ep, param)
    made = _list_case(w, ep, f"test_list_{thing(ep.path)}_page_past_end_returns_no_records",
                      f"{{{literal(param)}: 100000}}")
    if made is None:
        return None
    case, records = made
    case.add(f"assert {records} == []")
    return case


def _page_past_end_404(w: Writer, ep: Endpoint, param: str) -> Case | None:
    """The document answers a page that does not exist with 404: the first page (the
    control: a service answering 404 to every page fails) is found, one far past it is not."""
    if ep.method != "GET" or path_params(ep.path) or not w.model.reachable(ep):
        return None
    case = Case(f"test_list_{thing(ep.path)}_page_past_end_returns_404", "edge_case")
    case.add(w.call(case, "first", ep, {}, f"params={{{literal(param)}: 1}}"),
             status_assert("first", ep),
             w.call(case, "response", ep, {}, f"params={{{literal(param)}: 100000}}"),
             "assert response.status_code == 404, response.text", *w.errors("response", 404))
    return case


def page_size_one(w: Writer, ep: Endpoint) -> Case | None:
    param = query_param(w.model, ep, SIZE_PARAMS)
    if param is None:
        return None
    name = f"test_list_{thing(ep.path)}_with_{param.lower()}_1_returns_at_most_one"
    made = _list_case(w, ep, name, f"{{{literal(param)}: 1}}")
    if made is None:
        return None
    case, records = made
    case.add(f"assert len({records}) <= 1")
    doc = response_doc(ep)
    if isinstance(doc, dict) and isinstance(doc.get(param), int):
        case.add(f"assert body[{literal(param)}] == 1")
    return case


def delete_twice(w: Writer, res: Resource) -> Case | None:
    ep = res.delete
    if ep is None or not error_code(ep, 404) or not res.creatable or not w.model.reachable(ep):
        return None
    case = Case(f"test_delete_{res.noun}_twice_returns_404", "edge_case")
    bindings = bind(case, w, ep, deletable=True)
    if bindings is None:
        return None
    case.add(w.call(case, "first", ep, bindings), status_assert("first", ep),
             w.call(case, "second", ep, bindings),
             "assert second.status_code == 404, second.text",
             *w.errors("second", 404))
    return case


def partial_update(w: Writer, res: Resource) -> Case | None:
    """Where the record has both a full (PUT) and a partial (PATCH) update, the partial one
    too changes what it names and leaves the rest as it was."""
    patch = next((e for e in w.model.spec.endpoints if e.method == "PATCH"
                  and e.path == res.item), None)
    if patch is None or res.update is None or res.update is patch:
        return None
    return update(w, replace(res, update=patch))
