"""Offline templates for access rules: a token the service never issued is refused, and
another user can neither change nor delete a record, which its owner still reads unchanged.
A call the document keeps to the record's author in prose ("only the author can ...",
`Endpoint.owner_only`) is refused to another user and then made by the owner.
(Calls without any token: `gen_fallback_auth`.)"""

from __future__ import annotations

from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import VERBS, action_name, bind, no_leak, thing
from pipeline.offline.gen_model import Resource, error_code, has_reference, response_doc
from pipeline.offline.payloads import payload_of
from pipeline.offline.update_bodies import update_payload
from pipeline.records import Endpoint


def wrong_token(w: Writer) -> Case | None:
    """A protected endpoint called with a token the service never issued: the documented 401."""
    model = w.model
    auth = model.spec.auth
    ep = next((e for e in model.spec.endpoints if e.method == "GET" and "{" not in e.path
               and model.needs_auth(e) and error_code(e, 401)), None)
    if ep is None or auth is None or auth.scheme.lower() not in ("bearer", "token"):
        return None
    case = Case(f"test_get_{thing(ep.path)}_with_unknown_token_returns_401", "error_handling")
    prefix = "Bearer" if auth.scheme.lower() == "bearer" else "Token"
    leak = no_leak(w, case, ep)
    bindings, unseen = leak if leak is not None else ({}, [])
    case.add(f"headers = {{{literal(auth.header)}: \"{prefix} \" + unique(\"notatoken12345\")}}",
             w.call_unsigned(case, "response", ep, bindings, "headers=headers"),
             "assert response.status_code == 401, response.text", *w.errors("response", 401),
             *unseen)
    return case


def other_user_cannot_change(w: Writer, res: Resource) -> Case | None:
    """Another user's update and delete are refused like an unknown id; the owner still reads
    the record, unchanged."""
    ep, get = res.delete, res.get
    if ep is None or get is None or not w.model.needs_auth(ep) or not w.model.auth_usable:
        return None
    code = 404 if error_code(ep, 404) else 403 if error_code(ep, 403) else None
    if code is None or res.parent is not None or not res.creatable:
        return None
    case = Case(f"test_other_user_cannot_delete_{res.noun}", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    changes = update_payload(res) if res.update is not None else None
    if res.update is not None and changes is not None and error_code(res.update, code):
        case.name = f"test_other_user_cannot_change_or_delete_{res.noun}"
        case.add(*payload_lines("changes", changes),
                 w.call_unsigned(case, "changed", res.update, bindings,
                                 "json=changes, headers=other_auth_headers"),
                 f"assert changed.status_code == {code}, changed.text")
    case.add(w.call_unsigned(case, "refused", ep, bindings, "headers=other_auth_headers"),
             f"assert refused.status_code == {code}, refused.text", *w.errors("refused", code),
             w.call(case, "still", get, bindings), status_assert("still", get),
             f"assert {res.id_of(res.record_of('still', get), get)} == {res.id_var}")
    echo = w.echo_fields(res, res.payload or {})
    case.add(*[f"assert still.json()[{literal(k)}] == payload[{literal(k)}]" for k in echo])
    return case


def _body(w: Writer, ep: Endpoint) -> dict | None:
    """What an owner-only call sends: nothing for a read or a delete, else the documented
    body (an update: the changed create body where none is documented)."""
    if ep.method in ("GET", "DELETE"):
        return {}
    res = w.model.owner(ep.path)
    body = payload_of(ep) if ep.method == "POST" or res is None or res.update is not ep \
        else update_payload(res)
    return None if body is None or has_reference(body) else body


def other_user_refused(w: Writer, ep: Endpoint) -> Case | None:
    """Another user's call on the owner's record is refused (a client error: 403 and 404
    both say "not yours"), and the same call by the owner then succeeds: a service that
    lets anyone in fails, and so does one that refuses everyone."""
    if not ep.owner_only or "{" not in ep.path or not w.model.needs_auth(ep) \
            or not w.model.auth_usable or not w.model.reachable(ep):
        return None
    body = _body(w, ep)
    if body is None:
        return None
    case = Case(f"test_other_user_cannot_{VERBS[ep.method]}_{action_name(w.model, ep)}",
                "integration")
    bindings = bind(case, w, ep, deletable=ep.method == "DELETE", target_var="made")
    if bindings is None:
        return None
    extra = ""
    if body:
        case.add(*payload_lines("sent", body))
        extra = "json=sent, "
    case.add(w.call_unsigned(case, "refused", ep, bindings, extra + "headers=other_auth_headers"),
             "assert 400 <= refused.status_code < 500, refused.text")
    res = w.model.owner(ep.path)
    read = res.get if res is not None and res.get is not None and res.get is not ep \
        and ep.method != "POST" and w.model.reachable(res.get) else None
    texts = [k for k, v in body.items() if isinstance(v, str) and v][:2]
    if read is not None and res is not None:  # the owner's record, as it was
        case.add(w.call(case, "still", read, bindings, target=False),
                 status_assert("still", read), "kept = record_in(still.json())",
                 f"assert id_of_record(kept, {literal(res.noun)}) == {res.id_var}",
                 *[f"assert kept[{literal(k)}] == payload[{literal(k)}]" for k in texts
                   if k in (res.payload or {}) and body[k] != res.payload[k]])
    case.add(w.call(case, "allowed", ep, bindings, extra.rstrip(", ")),
             status_assert("allowed", ep))
    if ep.method == "GET" and res is not None:
        case.add(f"assert id_of_record(record_in(allowed.json()), {literal(res.noun)}) == "
                 f"{res.id_var}")
    elif ep.method == "POST" and texts and response_doc(ep) is None:  # else: documented values
        case.add("assert record_holding(allowed.json(), "
                 f"{{{literal(texts[0])}: sent[{literal(texts[0])}]}}) is not None, allowed.text")
    elif read is not None and ep.method in ("PUT", "PATCH") and texts:
        case.add(w.call(case, "changed", read, bindings, target=False),
                 status_assert("changed", read),
                 *[f"assert record_in(changed.json())[{literal(k)}] == sent[{literal(k)}]"
                   for k in texts])
    elif read is not None and ep.method == "DELETE":
        case.add(w.call(case, "gone", read, bindings, target=False),
                 "assert 400 <= gone.status_code < 500, gone.text")
    return case


def account_list_is_own(w: Writer, res: Resource) -> Case | None:
    """A list under the signed-in user (`/users/{id}/categories`) holds that user's records
    and not another's: a list that forgets the owner shows every user's records."""
    ep = res.listing
    param = res.account_param
    if ep is None or param is None or f"{{{param}}}" not in ep.path or res.parent is not None \
            or not res.creatable or not w.model.auth_usable or not w.model.reachable(ep):
        return None
    case = Case(f"test_{thing(ep.path)}_list_holds_only_the_users_own", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    ids = f"[id_of_record(row, {literal(res.noun)}) for row in records_in({{}}.json())]"
    case.add("them = user_id_in(other_auth_headers)", 'assert them is not None and them != me',
             w.call(case, "mine", ep, bindings), status_assert("mine", ep),
             f"assert {res.id_var} in {ids.format('mine')}",
             w.call_unsigned(case, "theirs", ep, {**bindings, param: "them"},
                             "headers=other_auth_headers"),
             status_assert("theirs", ep),
             f"assert {res.id_var} not in {ids.format('theirs')}")
    return case
