"""Offline templates for an endpoint that draws one record (a random quiz question) from a
pool the body narrows.

- A body list of records already drawn ("`previous_question_ids`: the ids of previous
  questions"): drawing again and again, sending what came before, never gives one of them;
  where the body narrows the pool by a field of the record (a category) the test can set,
  it makes one record there first and drawing until the pool is spent comes to it.
- A value the document says stands for everything ("`quiz_category_id`: ... (0 represents
  all categories)"): sent, and drawn until the pool is spent, the test's own records of two
  documented categories both come (where the drawn record shows its category and the test
  can make records; else a record is drawn).

The drawn record is the documented answer's one record-valued field (`"question": {...}`).
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.offline.gen_code import Case, Made, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import Resource, response_doc
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint

_PREVIOUS = re.compile(r"^(?:previous|prev|seen|used|excluded?)_\w*ids?$", re.I)
_ALL_VALUE = re.compile(r"\b(-?\d+)\b\s+(?:represents|means|stands\s+for|is|for)\s+(?:all|any|"
                        r"every)\b", re.I)
DRAWS = 12


def _drawn_key(ep: Endpoint) -> str | None:
    doc = response_doc(ep)
    keys = [k for k, v in doc.items() if isinstance(v, dict) and v] if isinstance(doc, dict) \
        else []
    return keys[0] if len(keys) == 1 else None


def _draw(ep: Endpoint) -> tuple[dict[str, Any], str] | None:
    body, key = payload_of(ep), _drawn_key(ep)
    if ep.method != "POST" or "{" in ep.path or body is None or key is None:
        return None
    return body, key


def never_repeats(w: Writer, ep: Endpoint) -> Case | None:
    found = _draw(ep)
    prev = next((k for k in (found[0] if found else {}) if _PREVIOUS.match(k)), None)
    if found is None or prev is None or not isinstance(found[0][prev], list) \
            or not w.model.reachable(ep):
        return None
    body, key = found
    case = Case(f"test_{thing(ep.path)}_never_draws_a_previous_{key}", "integration")
    case.add(*payload_lines("body", body))
    made = _one_of_the_pool(case, w, ep, body, key)
    call = w.call(case, "drawn", ep, {}, "json=body")
    case.add(f"body[{literal(prev)}] = seen = []",
             f"for _ in range({POOL if made else DRAWS}):", f"    {call}",
             f"    {status_assert('drawn', ep)}",
             f"    record = drawn.json().get({literal(key)})",
             "    if not record:", "        break",
             f"    assert id_of_record(record, {literal(key)}) not in seen, (record, seen)",
             f"    seen.append(id_of_record(record, {literal(key)}))",
             f"assert {made} in seen, seen" if made else
             'assert len(seen) >= 1, "nothing was drawn"')
    return case


def _one_of_the_pool(case: Case, w: Writer, ep: Endpoint, body: dict[str, Any],
                     key: str) -> str | None:
    """Where the body narrows the pool by a field of the drawn record (`quiz_category_id` of
    `category_id`) and the test can make such a record: make one in the narrowed pool, so
    drawing until the pool is spent has something to draw and must come to it (its id)."""
    for name, value in body.items():
        spread = _spread(ep, body, key, name) if not _PREVIOUS.match(name) else None
        if spread is not None and isinstance(value, int | str) and str(value).isdigit():
            return _made(case, w, key, spread[1], value, "")
    return None


def all_value_draws(w: Writer, ep: Endpoint) -> Case | None:
    found = _draw(ep)
    if found is None or not w.model.reachable(ep):
        return None
    body, key = found
    for p in ep.params:
        m = _ALL_VALUE.search(p.description)
        if m and p.location == "body" and p.name in body:
            case = Case(f"test_{thing(ep.path)}_with_{p.name}_{m.group(1)}_draws_from_all",
                        "api_compliance")
            value: Any = int(m.group(1))
            if isinstance(body[p.name], str):
                value = m.group(1)
            case.add(*payload_lines("body", body), f"body[{literal(p.name)}] = {literal(value)}")
            spread = _spread(ep, body, key, p.name)
            if spread is None:
                case.add(w.call(case, "drawn", ep, {}, "json=body"), status_assert("drawn", ep),
                         f"assert drawn.json().get({literal(key)}), drawn.text")
                return case
            prev, field = spread
            made = _two_of_two_kinds(case, w, key, field, body[p.name])
            if made is None:
                case.add(w.call(case, "drawn", ep, {}, "json=body"), status_assert("drawn", ep),
                         f"assert drawn.json().get({literal(key)}), drawn.text")
                return case
            call = w.call(case, "drawn", ep, {}, "json=body")
            case.add(f"body[{literal(prev)}] = seen = []",
                     f"for _ in range({POOL}):", f"    {call}",
                     f"    {status_assert('drawn', ep)}",
                     f"    record = drawn.json().get({literal(key)})",
                     "    if not record:", "        break",
                     f"    seen.append(id_of_record(record, {literal(key)}))",
                     f"assert {made[0]} in seen and {made[1]} in seen, seen")
            return case
    return None


def _two_of_two_kinds(case: Case, w: Writer, noun: str, field: str,
                      narrowed: Any) -> tuple[str, str] | None:
    """Make two records of the drawn kind from the create example, one with its `field` (a
    category) and one with the value the draw example narrows to (both documented, so both
    exist; a category is no record the test makes): the ids of the two, or None where they
    cannot be made or the two values are the same."""
    res = _maker(w, noun)
    mine = (res.payload or {}).get(field) if res is not None else None
    if res is None or mine is None or str(mine) == str(narrowed):
        return None
    first = _made(case, w, noun, field, mine, "_1")
    second = _made(case, w, noun, field, type(mine)(narrowed), "_2") if first else None
    return (first, second) if first and second else None


def _maker(w: Writer, noun: str) -> Resource | None:
    """The top-level record of the drawn kind the test can create."""
    return next((r for r in w.model.resources if r.noun == noun and r.parent is None
                 and r.create is not None and w.model.reachable(r.create)), None)


def _made(case: Case, w: Writer, noun: str, field: str, value: Any, tag: str) -> str | None:
    """Make a record of the drawn kind from the create example with `field` set to `value`
    (deleted after the test): the variable holding its id, or None where it cannot be made."""
    res = _maker(w, noun)
    if res is None or res.create is None or field not in (res.payload or {}):
        return None
    shown = (res.payload or {})[field]
    pvar, rvar = f"{noun}_payload{tag}", f"{noun}_response{tag}"
    case.add(*payload_lines(pvar, res.payload or {}),
             f"{pvar}[{literal(field)}] = {literal(type(shown)(value))}",
             w.call(case, rvar, res.create, {}, f"json={pvar}", target=False),
             status_assert(rvar, res.create))
    if not w.take_created(case, res, {}, Made(rvar, pvar, f"{noun}_record{tag}",
                                                    f"{noun}_id{tag}")):
        return None
    if res.delete is not None:
        line = w.call(case, "_", res.delete, {res.param: f"{noun}_id{tag}"}, target=False)
        case.cleanup.append(line.split(" = ", 1)[1])
    return f"{noun}_id{tag}"


POOL = 200


def _spread(ep: Endpoint, body: dict[str, Any], key: str, name: str) -> tuple[str, str] | None:
    """(the previous-ids key, the drawn record's field the narrowing value names, `category_id`
    for `quiz_category_id`): with both, records the test makes with two values of that field
    both come when drawing until the pool is spent, so "all" draws from all, not from one."""
    doc = response_doc(ep)
    record = doc.get(key) if isinstance(doc, dict) else None
    prev = next((k for k in body if _PREVIOUS.match(k) and isinstance(body[k], list)), None)
    field = next((k for k in record if len(k) > 2 and name.endswith(k)), None) \
        if isinstance(record, dict) else None
    return (prev, field) if prev is not None and field is not None else None
