"""Offline template for members added to a record by their user name: a project's
`contributors` (`POST /projects/{id}/contributors/` with `{"user": "user6"}`, `DELETE` with
`{"username": "user6"}`), a team's `members`, a board's `collaborators`.

The evidence is the document's own: the record's answer lists the sub-collection's word
(`"contributors": ["example-name"]`) holding the user name its sign-up example registers,
and the add (and remove) under that word sends one string. The test signs up a second
user, adds them by name, finds the name in the sub-collection and in the record, not under
another record, and, where a remove is documented, no longer after it.
"""

from __future__ import annotations

from pipeline.offline.gen_code import Case, Made, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_flows import register_lines
from pipeline.offline.gen_model import Resource, response_doc
from pipeline.offline.names import snake
from pipeline.records import Endpoint


def _one_string(ep: Endpoint | None) -> str | None:
    """The key of a body of one string (`{"user": "user6"}`)."""
    body = ep.request_example if ep is not None else None
    if isinstance(body, dict) and len(body) == 1:
        key, value = next(iter(body.items()))
        return key if isinstance(value, str) else None
    return None


def _name_lists(res: Resource, registered: dict) -> list[tuple[str, str]]:
    """(list field, sign-up key): the record's lists of strings that hold the user name the
    sign-up example registers (`"contributors": ["example-name"]`)."""
    doc = response_doc(res.get) if res.get is not None else None
    out = []
    for field, value in (doc.items() if isinstance(doc, dict) else ()):
        if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
            continue
        key = next((k for k, v in registered.items() if isinstance(v, str) and v in value), None)
        if key is not None:
            out.append((field, key))
    return out


def _membership(w: Writer, res: Resource) -> tuple[str, str, dict[str, Endpoint]] | None:
    """(list field, sign-up key, the sub-collection's endpoints by method) where members
    are added to `res` by name."""
    reg, item = w.model.register, res.item
    registered = reg.request_example if reg is not None else None
    if reg is None or not isinstance(registered, dict) or item is None or res.get is None \
            or not res.creatable or not w.model.reachable(reg):
        return None
    for field, key in _name_lists(res, registered):
        path = f"{item.rstrip('/')}/{field}"
        on = {e.method: e for e in w.model.spec.endpoints if e.path.rstrip("/") == path}
        add = on.get("POST")
        if add is not None and _one_string(add) is not None and w.model.reachable(add):
            return field, key, on
    return None


def _member_above(w: Writer, res: Resource) -> tuple[Resource, str] | None:
    """The nearest record above `res` that takes members by name, and its list field."""
    for above in reversed(res.chain()[:-1]):
        if (found := _membership(w, above)) is not None:
            return above, found[0]
    return None


def members_by_name(w: Writer, res: Resource) -> Case | None:
    found = _membership(w, res)
    if found is None:
        return None
    field, key, on = found
    return _case(w, res, field, key, on)


def member_not_author(w: Writer, res: Resource, write: Endpoint | None) -> Case | None:
    """A member of the record above (a project's contributor) who did not write this record
    (a comment) is refused `write` where the document keeps it to the author, and the record
    stays; it still reads it where reading is open to members."""
    write = write if write is not None and write.owner_only else None
    member = _member_above(w, res)
    if write is None or member is None or res.get is None or not w.model.reachable(write):
        return None
    above, field = member
    verb = {"DELETE": "delete", "PUT": "replace", "PATCH": "edit"}[write.method]
    case = Case(f"test_{above.noun}_{snake(field)}_member_cannot_{verb}_{res.noun}_of_another",
                "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings) or not new_member(case, w, above, bindings):
        return None
    if not res.get.owner_only:
        case.add(w.call_unsigned(case, "seen", res.get, bindings, "headers=headers",
                                 target=False),
                 "assert 200 <= seen.status_code < 300, seen.text")
    extra = "headers=headers"
    if write.method != "DELETE":
        case.add(*payload_lines("changes", w.payload_for(res) or {}))
        extra = "json=changes, headers=headers"
    case.add(w.call_unsigned(case, "refused", write, bindings, extra),
             "assert 400 <= refused.status_code < 500, refused.text",
             w.call(case, "kept", res.get, bindings, target=False),
             status_assert("kept", res.get),
             f"assert {res.id_of(res.record_of('kept', res.get), res.get)} == {res.id_var}")
    return case


def _case(w: Writer, res: Resource, field: str, key: str,
          on: dict[str, Endpoint]) -> Case | None:
    """`on`: the member list's endpoints by method (POST adds one, GET lists, DELETE removes)."""
    ep, listing, remove = on["POST"], on.get("GET"), on.get("DELETE")
    sent = _one_string(ep)
    assert sent is not None
    reg = w.model.register
    assert reg is not None and res.get is not None
    case = Case(f"test_{res.noun}_{snake(field)}_added_by_user_name", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    registered = dict(reg.request_example or {})
    case.add(f"member = {literal(registered)}",
             f"member[{literal(key)}] = unique(member[{literal(key)}])",
             w.call_unsigned(case, "joined", reg, {}, "json=member", target=False),
             "assert 200 <= joined.status_code < 300, joined.text",
             f"name = member[{literal(key)}]")
    case.add(w.call(case, "added", ep, bindings, f"json={{{literal(sent)}: name}}"),
             status_assert("added", ep))
    if listing is not None and w.model.reachable(listing):
        case.add(w.call(case, "listed", listing, bindings), status_assert("listed", listing),
                 "assert name in listed.text, listed.text")
        other = other_record(case, w, res, bindings)
        if other is not None:  # added to this record only
            case.add(w.call(case, "elsewhere", listing, other, target=False),
                     status_assert("elsewhere", listing),
                     "assert name not in elsewhere.text, elsewhere.text")
    case.add(w.call(case, "shown", res.get, bindings, target=False),
             status_assert("shown", res.get),
             f"assert name in {res.record_of('shown', res.get)}[{literal(field)}], shown.text")
    taken = _one_string(remove)
    if remove is not None and taken is not None and w.model.reachable(remove):
        case.add(w.call(case, "removed", remove, bindings, f"json={{{literal(taken)}: name}}"),
                 status_assert("removed", remove),
                 w.call(case, "after", res.get, bindings, target=False),
                 status_assert("after", res.get),
                 f"assert name not in {res.record_of('after', res.get)}[{literal(field)}], "
                 "after.text")
    return case


def other_record(case: Case, w: Writer, res: Resource, bindings: dict[str, str],
                 overrides: dict[str, str] | None = None) -> dict[str, str] | None:
    """A second record like `res` (`other_id`, deleted at the end; `overrides`: sources of
    values that replace its payload's): the bindings that point at it."""
    assert res.create is not None and res.param
    case.add(*payload_lines("other_payload", w.payload_for(res) or {}),
             *[f"other_payload[{literal(k)}] = {v}" for k, v in (overrides or {}).items()],
             w.call(case, "other_response", res.create, bindings, "json=other_payload",
                    target=False),
             status_assert("other_response", res.create))
    if not w.take_created(case, res, bindings, Made(
            "other_response", "other_payload", "other_record", "other_id")):
        return None
    other = {**bindings, res.param: "other_id"}
    if res.delete is not None:
        case.cleanup.append(w.call(case, "_", res.delete, other, target=False).split(" = ", 1)[1])
    return other


def member_is_the_author(w: Writer, res: Resource) -> Case | None:
    """A record a member makes under another user's record (a contributor's comment on
    the project author's issue) names the member as its author: the field the document
    shows holding the signed-up user's name (`"author_username": "example-name"`)."""
    reg, parent = w.model.register, res.parent
    registered = reg.request_example if reg is not None else None
    shown = response_doc(res.get) if res.get is not None else None
    if not isinstance(registered, dict) or not isinstance(shown, dict) or parent is None \
            or res.create is None or res.get is None or not res.creatable:
        return None
    field, key = next(((f, k) for f, v in shown.items() for k, r in registered.items()
                       if isinstance(v, str) and v and v == r), (None, None))
    member = _member_above(w, res)
    if field is None or key is None or member is None:
        return None
    above = member[0]
    case = Case(f"test_{res.noun}_made_by_a_{above.noun}_member_names_them_as_{snake(field)}",
                "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, parent, bindings) or not new_member(case, w, above, bindings):
        return None
    case.add(*payload_lines("payload", w.payload_for(res) or {}),
             w.call_unsigned(case, "response", res.create, bindings,
                             "json=payload, headers=headers"),
             status_assert("response", res.create))
    if not w.take_created(case, res, bindings):
        return None
    case.add(w.call(case, "read", res.get, bindings),
             status_assert("read", res.get),
             f"assert {res.record_of('read', res.get)}[{literal(field)}] == "
             f"credentials[{literal(key)}], read.text")
    return case


def new_member(case: Case, w: Writer, above: Resource, bindings: dict[str, str]) -> bool:
    """Sign up and sign in a second user (`credentials`, `headers`) and add them by name as
    a member of `above`, the record `bindings` names."""
    found = _membership(w, above)
    if found is None or register_lines(case, w, w.model) is None:
        return False
    _, key, on = found
    add = on["POST"]
    case.add(w.call(case, "added", add, bindings,
                    f"json={{{literal(_one_string(add))}: credentials[{literal(key)}]}}",
                    target=False),
             status_assert("added", add))
    return True
