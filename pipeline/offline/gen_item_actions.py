"""Offline template for an action on a record that names one of the records inside it: a
vote (`POST /polls/<pk>/vote` with `{"question": question_pk, "choice": choice_pk}`) for one
of the poll's `choices`.

Documents write such bodies with placeholders, not values. A placeholder named for the
records inside (`choice_pk` beside a `choices` list) is the id of one of them, read from the
record the test made; any other id-like placeholder (`question_pk`, `pk`) is the record's own
id. The answer's placeholders must come back as sent (`{"data": {"question": ...}}`), and
where the inner records count the action (`"vote": 0` for a vote), the chosen one's count
goes up by one and the others' stay.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import action_name
from pipeline.offline.gen_model import Resource, success_status
from pipeline.offline.names import segments, singular
from pipeline.records import Endpoint

_MARK = "\x00"
_BARE = re.compile(r"(:\s*)([A-Za-z_]\w*)(\s*[,}\]])")
_ID_LIKE = re.compile(r"^(?:(?P<stem>[A-Za-z]\w*?)_?)?(?:pk|id|Id|ID)$")


def placeholder_body(text: Any) -> dict | None:
    """`{"question": question_pk}` → `{"question": "\\x00question_pk"}`; None when the text
    is no JSON object with placeholders."""
    if not isinstance(text, str) or "{" not in text:
        return None
    marked = _BARE.sub(lambda m: m.group(1) + (m.group(2) if m.group(2) in (
        "true", "false", "null") else json.dumps(_MARK + m.group(2))) + m.group(3), text)
    try:
        value = json.loads(marked)
    except ValueError:
        return None
    return value if isinstance(value, dict) and _leaves(value) else None


def _inner(res: Resource) -> dict[str, str]:
    """Singular noun → key of the lists of records inside the record (`choice` → `choices`)."""
    return {singular(k): k for k, v in res.fields.items()
            if isinstance(v, list) and v and all(isinstance(i, dict) for i in v)}


def _resolve(name: str, res: Resource, inner: dict[str, str]) -> str | None:
    """Source for a placeholder's value: `item_id` (an inner record's) or the record's id."""
    m = _ID_LIKE.match(name)
    if m is None:
        return None
    stem = (m.group("stem") or "").lower()
    return "item_id" if stem in inner else res.id_var


def _leaves(value: Any, path: str = "") -> list[tuple[str, str]]:
    """(source path, placeholder) of every placeholder in a parsed body."""
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _leaves(v, f"{path}[{literal(k)}]")]
    if isinstance(value, str) and value.startswith(_MARK):
        return [(path, value[1:])]
    return []


def _counter(res: Resource, key: str, verb: str) -> str | None:
    """The inner records' field that counts the action (`vote`/`votes`/`vote_count`)."""
    first = res.fields[key][0]
    names = (verb, f"{verb}s", f"{verb}_count", f"{verb}Count")
    return next((n for n in names if isinstance(first.get(n), int)
                 and not isinstance(first.get(n), bool)), None)


def item_action(w: Writer, ep: Endpoint) -> Case | None:
    res = w.model.owner(ep.path)
    body = placeholder_body(ep.request_example)
    segs = segments(ep.path)
    if (res is None or body is None or ep.method != "POST" or res.item is None
            or not ep.path.startswith(res.item.rstrip("/") + "/") or res.get is None
            or not res.creatable
            or not all(w.model.reachable(e) for e in (ep, res.get))):
        return None
    inner = _inner(res)
    sent = {p: _resolve(name, res, inner) for p, name in _leaves(body)}
    stems = {(m.group("stem") or "").lower() for _, n in _leaves(body)
             if (m := _ID_LIKE.match(n)) is not None}
    used = [s for s in stems if s in inner]
    if None in sent.values() or len(used) != 1:
        return None
    key = inner[used[0]]
    case = Case(f"test_{action_name(w.model, ep)}_counts_for_the_chosen_{used[0]}",
                "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    get = res.get
    case.add(w.call(case, "before", get, bindings, target=False),
             status_assert("before", get),
             f"items = {res.record_of('before', get)}[{literal(key)}]",
             "assert len(items) >= 2, before.text",
             f"item_id = id_of_record(items[-1], {literal(used[0])})",
             "body = {}")
    case.add(*[f"body{p} = {src}" for p, src in sent.items()])
    code = success_status(ep)
    case.add(w.call(case, "acted", ep, bindings, "json=body"), status_assert("acted", ep))
    answer = placeholder_body(ep.response_example)
    for path, name in _leaves(answer) if code != 204 else []:
        src = _resolve(name, res, inner)
        if src is not None:
            case.add(f"assert str(acted.json(){path}) == str({src}), acted.text")
    counter = _counter(res, key, segs[-1].lower())
    if counter is not None:
        case.add(w.call(case, "after", get, bindings, target=False),
                 status_assert("after", get),
                 f"counts = {{id_of_record(i, {literal(used[0])}): i[{literal(counter)}] "
                 f"for i in {res.record_of('after', get)}[{literal(key)}]}}",
                 f"was = {{id_of_record(i, {literal(used[0])}): i[{literal(counter)}] "
                 "for i in items}",
                 "assert counts[item_id] == was[item_id] + 1, after.text",
                 "assert all(counts[i] == n for i, n in was.items() if i != item_id), after.text")
    return case
