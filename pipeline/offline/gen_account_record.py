"""Offline templates for an account that is a record: HTTP Basic whose name is the identifier
of a record an open create makes ("basic HTTP authentication with the project ID and private
code", `Model.signs_in_as`). Each test makes its own record and signs in as it.

- its password opens the record's read; a wrong password or none is refused;
- a token the document says the account can get (a read whose documented answer holds a
  token) opens the read as a Bearer token, where the document shows one sent that way;
- an update that asks for the current password (`current_password`) refuses a wrong one and
  changes nothing.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_model import Resource, error_code, response_doc
from pipeline.offline.update_bodies import update_payload
from pipeline.records import Endpoint

_CURRENT = re.compile(r"^(?:current|old|existing)_?pass(?:word|code)?$", re.I)


def _account(w: Writer) -> Resource | None:
    return next((r for r in w.model.resources if w.model.signs_in_as(r) and r.get is not None),
                None)


def _refused(var: str, ep: Endpoint) -> str:
    if error_code(ep, 401):
        return f"assert {var}.status_code == 401, {var}.text"
    return f"assert 400 <= {var}.status_code < 500, {var}.text"


def _made(w: Writer, case: Case, res: Resource) -> dict[str, str] | None:
    bindings: dict[str, str] = {}
    return bindings if w.create_chain(case, res, bindings) else None


def password_opens(w: Writer) -> Case | None:
    """The record's own identifier and password open its read; a wrong password and no
    credentials are refused."""
    res = _account(w)
    keys = w.model.signs_in_as(res) if res is not None else None
    if res is None or keys is None or res.get is None:
        return None
    case = Case(f"test_{res.noun}_password_opens_it_and_a_wrong_one_is_refused", "integration",
                doc=f"A new {res.noun} is read with its identifier and password (HTTP Basic); "
                    "a wrong password or none is refused.")
    bindings = _made(w, case, res)
    if bindings is None:
        return None
    get = res.get
    case.add(w.call(case, "opened", get, bindings), status_assert("opened", get),
             f"assert {res.id_of(res.record_of('opened', get), get)} == {res.id_var}",
             f"wrong = basic_auth({res.id_var}, payload[{literal(keys[1])}] + \"-wrong\")",
             w.call_unsigned(case, "refused", get, bindings, "headers=wrong"),
             _refused("refused", get),
             w.call_unsigned(case, "anonymous", get, bindings), _refused("anonymous", get))
    return case


def _token_read(w: Writer, res: Resource) -> tuple[Endpoint, str] | None:
    """The read under the record whose documented answer holds a token, and its key."""
    assert res.item is not None
    for ep in w.model.spec.endpoints:
        doc = response_doc(ep)
        if ep.method != "GET" or not ep.path.startswith(res.item + "/") \
                or ep.path.count("{") != 1 or not isinstance(doc, dict):
            continue
        key = next((k for k, v in doc.items() if "token" in k.lower() and isinstance(v, str)),
                   None)
        if key is not None:
            return ep, key
    return None


def token_opens(w: Writer) -> Case | None:
    """A token the record's credentials get opens its read as a Bearer token; an unknown
    token does not."""
    res = _account(w)
    if res is None or res.get is None or res.item is None:
        return None
    found = _token_read(w, res)
    auth = w.model.spec.auth
    if found is None or auth is None or not auth.bearer_too:
        return None
    issuer, key = found
    case = Case(f"test_{res.noun}_token_opens_it_as_a_bearer_token", "integration",
                doc=f"The token {issuer.method} {issuer.path} gives a new {res.noun} opens "
                    "its read in the Authorization header as a Bearer token.")
    bindings = _made(w, case, res)
    if bindings is None:
        return None
    get = res.get
    case.add(w.call(case, "issued", issuer, bindings), status_assert("issued", issuer),
             f"token = issued.json()[{literal(key)}]", "assert isinstance(token, str) and token",
             'bearer = {"Authorization": "Bearer " + token}',
             w.call_unsigned(case, "opened", get, bindings, "headers=bearer"),
             status_assert("opened", get),
             f"assert {res.id_of(res.record_of('opened', get), get)} == {res.id_var}",
             'forged = {"Authorization": "Bearer " + token[::-1]}',
             w.call_unsigned(case, "refused", get, bindings, "headers=forged"),
             _refused("refused", get))
    return case


def current_password_checked(w: Writer) -> Case | None:
    """An update that asks for the current password refuses a wrong one; the record keeps
    what it had."""
    res = _account(w)
    ep = res.update if res is not None else None
    changes = update_payload(res) if res is not None and ep is not None else None
    current = next((k for k in changes or {} if _CURRENT.match(k)), None)
    keys = w.model.signs_in_as(res) if res is not None else None
    if res is None or ep is None or res.get is None or changes is None or current is None \
            or keys is None:
        return None
    kept = [k for k, v in changes.items() if isinstance(v, str) and k != current
            and "pass" not in k.lower() and k in (res.payload or {}) and k != res.id_field
            and "@" not in v]
    if not kept:
        return None
    case = Case(f"test_update_{res.noun}_with_a_wrong_{current}_is_refused", "error_handling",
                doc=f"{ep.method} {ep.path} with a wrong `{current}` is refused and changes "
                    "nothing; with the right one it is applied.")
    bindings = _made(w, case, res)
    if bindings is None:
        return None
    field = kept[0]
    case.add(*payload_lines("changes", changes),
             f"changes[{literal(current)}] = payload[{literal(keys[1])}] + \"-wrong\"",
             *[f"changes[{literal(k)}] = payload[{literal(k)}]" for k in changes
               if "pass" in k.lower() and k != current],
             f"changes[{literal(res.id_field)}] = {res.id_var}" if res.id_field in changes
             else "",
             w.call(case, "refused", ep, bindings, "json=changes"),
             "assert 400 <= refused.status_code < 500, refused.text",
             w.call(case, "after", res.get, bindings, target=False),
             status_assert("after", res.get),
             f"assert {res.record_of('after', res.get)}[{literal(field)}] == "
             f"payload[{literal(field)}]",
             f"changes[{literal(current)}] = payload[{literal(keys[1])}]",
             w.call(case, "applied", ep, bindings, "json=changes"),
             status_assert("applied", ep),
             w.call(case, "changed", res.get, bindings, target=False),
             f"assert {res.record_of('changed', res.get)}[{literal(field)}] == "
             f"changes[{literal(field)}]")
    case.body = [line for line in case.body if line]
    case.setup = [line for line in case.setup if line]
    return case


def account_record_cases(w: Writer) -> list[Case | None]:
    if _account(w) is None:
        return []
    return [password_opens(w), token_opens(w), current_password_checked(w)]
