"""Offline templates: error handling (invalid bodies, documented 4xx, auth errors)."""

from __future__ import annotations

import re

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
    collection_owner,
    no_leak,
    no_write,
    path_params,
    query_param,
    thing,
    unknown_url,
)
from pipeline.offline.gen_contrast import accepted_create, known_action
from pipeline.offline.gen_model import (
    PAGE_PARAMS,
    SIZE_PARAMS,
    Resource,
    conflict_code,
    error_code,
    has_reference,
)
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint
from pipeline.spec.unique_rules import UNIQUE_KEY

DUPLICATE_WORDS = ("exist", "duplicate", "taken", "already", "unique", "in use", "已存在", "重复")
VALIDATION_WORDS = ("valid", "missing", "required", "field", "rule", "缺少", "不符合")
JSON_WORDS = ("json", "object")
PARAM_WORDS = ("param", "limit", "offset", "page", "size", "query", "not an integer", "range")


def validation_code(ep: Endpoint) -> int | None:
    if error_code(ep, 422):
        return 422
    if error_code(ep, 400, *VALIDATION_WORDS) and not error_code(ep, 400, *JSON_WORDS):
        return 400
    return None


def _start(w: Writer, res: Resource, name: str) -> tuple[Case, dict[str, str]] | None:
    """A case with the parents of `res` created (bindings for the collection path)."""
    ep = res.create
    if ep is None or not w.model.reachable(ep):
        return None
    case = Case(name, "error_handling")
    bindings: dict[str, str] = {}
    if res.parent is not None and not w.create_chain(
            case, res.parent, bindings, Made("parent", f"{res.parent.noun}_payload")):
        return None
    if any(p not in bindings for p in path_params(ep.path)):
        return None
    return case, bindings


def create_empty(w: Writer, res: Resource) -> Case | None:
    """A body without the required fields is refused: with the code the endpoint documents
    for it, or any 4xx where the document says only that required fields are checked."""
    code = validation_code(res.create) if res.create else None
    said = bool(w.model.spec.validates_required and res.payload)
    if res.create is None or (code is None and not said):
        return None
    made = _start(w, res, f"test_create_{res.noun}_with_empty_body_returns_{code}" if code
                  else f"test_create_{res.noun}_with_empty_body_is_refused")
    if made is None:
        return None
    case, bindings = made
    unchanged = no_write(w, case, res, bindings)
    case.add(w.call(case, "response", res.create, bindings, "json={}"),
             f"assert response.status_code == {code}, response.text" if code else
             "assert 400 <= response.status_code < 500, response.text",
             *(w.errors("response", code) if code else []), *unchanged)
    if not unchanged:  # nothing else shows the refusal from a service refusing every create
        case.add(*accepted_create(w, case, res, bindings))
    return case


def malformed_json(w: Writer, res: Resource) -> Case | None:
    ep = res.create
    if ep is None or not error_code(ep, 400, *JSON_WORDS):
        return None
    made = _start(w, res, f"test_create_{res.noun}_with_malformed_json_returns_400")
    if made is None:
        return None
    case, bindings = made
    extra = 'data="{not json", headers={"Content-Type": "application/json"}'
    if w.model.needs_auth(ep):
        extra = 'data="{not json", headers={**auth_headers, "Content-Type": "application/json"}'
    case.add(w.call_unsigned(case, "response", ep, bindings, extra),
             "assert response.status_code == 400, response.text",
             *w.errors("response", 400))
    case.add(*accepted_create(w, case, res, bindings))
    return case


def wrong_type(w: Writer, res: Resource) -> Case | None:
    ep = res.create
    if ep is None or not error_code(ep, 422) or not res.creatable:
        return None
    numeric = [k for k, v in (res.payload or {}).items()
               if isinstance(v, int | float) and not isinstance(v, bool)]
    if not numeric:
        return None
    made = _start(w, res, f"test_create_{res.noun}_with_text_{numeric[0].lower()}_returns_422")
    if made is None:
        return None
    case, bindings = made
    unchanged = no_write(w, case, res, bindings)
    case.add(*payload_lines("payload", w.payload_for(res) or {}))
    case.add(f"payload[{literal(numeric[0])}] = \"not-a-number\"",
             w.call(case, "response", ep, bindings, "json=payload"),
             "assert response.status_code == 422, response.text",
             *w.errors("response", 422), *unchanged)
    if not unchanged:
        case.add(*accepted_create(w, case, res, bindings))
    return case


def duplicate(w: Writer, res: Resource) -> Case | None:
    """The same record created twice: the documented conflict; where the document gives no
    code but says which fields must not repeat (`x-unique`), a 4xx for a second record that
    repeats those fields and changes the other texts."""
    ep = res.create
    code = conflict_code(ep, *DUPLICATE_WORDS) if ep is not None else None
    kept = {p.name for p in ep.params if p.constraints.get(UNIQUE_KEY)} if ep else set()
    if ep is None or (code is None and not kept) or not res.creatable:
        return None
    name = f"test_create_{res.noun}_twice_" + (f"returns_{code}" if code else "is_refused")
    case = Case(name, "error_handling")
    if not w.create_chain(case, res, {}):
        return None
    bindings = {n.param: n.id_var for n in res.chain()[:-1] if n.param}
    unchanged = no_write(w, case, res, bindings)
    sent = "payload"
    if code is None:  # only the fields that must not repeat are repeated
        fresh = [k for k, v in (res.payload or {}).items() if k not in kept
                 and isinstance(v, str) and v and k != res.parent_key]
        if fresh:
            sent = "again_payload"
            case.add("again_payload = dict(payload)",
                     *[f"again_payload[{literal(k)}] = unique(payload[{literal(k)}])"
                       for k in fresh])
    case.add(w.call(case, "again", ep, bindings, f"json={sent}"))
    if code is None:
        case.add("assert 400 <= again.status_code < 500, again.text", *unchanged)
    else:
        case.add(f"assert again.status_code == {code}, again.text",
                 *w.errors("again", code), *unchanged)
    return case


def mutate_unknown(w: Writer, ep: Endpoint) -> Case | None:
    """A non-GET call on an id no record has: the documented 404."""
    if ep.method == "GET" or not path_params(ep.path) or not error_code(ep, 404):
        return None
    payload = payload_of(ep)
    if ep.method in ("PUT", "PATCH") and payload is None:
        owner = w.model.owner(ep.path)
        payload = owner.payload if owner and owner.update is ep else None
        if payload is None:
            return None
    if not w.model.reachable(ep) or (payload and has_reference(payload)):
        return None
    name = f"test_{VERBS[ep.method]}_{action_name(w.model, ep)}_unknown_id_returns_404"
    case = Case(name, "error_handling")
    owner = w.model.owner(ep.path)
    unchanged = no_write(w, case, owner, {}) if owner and owner.parent is None else []
    known = [] if unchanged else known_action(w, case, ep, payload or None)  # record made now
    lines, bindings = unknown_url(w, ep)
    case.add(*lines)
    extra = add_payload(case, "payload", payload or None)
    case.add(w.call(case, "response", ep, bindings, extra),
             "assert response.status_code == 404, response.text",
             *w.errors("response", 404), *unchanged, *known)
    return case


def _reread(w: Writer, case: Case, owner: Resource | None,
            bindings: dict[str, str]) -> tuple[list[str], list[str]]:
    """Lines reading the record before and after a refused call, and the check that the
    refusal changed nothing (both empty when the record cannot be read)."""
    ep = owner.get if owner is not None else None
    if ep is None or not w.model.reachable(ep) or any(
            p not in bindings for p in path_params(ep.path)):
        return [], []
    before = [w.call(case, "stored_before", ep, bindings),
              status_assert("stored_before", ep)]
    after = [w.call(case, "stored_after", ep, bindings), status_assert("stored_after", ep),
             "assert stored_after.json() == stored_before.json()"]
    return before, after


def repeat_conflict(w: Writer, ep: Endpoint) -> Case | None:
    """An action documented to conflict when already done: first call ok, second refused
    with the documented status."""
    code = conflict_code(ep, "already")
    if ep.method != "POST" or not path_params(ep.path) or code is None:
        return None
    owner = w.model.owner(ep.path)
    if owner is None or owner.create is ep or not w.model.reachable(ep):
        return None
    payload = payload_of(ep)
    if payload is not None and has_reference(payload):
        return None
    case = Case(f"test_post_{action_name(w.model, ep)}_twice_returns_{code}",
                "error_handling")
    bindings = bind(case, w, ep)
    if bindings is None:
        return None
    extra = add_payload(case, "body_sent", payload)
    case.add(w.call(case, "first", ep, bindings, extra), status_assert("first", ep))
    before, after = _reread(w, case, owner, bindings)
    case.add(*before, w.call(case, "second", ep, bindings, extra),
             f"assert second.status_code == {code}, second.text",
             *w.errors("second", code), *after)
    return case


def bad_query(w: Writer, ep: Endpoint) -> Case | None:
    if ep.method != "GET" or path_params(ep.path) or not w.model.reachable(ep):
        return None
    code = next((c for c in (400, 422) if error_code(ep, c, *PARAM_WORDS)), None)
    param = query_param(w.model, ep, SIZE_PARAMS + PAGE_PARAMS)
    if code is None or param is None:
        return None
    case = Case(f"test_list_{thing(ep.path)}_with_text_{param.lower()}_returns_{code}",
                "error_handling")
    case.add(w.call(case, "response", ep, {}, f'params={{{literal(param)}: "abc"}}'),
             f"assert response.status_code == {code}, response.text",
             *w.errors("response", code))
    return case


def missing_token(w: Writer, ep: Endpoint) -> Case | None:
    """A protected endpoint called without credentials: the documented 401; a refused write
    leaves the collection as it was, a refused read does not carry the record's text."""
    if not w.model.needs_auth(ep):
        return None
    documented = error_code(ep, 401)
    # a read the document marks protected, or one under a scheme it states for the whole
    # service ("This API uses OAuth v2 Bearer Token ... for its authentication")
    said = ep.auth_required is True or (ep.auth_required is None and _whole_service(w))
    if not documented and not (said and ep.method == "GET"):
        return None
    suffix = "returns_401" if documented else "is_refused"
    name = f"test_{VERBS[ep.method]}_{action_name(w.model, ep)}_without_token_{suffix}"
    case = Case(name, "error_handling")
    owner = collection_owner(w.model, ep)
    unchanged: list[str] = []
    if ep.method != "GET" and owner is not None and owner.parent is None and \
            w.model.auth_usable:
        unchanged = no_write(w, case, owner, {})
    leak = no_leak(w, case, ep) if ep.method == "GET" else None
    if leak is not None:
        lines, (bindings, unchanged) = [], leak
    elif not documented:  # a read the table marks protected: refused and shows nothing
        return None
    else:
        lines, bindings = unknown_url(w, ep)
    case.add(*lines)
    if leak is not None:
        case.endpoints.clear()  # the record made first is not what the case tests
    payload = payload_of(ep)
    extra = add_payload(case, "payload", payload)
    case.add(w.call_unsigned(case, "response", ep, bindings, extra))
    if documented:
        case.add("assert response.status_code == 401, response.text", *w.errors("response", 401))
    else:
        case.add("assert response.status_code in (401, 403), response.text")
    case.add(*unchanged)
    return case


_WHOLE = re.compile(r"\b(?:this|the|our)\s+(?:api|service|server|application)\b[^.]{0,60}?"
                    r"\b(?:uses?|requires?|needs?)\b|\ball\s+(?:requests|endpoints|calls)\b"
                    r"[^.]{0,40}?\b(?:require|need|must)", re.I)


def _whole_service(w: Writer) -> bool:
    """Whether the document states its auth scheme for the whole service ("This API uses
    OAuth v2 Bearer Token ... for its authentication") and marks no endpoint open or
    protected one by one (where it marks some, an unmarked read says nothing)."""
    auth = w.model.spec.auth
    return auth is not None and bool(_WHOLE.search(auth.description or "")) and not any(
        e.auth_required is not None for e in w.model.spec.endpoints
        if e not in (w.model.register, w.model.login))


def unknown_get(w: Writer, ep: Endpoint) -> Case | None:
    """A read of an id no record has: the documented code; where the document gives no
    failure code at all, a client error of any kind (and the read of a record the test made
    succeeds, so a read that refuses everything fails)."""
    code = 404 if error_code(ep, 404) else _only_failure(ep)
    undocumented = code is None and not any(c >= 400 for c in ep.status_codes)
    if ep.method != "GET" or not path_params(ep.path) or (code is None and not undocumented):
        return None
    if not w.model.reachable(ep):
        return None
    words = f"returns_{code}" if code is not None else "is_a_client_error"
    case = Case(f"test_get_{action_name(w.model, ep)}_unknown_id_{words}", "edge_case")
    control = known_control(w, case, ep)
    if code is None and not control:
        return None
    case.add(*control)
    lines, bindings = unknown_url(w, ep)
    case.add(*lines, w.call(case, "response", ep, bindings, "allow_redirects=False"))
    if code is None:
        case.add("assert 400 <= response.status_code < 500, response.text")
        return case
    case.add(f"assert response.status_code == {code}, response.text",
             *w.errors("response", code))
    return case


def _only_failure(ep: Endpoint) -> int | None:
    """The one failure code a read documents, said of any failure ("On failure status code
    400 (bad request) is returned"): what an id no record has gets."""
    failures = [c for c in ep.status_codes if 400 <= c < 500]
    text = str(ep.status_codes.get(failures[0], "")) if len(failures) == 1 else ""
    return failures[0] if failures == [400] and not re.search(
        r"param|query|format|invalid|valid|malformed|page|limit", text, re.I) else None


def known_control(w: Writer, case: Case, ep: Endpoint) -> list[str]:
    """Lines that read a record the test created through `ep` and find it (the control: a
    service that answers 404, or the wrong record, for every id fails here)."""
    owner = w.model.owner(ep.path)
    if owner is None or ep is not owner.get or not owner.creatable or owner.id_field is None:
        return []
    bindings = bind(case, w, ep)
    if bindings is None:
        return []
    return [w.call(case, "known", ep, bindings), status_assert("known", ep),
            *[f"assert {owner.id_of(owner.record_of('known', ep), ep)} == {owner.id_var}"][
                :int(owner.shows_id)]]
