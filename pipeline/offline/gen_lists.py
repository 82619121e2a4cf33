"""Templates over two records of the same kind, made in one test.

- A delete seen through the list: without `GET /things/{id}` a lost delete (the service
  answers 200 but keeps the record) passes every status check, and with one a delete that
  only hides the record from its read (a flag the list ignores) does; the list shows both:
  the created record is listed, deleted, and no longer listed, while a second record created
  beside it stays. The list is read with the
  documented largest page size, so other records cannot push the test's own off the page.
- Two records read back each as itself, and an update of the second leaves the first as it
  was: a read or an update that takes the caller's first record, or ignores the id, fails
  here even where every test has an account of its own (its first record is its only one).
- A nested list holds its own parent's records only: under `/parents/{id}/children/` a child
  made under another parent is not listed, and each parent lists its own. A list that ignores
  the parent in its path (or a create that files the child under the wrong parent) passes
  every single-parent test.
"""

from __future__ import annotations

from pipeline.offline.gen_behaviour import create_record, listable, start_cleaning
from pipeline.offline.gen_code import Case, Made, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import Resource, first_record, success_status
from pipeline.offline.gen_query import (
    get_listed,
    id_list,
    list_shape,
    listing_of,
    records_path,
    size_param,
)
from pipeline.offline.gen_refusals import documents_errors
from pipeline.offline.update_bodies import update_payload
from pipeline.records import Endpoint


def deleted_not_listed(w: Writer, res: Resource) -> Case | None:
    """Create two, delete one: it leaves the list, the other stays."""
    found = listing_of(w, res)
    if (found is None or res.delete is None or not listable(w, res)
            or not w.model.reachable(res.delete)):
        return None
    ep, records = found
    size, big = size_param(ep)
    params = f"{{{literal(size.name)}: {big}}}" if size else "{}"
    case = start_cleaning(f"test_deleted_{res.noun}_leaves_the_{thing(ep.path)}_list",
                          "integration", w, res)
    gone = create_record(case, w, res, "gone", [])
    kept = create_record(case, w, res, "kept", [])
    before = get_listed(case, w, ep, "before", params, records)
    case.add(f"assert {gone} in {id_list(before, res)} and {kept} in {id_list(before, res)}")
    case.add(w.call(case, "removed", res.delete, {res.param or "id": gone}),
             status_assert("removed", res.delete))
    after = get_listed(case, w, ep, "after", params, records)
    case.add(f"assert {gone} not in {id_list(after, res)}",
             f"assert {kept} in {id_list(after, res)}")
    return case


def nested_deleted_not_listed(w: Writer, res: Resource) -> Case | None:
    """Under one parent, create two and delete one: it leaves the parent's list, the other
    stays (a record filed under a parent, with no single-record read)."""
    ep, delete = res.listing, res.delete
    if res.parent is None or res.get is not None or ep is None or delete is None \
            or not res.creatable or res.create is None or res.param is None \
            or not all(w.model.reachable(e) for e in (ep, delete, res.create)) \
            or documents_errors(delete):
        return None
    case = Case(f"test_deleted_{res.noun}_leaves_its_{res.parent.noun}s_list", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings, Made(payload="gone_payload")):
        return None
    case.add(*payload_lines("kept_payload", w.payload_for(res) or {}))
    if res.parent_key:
        case.add(f"kept_payload[{literal(res.parent_key)}] = {res.parent.id_var}")
    case.add(w.call(case, "kept_response", res.create, bindings, "json=kept_payload"),
             status_assert("kept_response", res.create))
    if not w.take_created(case, res, bindings, Made(
            "kept_response", "kept_payload", "kept_record", "kept_id")):
        return None
    before = _listed_ids(case, w, ep, "before", bindings, res)
    case.add(f"assert {res.id_var} in {before} and kept_id in {before}",
             w.call(case, "removed", delete, {**bindings, res.param: res.id_var}),
             status_assert("removed", delete))
    after = _listed_ids(case, w, ep, "after", bindings, res)
    case.add(f"assert {res.id_var} not in {after}", f"assert kept_id in {after}")
    return case


def kept_apart(w: Writer, res: Resource) -> Case | None:
    """Create two; each reads back as itself; the second updated, the first stays as it was."""
    get = res.get
    if get is None or not w.model.reachable(get) or not res.reads_back():
        return None
    echo = w.echo_fields(res, res.payload or {})
    if not echo:
        return None
    bindings: dict[str, str] = {}
    made = _make_two(w, res, f"test_two_{res.noun}s_read_back_each_as_itself", bindings)
    if made is None:
        return None
    case, ids = made

    def read(tag: str, var: str) -> None:
        case.add(w.call(case, var, get, {**bindings, res.param or "id": ids[tag]}),
                 status_assert(var, get),
                 f"{var}_body = {res.record_of(var, get)}",
                 *[f"assert {res.id_of(f'{var}_body', get)} == {ids[tag]}"][:int(res.shows_id)])

    for tag in ids:
        read(tag, f"{tag}_read")
        case.add(*[f"assert {tag}_read_body[{literal(k)}] == {tag}_payload[{literal(k)}]"
                   for k in echo])
    changes = update_payload(res, own=ids["second"])
    update = res.update
    changed = [k for k in (changes or {}) if k in echo]
    if update is None or changes is None or not changed or not w.model.reachable(update):
        return case
    case.add(*payload_lines("changes", changes),
             w.call(case, "updated", update, {**bindings, res.param or "id": ids["second"]},
                    "json=changes"),
             status_assert("updated", update))
    read("first", "first_again")
    read("second", "second_again")
    case.add(*[f"assert first_again_body[{literal(k)}] == first_payload[{literal(k)}]"
               for k in echo],
             *[f"assert second_again_body[{literal(k)}] == changes[{literal(k)}]"
               for k in changed])
    return case


def _make_two(w: Writer, res: Resource, name: str,
              bindings: dict[str, str]) -> tuple[Case, dict[str, str]] | None:
    """The case `name` making a "first" and a "second" record, and their id variables: each
    made alone where the list finds them, else both under one parent made once."""
    if listable(w, res):
        case = start_cleaning(name, "integration", w, res)
        return case, {tag: create_record(case, w, res, tag, []) for tag in ("first", "second")}
    if res.parent is None or not res.creatable or res.create is None \
            or not w.model.reachable(res.create):
        return None
    case = Case(name, "integration")  # two under one parent, the parent made once
    if not w.create_chain(case, res, bindings, Made(payload="first_payload")):
        return None
    case.add(*payload_lines("second_payload", w.payload_for(res) or {}))
    if res.parent_key and res.parent is not None:
        case.add(f"second_payload[{literal(res.parent_key)}] = {res.parent.id_var}")
    case.add(w.call(case, "second_response", res.create, bindings, "json=second_payload"),
             status_assert("second_response", res.create))
    if not w.take_created(case, res, bindings, Made(
            "second_response", "second_payload", "second_record", "second_id")):
        return None
    return case, {"first": res.id_var, "second": "second_id"}


def _listed_ids(case: Case, w: Writer, ep: Endpoint, var: str, bindings: dict[str, str],
                res: Resource) -> str:
    """List `ep` under `bindings`; the source of the ids it lists, read where the document
    shows the records and their id, else wherever an implementation puts them."""
    case.add(w.call(case, var, ep, bindings), status_assert(var, ep))
    records = records_path(list_shape(ep))
    first = first_record(list_shape(ep))
    if records is None or not isinstance(first, dict) or res.id_field not in first:
        return (f"[id_of_record(record, {literal(res.noun)}) "
                f"for record in records_in({var}.json())]")
    return id_list(records.replace("body", f"{var}.json()", 1), res)


def scoped_to_parent(w: Writer, res: Resource) -> Case | None:
    """A child under each of two parents: each parent's list holds its own child only."""
    parent, ep = res.parent, res.listing
    if (parent is None or ep is None or parent.create is None or not parent.param
            or not res.creatable or not w.model.reachable(ep)
            or not w.model.reachable(parent.create)):
        return None
    made = _under_two_parents(
        Case(f"test_{res.noun}s_listed_under_their_own_{parent.noun}", "integration"), w, res)
    if made is None:
        return None
    case, bindings, other = made
    assert res.create is not None
    case.add(*payload_lines("other_payload", w.payload_for(res) or {}))
    if res.parent_key:  # the body names the record it is filed under
        case.add(f"other_payload[{literal(res.parent_key)}] = other_parent_id")
    case.add(w.call(case, "other_response", res.create, other, "json=other_payload"),
             status_assert("other_response", res.create))
    if not w.take_created(case, res, other, Made(
            "other_response", "other_payload", "other_record", "other_id")):
        return None
    case.add(f"mine_ids = {_listed_ids(case, w, ep, 'mine', bindings, res)}",
             f"theirs_ids = {_listed_ids(case, w, ep, 'theirs', other, res)}",
             f"assert {res.id_var} in mine_ids and other_id not in mine_ids",
             f"assert other_id in theirs_ids and {res.id_var} not in theirs_ids")
    return case


def read_under_other_parent(w: Writer, res: Resource) -> Case | None:
    """A child read through another parent's path does not show the child: a read that
    looks the child up by its own id only answers any parent's URL."""
    parent, get = res.parent, res.get
    if (parent is None or get is None or parent.create is None or not parent.param
            or parent.param not in get.path or not res.creatable or not res.param
            or not w.model.reachable(get) or not w.model.reachable(parent.create)):
        return None
    code = success_status(get)
    made = _under_two_parents(
        Case(f"test_{res.noun}_not_found_under_another_{parent.noun}", "edge_case"), w, res)
    if made is None:
        return None
    case, _, other = made
    case.add(w.call(case, "stray", get, {**other, res.param: res.id_var}),
             f"assert {f'stray.status_code != {code}' if code else 'stray.status_code >= 300'} or "
             f"{res.id_of(res.record_of('stray', get), get)} != {res.id_var}, stray.text")
    return case


def _under_two_parents(case: Case, w: Writer,
                       res: Resource) -> tuple[Case, dict[str, str], dict[str, str]] | None:
    """The record made under its parent (chain), then a second parent: the case, the
    bindings to the record, and those to the second parent."""
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    other = _other_parent(case, w, res, bindings)
    return None if other is None else (case, bindings, other)


def _other_parent(case: Case, w: Writer, res: Resource,
                  bindings: dict[str, str]) -> dict[str, str] | None:
    """Create a second parent beside the one `bindings` holds (deleted at the end); the
    bindings that point at it, or None where its id cannot be found."""
    parent = res.parent
    assert parent is not None and parent.create is not None and parent.param
    if w.model.signs_in_as(parent):  # a second account: none of its records are ours to read
        return None
    case.add(*payload_lines("other_parent_payload", w.payload_for(parent) or {}),
             w.call(case, "other_parent_response", parent.create, bindings,
                    "json=other_parent_payload", target=False),
             status_assert("other_parent_response", parent.create))
    if not w.take_created(case, parent, bindings, Made(
            "other_parent_response", "other_parent_payload", "other_parent", "other_parent_id")):
        return None
    if parent.parent is None and parent.delete is not None:
        line = w.call(case, "_", parent.delete, {**bindings, parent.param: "other_parent_id"},
                      target=False)
        case.cleanup.append(line.split(" = ", 1)[1])
    other = {**bindings, parent.param: "other_parent_id"}
    if res.parent_param:
        other[res.parent_param] = "other_parent_id"
    return other


def list_cases(w: Writer) -> list[Case | None]:
    """Every template here over the model's resources, in a fixed order."""
    return [c for res in w.model.resources for c in (deleted_not_listed(w, res),
                                                     nested_deleted_not_listed(w, res),
                                                     kept_apart(w, res),
                                                     scoped_to_parent(w, res),
                                                     read_under_other_parent(w, res),
                                                     ids_not_reused(w, res))]


def ids_not_reused(w: Writer, res: Resource) -> Case | None:
    """Create two, delete the first, create a third: the third has an id of its own and the
    second reads back as it was (an id counted from the number of records gives the third
    the second's id, and the second is overwritten)."""
    get, delete = res.get, res.delete
    if get is None or delete is None or not listable(w, res) or not res.reads_back() \
            or not (w.model.reachable(get) and w.model.reachable(delete)):
        return None
    echo = w.echo_fields(res, res.payload or {})
    if not echo:
        return None
    case = start_cleaning(f"test_{res.noun}_ids_are_not_reused_after_a_delete", "integration",
                          w, res)
    gone = create_record(case, w, res, "gone", [])
    kept = create_record(case, w, res, "kept", [])
    case.add(w.call(case, "removed", delete, {res.param or "id": gone}),
             status_assert("removed", delete))
    third = create_record(case, w, res, "third", [])
    case.add(f"assert {third} != {kept}",
             w.call(case, "kept_read", get, {res.param or "id": kept}),
             status_assert("kept_read", get), f"kept_body = {res.record_of('kept_read', get)}",
             *[f"assert kept_body[{literal(k)}] == kept_payload[{literal(k)}]" for k in echo])
    return case
