"""The offline test generator: spec-driven black-box pytest cases, no network, no LLM.

Public API:
- `generate_cases(task_id, spec) -> list[TestCase]` (round 0, origin "generated")

Each template writes a case only when the document says enough to make it right; a template
that lacks a documented status, body or example returns None and the case is not written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pipeline.offline import (
    gen_account_record,
    gen_api,
    gen_basic,
    gen_batch,
    gen_behaviour,
    gen_cascade,
    gen_catalogue,
    gen_derived,
    gen_draws,
    gen_entry_pages,
    gen_errors,
    gen_flags,
    gen_flows,
    gen_item_actions,
    gen_linked,
    gen_lists,
    gen_members,
    gen_own_lists,
    gen_pages,
    gen_paging,
    gen_partial,
    gen_private,
    gen_query,
    gen_references,
    gen_refusals,
    gen_reports,
    gen_rules,
    gen_shown,
    gen_stamps,
    gen_state_rules,
    gen_whole_lists,
    gen_zones,
)
from pipeline.offline.conftest_template import conftest_source
from pipeline.offline.gen_code import Case, Writer
from pipeline.offline.gen_common import path_params
from pipeline.offline.gen_fallback import fill_uncovered
from pipeline.offline.gen_fallback_auth import no_token_cases
from pipeline.offline.gen_fallback_calls import endpoint_slug
from pipeline.offline.gen_fallback_contrast import DOC, malformed_then_valid
from pipeline.offline.gen_links import link_cases
from pipeline.offline.gen_model import Model, Resource, build_model
from pipeline.offline.refine import endpoint_of
from pipeline.offline.refine_values import add_value_checks
from pipeline.offline.strength import shape_only_code
from pipeline.offline.tolerant import prelude_for
from pipeline.records import Endpoint, Spec, TestCase

AUTHOR = "offline"


def _resource_cases(w: Writer, model: Model) -> Iterable[Case | None]:
    for res in model.resources:
        yield gen_api.create(w, res)
        yield gen_api.get_item(w, res)
        yield gen_api.location_names_record(w, res)
        yield gen_api.update(w, res)
        yield gen_api.partial_update(w, res)
        yield gen_partial.patch_names_one_field(w, res)
        yield gen_partial.update_keeps_inner_records(w, res)
        yield gen_reports.update_reports_previous(w, res)
        yield gen_reports.flag_set_and_cleared(w, res)
        yield gen_stamps.creation_stamp(w, res)
        yield gen_derived.first_part_derived(w, res)
        yield gen_derived.lowercased_identifier(w, res)
        yield gen_shown.created_in_map(w, res)
        yield gen_api.delete(w, res)
        yield gen_errors.create_empty(w, res)
        yield gen_errors.malformed_json(w, res)
        yield gen_errors.wrong_type(w, res)
        yield gen_errors.duplicate(w, res)
        yield gen_api.delete_twice(w, res)
        yield gen_flows.lifecycle(w, res)
        yield gen_flows.listed_after_create(w, res)
        yield gen_paging.pages_split_new_records(w, res)
        yield gen_paging.nested_pages_split(w, res)
        yield gen_linked.created_under_parent(w, res)
        yield gen_references.names_what_it_was_sent(w, res)
        yield gen_flows.isolation(w, res)
        yield gen_members.members_by_name(w, res)
        yield gen_members.member_not_author(w, res, res.update)
        yield gen_members.member_not_author(w, res, _other_update(model, res))
        yield gen_members.member_not_author(w, res, res.delete)
        yield gen_members.member_is_the_author(w, res)


def _other_update(model: Model, res: Resource) -> Endpoint | None:
    """The second way of updating a record (PATCH beside PUT, or PUT beside PATCH) where the
    document names both for it: a rule kept to the author holds for each."""
    if res.update is None:
        return None
    other = {"PUT": "PATCH", "PATCH": "PUT"}.get(res.update.method)
    return next((e for e in model.spec.endpoints
                 if e.method == other and e.path == res.update.path), None)


def _is_resource_slot(model: Model, ep: Endpoint) -> bool:
    for res in model.resources:
        if ep in (res.create, res.listing, res.get, res.update, res.delete):
            return True
    return False


def _endpoint_cases(w: Writer, model: Model) -> Iterable[Case | None]:
    auth_paths = {e.path for e in (model.login, model.register) if e is not None}
    for ep in model.spec.endpoints:
        if ep.path in auth_paths:
            continue
        static = not path_params(ep.path)
        if static and ep.method == "GET":
            yield gen_api.static_get(w, ep)
            yield gen_catalogue.catalogue_keys_address(w, ep)
            yield gen_catalogue.catalogue_values_accepted(w, ep)
            yield gen_linked.filter_by_listed_value(w, ep)
            yield gen_own_lists.own_list(w, ep)
            yield gen_api.search_no_match(w, ep)
            yield gen_api.page_past_end(w, ep)
            yield gen_paging.pages_hold_every_record(w, ep)
            yield gen_api.page_size_one(w, ep)
            yield gen_errors.bad_query(w, ep)
        elif static and ep.method == "POST" and not _is_resource_slot(model, ep):
            yield gen_api.static_post(w, ep)
            yield gen_draws.never_repeats(w, ep)
            yield gen_draws.all_value_draws(w, ep)
        elif not static and not _is_resource_slot(model, ep):
            yield gen_api.action(w, ep)
            yield gen_item_actions.item_action(w, ep)
            yield gen_derived.documented_relation(w, ep)
            yield gen_shown.list_of_shown_record(w, ep)
            yield gen_errors.repeat_conflict(w, ep)
        yield gen_linked.lists_only_linked(w, ep)
        yield gen_errors.unknown_get(w, ep)
        yield gen_errors.mutate_unknown(w, ep)
    for post in model.spec.endpoints:
        if post.method != "POST" or not path_params(post.path) or _is_resource_slot(model, post):
            continue
        delete = next((e for e in model.spec.endpoints
                       if e.method == "DELETE" and e.path == post.path), None)
        if delete is not None:
            yield gen_flows.action_pair(w, post, delete)


def _auth_cases(w: Writer, model: Model) -> Iterable[Case | None]:
    if model.spec.auth is None:
        return
    yield from gen_basic.basic_cases(w)
    yield from gen_account_record.account_record_cases(w)
    yield gen_flows.auth_flow(w)
    yield gen_flows.login_wrong_password(w)
    yield gen_flows.wrong_password_refused(w)
    for ep in (model.login, model.register):
        yield _malformed_then_valid(model, ep)
    for ep in model.spec.endpoints:
        yield gen_cascade.account_delete_takes_records(w, ep)
    shown = 0
    for ep in model.spec.endpoints:
        if shown < 3 and (case := gen_errors.missing_token(w, ep)) is not None:
            shown += 1
            yield case


def _malformed_then_valid(model: Model, ep: Endpoint | None) -> Case | None:
    """A login or register body that is not JSON is refused, and the same call with a valid
    body gets a token that opens a protected endpoint (`gen_fallback_contrast`)."""
    if ep is None or ep.request_form:
        return None
    lines = malformed_then_valid(model.spec, ep)
    if lines is None:
        return None
    case = Case(f"test_{endpoint_slug(ep)}_malformed_json", "error_handling", doc=DOC)
    case.target(ep)
    case.add(*lines)
    return case


def _behaviour_cases(w: Writer, model: Model) -> Iterable[Case | None]:
    return (gen_behaviour.behaviour_cases(w) + gen_rules.rule_cases(w) + gen_batch.batch_cases(w)
            + gen_query.query_cases(w) + gen_refusals.refusal_cases(w)
            + gen_state_rules.state_rule_cases(w) + gen_pages.page_cases(w)
            + gen_lists.list_cases(w) + gen_flags.flag_cases(w)
            + gen_entry_pages.entry_page_cases(w) + gen_zones.zone_cases(w)
            + [gen_whole_lists.every_record_listed(w, res) for res in w.model.resources]
            + [c for res in w.model.resources for c in gen_private.private_cases(w, res)])


def _unique_names(cases: list[Case]) -> None:
    seen: dict[str, int] = {}
    for case in cases:
        n = seen.get(case.name, 0) + 1
        seen[case.name] = n
        if n > 1:
            case.name = f"{case.name}_{n}"


def generate_cases(task_id: str, spec: Spec) -> list[TestCase]:
    """Round-0 test cases for every endpoint the document describes well enough."""
    if spec.links is not None:  # a hypermedia API: its URLs are found in answers
        found, prelude = link_cases(spec)
        return [TestCase(case_id=f"{task_id}::{c.name}", task_id=task_id, round=0,
                         category=c.category, name=c.name, code=c.source(),
                         endpoints=c.endpoints, origin="generated", author=AUTHOR,
                         prelude=prelude) for c in found]
    model = build_model(spec)
    w = Writer(model)
    builders: list[Callable[[Writer, Model], Iterable[Case | None]]] = [
        _endpoint_cases, _resource_cases, _auth_cases, _behaviour_cases]
    cases = [c for build in builders for c in build(w, model) if c is not None]
    _unique_names(cases)
    out = []
    for case in cases:
        out.append(TestCase(
            case_id=f"{task_id}::{case.name}", task_id=task_id, round=0,
            category=case.category, name=case.name, code=case.source(),
            endpoints=case.endpoints, origin="generated", author=AUTHOR,
            prelude=prelude_for(case.source())))
    auth = "def auth_headers(" in conftest_source(spec, spec.port or 8000)
    out += fill_uncovered(task_id, spec, out, auth)  # never an empty suite
    out += no_token_cases(task_id, spec, out, auth)
    return [with_values(c, spec) for c in out]


def with_values(case: TestCase, spec: Spec) -> TestCase:
    """A case that would check only status, keys or types, with the values the document
    gives added (the refiner's `add_value_checks`); other cases as they are."""
    if not shape_only_code(case.code, case.name):
        return case
    lines = add_value_checks(case.code.splitlines(), spec, endpoint_of, last_only=True)
    return case.model_copy(update={"code": "\n".join(lines).rstrip() + "\n"})
