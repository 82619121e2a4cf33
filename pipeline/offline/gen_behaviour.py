"""Offline templates that check behaviour against data the test itself created.

Shape checks (status, keys, types) pass on services that filter nothing, store the wrong value
or never refuse a forbidden delete. These templates create their own records with unique
markers, so other tests' data cannot interfere and every run starts from the same view:
filters and search return exactly the marked records, pages split them as documented, a list
grows by one, a guarded delete is refused with its documented code and the record survives.
No assertion sits inside a loop over a collection that may be empty.
"""

from __future__ import annotations

from pipeline.offline import gen_access
from pipeline.offline.gen_code import (
    Case,
    Made,
    Writer,
    add_payload,
    literal,
    payload_lines,
    status_assert,
)
from pipeline.offline.gen_common import records_expr, thing
from pipeline.offline.gen_docs import (
    CASE_INSENSITIVE,
    SUBSTRING,
    allowed_values,
    default_order,
    filter_field,
    is_text_filter,
    named_fields,
    query_params,
    search_field,
    sort_params,
)
from pipeline.offline.gen_model import (
    PAGE_PARAMS,
    SEARCH_PARAMS,
    SIZE_PARAMS,
    UNIQUE_KEY,
    Resource,
    error_code,
    has_reference,
    response_doc,
    success_status,
)
from pipeline.offline.names import snake
from pipeline.offline.payloads import payload_of
from pipeline.offline.schema_values import skeleton
from pipeline.records import Endpoint, Param

OFFSET_PARAMS = ("offset", "skip")
LIMIT_PARAMS = ("limit",)


def listable(w: Writer, res: Resource) -> bool:
    """A top-level record the test can create, list and delete again."""
    return (res.creatable and res.parent is None and res.create is not None
            and res.id_field is not None and w.model.reachable(res.create)
            and w.findable(res))


def start_cleaning(name: str, category: str, w: Writer, res: Resource) -> Case:
    """A case that deletes every record it creates (listed in `created`) when it ends."""
    case = Case(name, category)
    case.add("created = []")
    if res.delete is not None and w.model.reachable(res.delete):
        line = w.call(case, "_", res.delete, {res.param or "id": "record_id"})
        case.endpoints.clear()  # cleanup is not what the case tests
        case.cleanup += ["for record_id in created:", "    " + line.split(" = ", 1)[1]]
    return case


def create_record(case: Case, w: Writer, res: Resource, tag: str, edits: list[str]) -> str:
    """Create one record from the documented payload plus `edits`; its id variable."""
    assert res.create is not None
    pvar, rvar, idv = f"{tag}_payload", f"{tag}_created", f"{tag}_id"
    payload = w.payload_for(res, deletable=True) or {}
    case.add(*payload_lines(pvar, payload))
    case.add(*[f"{pvar}[{literal(k)}] = unique({literal(payload[k])})"  # one per record
               for k in res.free_refs if isinstance(payload.get(k), str)])
    case.add(*[e.replace("{p}", pvar) for e in edits])
    case.add(w.call(case, rvar, res.create, {}, f"json={pvar}"), status_assert(rvar, res.create))
    if w.plain_create(res):
        case.add(f"{idv} = {res.created_id(rvar)}")
    else:
        found = w.take_created(case, res, {}, Made(rvar, pvar, f"{tag}_record", idv))
        assert found, "callers check listable"
    case.add(f"created.append({idv})")
    return idv


def list_doc(ep: Endpoint) -> object:
    """The list body's documented shape: its example, else a skeleton of its schema."""
    doc = response_doc(ep)
    if doc is None and ep.response_schema:
        doc = skeleton(ep.response_schema)
    return doc


def _records(ep: Endpoint, body: str) -> str | None:
    """Source for the records of a list body: where the document shows them; when it shows
    no body at all (a screenshot), the body itself if a list, else its one list of records."""
    found = records_expr(list_doc(ep), body)
    if found is None and list_doc(ep) is None and not ep.response_examples:
        found = (f"[v for v in ({body}.values() if isinstance({body}, dict) else [{body}]) "
                 f"if isinstance(v, list)][0]")
    return found


def _list(case: Case, w: Writer, ep: Endpoint, var: str, params: str) -> str | None:
    """GET the list with `params`; the source of the listed ids (None: shape unknown)."""
    records = _records(ep, f"{var}.json()")
    if records is None:
        return None
    case.add(w.call(case, var, ep, {}, f"params={params}"), status_assert(var, ep))
    return records


def _ids(records: str, res: Resource) -> str:
    return f"[record[{literal(res.id_field)}] for record in {records}]"


def _listing(w: Writer, res: Resource) -> Endpoint | None:
    ep = res.listing
    if ep is None or success_status(ep) not in (200, None) or not w.model.reachable(ep):
        return None
    return ep if _records(ep, "body") is not None else None


def _marker_edit(field: str, value: object, marker: str) -> str:
    """Put the marker variable into the payload field (a one-element list for tag lists)."""
    if isinstance(value, list):
        return f"{{p}}[{literal(field)}] = [{marker}]"
    return f"{{p}}[{literal(field)}] = {marker}"


def _shared_marker_edit(field: str, value: object, search: bool) -> str:
    """Mark several records alike: for an exact filter the marker itself; for a search
    `<marker> <n>` (unique per record, so a field that must be unique stays so)."""
    if isinstance(value, list) or not search:
        return _marker_edit(field, value, "marker")
    return "{p}[" + literal(field) + '] = f"{marker} {len(created)}"'


def _marker_source(value: object) -> str:
    example = value[0] if isinstance(value, list) and value else value
    text = str(example or "marker")
    if isinstance(value, list):
        text = text.lower()  # tag-like values are often stored lower-cased
    return f"unique({literal(text)})"


def filter_cases(w: Writer, res: Resource) -> list[Case]:
    """One case per documented text filter: only the record with the marker comes back."""
    ep = _listing(w, res)
    if ep is None or not listable(w, res) or not res.payload:
        return []
    out = []
    skip = set(SEARCH_PARAMS + PAGE_PARAMS + SIZE_PARAMS + OFFSET_PARAMS)
    for param in query_params(ep):
        field = filter_field(param, res.fields, res.payload)
        if param.name in skip or field is None or not is_text_filter(res.payload[field], param):
            continue
        if has_reference({field: res.payload[field]}) or _listed_values(res, field):
            continue
        out.append(_filter_case(w, res, ep, param, field))
    return out


def _listed_values(res: Resource, field: str) -> bool:
    """Does the create document allowed values for `field` (no free-text marker fits)?"""
    ep = res.create
    if ep is None:
        return False
    props = (ep.request_schema or {}).get("properties") or {}
    prop = props.get(field) if isinstance(props, dict) else None
    return bool(isinstance(prop, dict) and prop.get("enum")) or any(
        p.name == field and p.constraints.get("enum") for p in ep.params)


def _filter_case(w: Writer, res: Resource, ep: Endpoint, param: Param, field: str) -> Case:
    case = start_cleaning(f"test_list_{thing(ep.path)}_filtered_by_{param.name.lower()}"
                          f"_returns_only_matching_{res.noun}", "api_compliance", w, res)
    value = (res.payload or {})[field]
    case.add(f"wanted = {_marker_source(value)}", f"other = {_marker_source(value)}")
    wanted = create_record(case, w, res, "match", [_marker_edit(field, value, "wanted")])
    create_record(case, w, res, "other", [_marker_edit(field, value, "other")])
    records = _list(case, w, ep, "listed", f"{{{literal(param.name)}: wanted}}")
    assert records is not None
    case.add(f"assert {_ids(records, res)} == [{wanted}]")
    if CASE_INSENSITIVE.search(param.description):
        again = _list(case, w, ep, "upper", f"{{{literal(param.name)}: wanted.upper()}}")
        case.add(f"assert {_ids(again or '', res)} == [{wanted}]")
    return case


def enum_filter_case(w: Writer, res: Resource) -> list[Case]:
    """A filter over listed values (`priority=low / normal / high`): two records with
    different values, narrowed by a search marker; each value returns its own record only."""
    ep = _listing(w, res)
    search = _search_param(ep) if ep else None
    text = search_field(search, res.payload or {}) if search else None
    if ep is None or search is None or text is None or not listable(w, res):
        return []
    out = []
    for param in query_params(ep):
        field = filter_field(param, res.fields, res.payload or {})
        values = allowed_values(param)
        sent = (res.payload or {}).get(field or "")
        if field is None or field == text or sent not in values:
            continue
        other = next(v for v in values if v != sent)
        case = start_cleaning(f"test_list_{thing(ep.path)}_filtered_by_{param.name.lower()}_value_"
                              f"returns_only_matching_{res.noun}", "api_compliance", w, res)
        case.add(f"marker = {_marker_source(res.payload[text])}")
        mark = _shared_marker_edit(text, res.payload[text], True)
        first = create_record(case, w, res, "first",
                              [mark, f"{{p}}[{literal(field)}] = {literal(sent)}"])
        second = create_record(case, w, res, "second",
                               [mark, f"{{p}}[{literal(field)}] = {literal(other)}"])
        for var, value, want in (("listed", sent, first), ("listed_other", other, second)):
            records = _list(case, w, ep, var, f"{{{literal(search.name)}: marker, "
                                              f"{literal(param.name)}: {literal(value)}}}")
            case.add(f"assert {_ids(records or '', res)} == [{want}]")
        out.append(case)
    return out


def _search_param(ep: Endpoint) -> Param | None:
    return next((p for p in query_params(ep) if p.name in SEARCH_PARAMS), None)


def search_case(w: Writer, res: Resource) -> Case | None:
    """Search by part of one record's text: exactly that record, in any letter case."""
    ep = _listing(w, res)
    param = _search_param(ep) if ep else None
    field = search_field(param, res.payload or {}) if param else None
    if ep is None or param is None or field is None or not listable(w, res):
        return None
    case = start_cleaning(f"test_search_{thing(ep.path)}_by_{param.name.lower()}"
                          f"_finds_only_matching_{res.noun}", "api_compliance", w, res)
    case.add(f"marker = {_marker_source((res.payload or {})[field])}")
    wanted = create_record(case, w, res, "match", [f"{{p}}[{literal(field)}] = marker"])
    create_record(case, w, res, "other", [])
    part = "marker[1:-1]" if SUBSTRING.search(param.description) else "marker"
    records = _list(case, w, ep, "found", f"{{{literal(param.name)}: {part}}}")
    assert records is not None
    case.add(f"assert {_ids(records, res)} == [{wanted}]")
    if CASE_INSENSITIVE.search(param.description):
        again = _list(case, w, ep, "found_upper", f"{{{literal(param.name)}: {part}.upper()}}")
        case.add(f"assert {_ids(again or '', res)} == [{wanted}]")
    for other in named_fields(param, res.payload or {}):  # "by name, description, or URL"
        if other == field:
            continue
        var = f"marker_{snake(other)}"
        case.add(f"{var} = {_marker_source((res.payload or {})[other])}")
        made = create_record(case, w, res, f"by_{snake(other)}",
                             [f"{{p}}[{literal(other)}] = {var}"])
        part = f"{var}[1:-1]" if SUBSTRING.search(param.description) else var
        if CASE_INSENSITIVE.search(param.description):
            part += ".upper()"
        hits = _list(case, w, ep, f"found_{snake(other)}", f"{{{literal(param.name)}: {part}}}")
        case.add(f"assert {_ids(hits or '', res)} == [{made}]")
    return case


def _isolating(ep: Endpoint, res: Resource) -> tuple[str, str] | None:
    """A query parameter that narrows the list to this test's records: (name, payload field)."""
    for param in query_params(ep):
        field = filter_field(param, res.fields, res.payload or {})
        if field and is_text_filter((res.payload or {})[field], param) and param.name not in (
                SEARCH_PARAMS + PAGE_PARAMS + SIZE_PARAMS) and not _listed_values(res, field):
            return param.name, field
    param = _search_param(ep)
    field = search_field(param, res.payload or {}) if param else None
    return (param.name, field) if param and field else None


def _paging(ep: Endpoint) -> tuple[str, str, bool] | None:
    """(page or offset parameter, size parameter, offset-based?) when both are documented."""
    names = [p.name for p in query_params(ep)]
    size = next((n for n in SIZE_PARAMS if n in names), None)
    page = next((n for n in PAGE_PARAMS if n in names), None)
    offset = next((n for n in OFFSET_PARAMS if n in names), None)
    if size is None or (page is None and offset is None):
        return None
    return (page or offset or ""), size, page is None


def pagination_case(w: Writer, res: Resource) -> Case | None:
    """Three marked records, pages of two: sizes 2 then 1, totals 3, no record lost or repeated."""
    ep = _listing(w, res)
    paging = _paging(ep) if ep else None
    narrow = _isolating(ep, res) if ep else None
    if ep is None or paging is None or narrow is None or not listable(w, res):
        return None
    (page, size, by_offset), (param, field) = paging, narrow
    value = (res.payload or {})[field]
    case = start_cleaning(f"test_list_{thing(ep.path)}_pages_split_created_{res.noun}s",
                          "edge_case", w, res)
    case.add(f"marker = {_marker_source(value)}")
    edit = _shared_marker_edit(field, value, param in SEARCH_PARAMS)
    ids = [create_record(case, w, res, f"rec{i}", [edit]) for i in range(3)]
    first, second = ("0", "2") if by_offset else ("1", "2")
    r1 = _list(case, w, ep, "page_one", f"{{{literal(param)}: marker, {literal(page)}: {first}, "
                                        f"{literal(size)}: 2}}")
    r2 = _list(case, w, ep, "page_two", f"{{{literal(param)}: marker, {literal(page)}: {second}, "
                                        f"{literal(size)}: 2}}")
    assert r1 is not None and r2 is not None
    case.add(f"first_ids = {_ids(r1, res)}", f"second_ids = {_ids(r2, res)}",
             "assert len(first_ids) == 2 and len(second_ids) == 1",
             f"assert sorted(first_ids + second_ids) == sorted([{', '.join(ids)}])")
    doc = response_doc(ep)
    total = next((k for k in ("total", "count", "total_count") if isinstance(doc, dict)
                  and isinstance(doc.get(k), int)), None)
    if total:
        case.add(f"assert page_one.json()[{literal(total)}] == 3")
    return case


def order_case(w: Writer, res: Resource) -> Case | None:
    """The documented default order (newest or oldest first), seen on records just created."""
    ep = _listing(w, res)
    order = default_order(ep) if ep else None
    if ep is None or order is None or not listable(w, res):
        return None
    case = start_cleaning(f"test_list_{thing(ep.path)}_in_documented_order_{order}_first",
                          "edge_case", w, res)
    paging = _paging(ep)
    newest_page = order == "newest" and paging is not None and paging[2]
    if paging is not None and not newest_page:
        return None  # the records may sit on a later page
    ids = [create_record(case, w, res, f"rec{i}", []) for i in range(2)]
    if paging is not None:  # newest first, offset paging: the first page starts with them
        records = _list(case, w, ep, "listed", f"{{{literal(paging[1])}: 2, "
                                               f"{literal(paging[0])}: 0}}")
        case.add(f"assert {_ids(records or '', res)} == [{ids[1]}, {ids[0]}]")
        return case
    listed = _ids(_records(ep, "listed.json()") or "", res)
    case.add(w.call(case, "listed", ep, {}), status_assert("listed", ep),
             f"positions = [{listed}.index(i) for i in ({ids[0]}, {ids[1]})]")
    case.add("assert positions[0] > positions[1]" if order == "newest"
             else "assert positions[0] < positions[1]")
    return case


def sort_case(w: Writer, res: Resource) -> Case | None:
    """A documented sort on a numeric field, both directions, over two marked records."""
    ep = _listing(w, res)
    found = sort_params(ep, res.fields) if ep else None
    narrow = _isolating(ep, res) if ep else None
    if ep is None or found is None or narrow is None or not listable(w, res):
        return None
    sort, named, direction = found
    payload = res.payload or {}
    field = next((f for f in named if isinstance(payload.get(f), int)
                  and not isinstance(payload.get(f), bool) and f != narrow[1]), None)
    if field is None:
        return None
    param, marked = narrow
    value = payload[marked]
    case = start_cleaning(f"test_list_{thing(ep.path)}_sorted_by_{field.lower()}_both_directions",
                          "edge_case", w, res)
    case.add(f"marker = {_marker_source(value)}")
    edit = _shared_marker_edit(marked, value, param in SEARCH_PARAMS)
    low = create_record(case, w, res, "low",
                        [edit, f"{{p}}[{literal(field)}] = {payload[field]}"])
    high = create_record(case, w, res, "high",
                         [edit, f"{{p}}[{literal(field)}] = {payload[field] + 1}"])
    up = f"{{{literal(param)}: marker, {literal(sort)}: {literal(field)}"
    up += "}" if direction == "-" else f", {literal(direction)}: \"asc\"}}"
    down = (f"{{{literal(param)}: marker, {literal(sort)}: {literal('-' + field)}}}"
            if direction == "-" else
            f"{{{literal(param)}: marker, {literal(sort)}: {literal(field)}, "
            f"{literal(direction)}: \"desc\"}}")
    r_up = _list(case, w, ep, "ascending", up)
    r_down = _list(case, w, ep, "descending", down)
    case.add(f"assert {_ids(r_up or '', res)} == [{low}, {high}]",
             f"assert {_ids(r_down or '', res)} == [{high}, {low}]")
    return case


def list_grows(w: Writer, res: Resource) -> Case | None:
    """Creating one record adds exactly one to the list's total (or length) and lists it."""
    ep = _listing(w, res)
    if ep is None or not listable(w, res):
        return None
    doc = response_doc(ep)
    total = next((k for k in ("total", "count", "total_count") if isinstance(doc, dict)
                  and isinstance(doc.get(k), int)), None)
    if total is None and (not isinstance(doc, list) or _paging(ep)):
        return None
    case = start_cleaning(f"test_list_{thing(ep.path)}_grows_by_one_after_create",
                          "integration", w, res)
    size = "len(before.json())" if total is None else f"before.json()[{literal(total)}]"
    after = "len(after.json())" if total is None else f"after.json()[{literal(total)}]"
    narrow = _isolating(ep, res)
    case.add(w.call(case, "before", ep, {}), status_assert("before", ep))
    edits = []
    if narrow is not None:
        value = (res.payload or {})[narrow[1]]
        case.add(f"marker = {_marker_source(value)}")
        edits = [_marker_edit(narrow[1], value, "marker")]
    new = create_record(case, w, res, "new", edits)
    case.add(w.call(case, "after", ep, {}), status_assert("after", ep),
             f"assert {after} == {size} + 1")
    if total is None:
        case.add(f"assert {new} in {_ids('after.json()', res)}")
    elif narrow is not None:
        records = _list(case, w, ep, "found", f"{{{literal(narrow[0])}: marker}}")
        case.add(f"assert {_ids(records or '', res)} == [{new}]")
    return case


def posted_then_listed(w: Writer, ep: Endpoint) -> Case | None:
    """A fixed-path list with a POST beside it that is no resource's create (a catalogue):
    after a POST the list holds one more entry, the one sent."""
    if ep.method != "GET" or "{" in ep.path or success_status(ep) != 200:
        return None
    post = next((e for e in w.model.spec.endpoints if e.method == "POST" and e.path == ep.path),
                None)
    if post is None or any(r.create is post for r in w.model.resources):
        return None
    doc, listed = response_doc(post), response_doc(ep)
    payload = payload_of(post, doc if isinstance(doc, dict) else None)
    record = listed[0] if isinstance(listed, list) and listed else None
    key = next((k for k in payload or {} if UNIQUE_KEY.search(k) and isinstance(record, dict)
                and k in record and isinstance(payload[k], str)), None)
    if (payload is None or key is None or has_reference(payload) or success_status(post) is None
            or not (w.model.reachable(ep) and w.model.reachable(post))):
        return None
    case = Case(f"test_{thing(ep.path)}_list_holds_the_posted_entry", "integration")
    case.add(w.call(case, "before", ep, {}), status_assert("before", ep),
             *payload_lines("payload", payload),
             w.call(case, "made", post, {}, "json=payload"), status_assert("made", post),
             w.call(case, "after", ep, {}), status_assert("after", ep),
             "assert len(after.json()) == len(before.json()) + 1",
             f"assert payload[{literal(key)}] in [entry[{literal(key)}] for entry in after.json()]")
    return case


def _state_action(w: Writer, res: Resource) -> Endpoint | None:
    """A POST under the record that puts it in a state (documented 409 when repeated)."""
    for ep in w.model.spec.endpoints:
        if (ep.method == "POST" and res.item and ep.path.startswith(res.item + "/")
                and ep.path.count("{") == 1 and error_code(ep, 409, "already")
                and success_status(ep) and w.model.reachable(ep)):
            return ep
    return None


def guarded_delete(w: Writer, res: Resource) -> Case | None:
    """A delete the document forbids in some state (409): refused, and the record survives."""
    ep = res.delete
    if ep is None or not error_code(ep, 409) or not listable(w, res) or not w.model.reachable(ep):
        return None
    action = _state_action(w, res)
    payload = payload_of(action) if action else None
    held = res.payload != w.payload_for(res, deletable=True)  # stock-like counts left non-zero
    if action is None and not held:
        return None
    if payload is not None and has_reference(payload):
        return None
    case = Case(f"test_delete_{res.noun}_in_guarded_state_returns_409", "error_handling")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings, deletable=not held):
        return None
    if action is not None and not held:
        extra = add_payload(case, "body_sent", payload)
        case.add(w.call(case, "started", action, bindings, extra), status_assert("started", action))
        undo = next((e for e in w.model.spec.endpoints
                     if e.method == "DELETE" and e.path == action.path), None)
        if undo is not None:
            line = w.call(case, "_", undo, bindings)
            case.cleanup.insert(0, line.split(" = ", 1)[1])
            case.endpoints[:] = [e for e in case.endpoints if e != f"DELETE {undo.path}"]
    case.add(w.call(case, "refused", ep, bindings),
             "assert refused.status_code == 409, refused.text", *w.errors("refused", 409))
    if res.get is not None and w.model.reachable(res.get):
        case.add(w.call(case, "still", res.get, bindings), status_assert("still", res.get),
                 f"assert {res.id_of(res.record_of('still', res.get), res.get)} "
                 f"== {res.id_var}")
    return case


def behaviour_cases(w: Writer) -> list[Case | None]:
    """Every behaviour template over the model's resources, in a fixed order."""
    out: list[Case | None] = []
    for res in w.model.resources:
        out += filter_cases(w, res) + enum_filter_case(w, res)
        out += [search_case(w, res), pagination_case(w, res), order_case(w, res),
                sort_case(w, res),
                list_grows(w, res), guarded_delete(w, res),
                gen_access.other_user_cannot_change(w, res),
                gen_access.account_list_is_own(w, res)]
    out.append(gen_access.wrong_token(w))
    out += [posted_then_listed(w, ep) for ep in w.model.spec.endpoints]
    out += [gen_access.other_user_refused(w, ep) for ep in w.model.spec.endpoints]
    return out
