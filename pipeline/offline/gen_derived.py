"""Offline templates for values the document derives from others.

- A field derived from a sent one: "`file_content_preview`: First 5 lines of the paste file
  content", "`summary`: the first 100 characters of the body". The test sends a text longer
  than that (three lines or characters more) and finds exactly the first N of it in the
  derived field: a preview of six lines, or of the whole text, fails.
- A sent field the document says is normalised to lower case comes back so.
- Numbers the document's example rows keep in a relation (`balance` = `paid` - `spent` in
  every row): they keep it on the service's own rows once records move them.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import action_name
from pipeline.offline.gen_model import Resource, response_doc
from pipeline.offline.names import snake
from pipeline.offline.tolerant import records_in
from pipeline.records import Endpoint

_FIRST = re.compile(r"\bfirst\s+(\d{1,4})\s+(lines?|characters?|chars?)\s+of\s+(?:the\s+)?(.+)",
                    re.I)


def _derived(res: Resource) -> tuple[str, int, str, str] | None:
    """(derived field, N, lines|chars, sent field) from the create answer's schema."""
    ep = res.create
    props = ((ep.response_schema or {}).get("properties") or {}) if ep is not None else {}
    for key, sub in props.items() if isinstance(props, dict) else ():
        m = _FIRST.search(str(sub.get("description") or "")) if isinstance(sub, dict) else None
        if m is None:
            continue
        words = set(re.findall(r"[a-z]+", m.group(3).lower()))
        sent = [k for k, v in (res.payload or {}).items() if isinstance(v, str) and k != key
                and set(re.findall(r"[a-z]+", k.lower())) <= words]
        if len(sent) == 1:
            unit = "lines" if m.group(2).lower().startswith("line") else "chars"
            return key, int(m.group(1)), unit, sent[0]
    return None


def first_part_derived(w: Writer, res: Resource) -> Case | None:
    found = _derived(res)
    ep = res.create
    if found is None or ep is None or not res.creatable or not w.model.reachable(ep) \
            or res.created_bare or res.created_id_key or res.observed(ep) is not None:
        return None
    key, n, unit, sent = found
    case = Case(f"test_create_{res.noun}_{key.lower()}_holds_the_first_{n}_{unit}",
                "api_compliance")
    text = (f'"\\n".join(f"line {{i}}" for i in range(1, {n + 4}))' if unit == "lines"
            else f'"".join(chr(97 + i % 26) for i in range({n + 3}))')
    if not w.create_chain(case, res, {}, overrides={sent: text}):
        return None
    if unit == "lines":
        case.add(f"assert {res.var}[{literal(key)}].splitlines() == "
                 f"payload[{literal(sent)}].splitlines()[:{n}], {res.var}")
    else:
        case.add(f"assert {res.var}[{literal(key)}] == payload[{literal(sent)}][:{n}], "
                 f"{res.var}")
    return case


def _relation(rows: list[dict]) -> tuple[str, str, str] | None:
    """(a, b, c) with a = b - c in every documented record (`"paid": 25.5, "spent": 15,
    "balance": 10.5`), c never negative there and not zero everywhere."""
    keys = [k for k in rows[0] if all(isinstance(r.get(k), int | float)
                                      and not isinstance(r.get(k), bool) for r in rows)]
    for a in keys:
        for b in keys:
            for c in keys:
                if len({a, b, c}) == 3 and all(abs(r[a] - (r[b] - r[c])) < 1e-6 and r[c] >= 0
                                               for r in rows) and any(r[c] for r in rows):
                    return a, b, c
    return None


def documented_relation(w: Writer, ep: Endpoint) -> Case | None:
    """A read under a record whose documented rows keep `a = b - c` (a balance of what was
    paid and spent) keeps it once the records under that record move the numbers: the
    children that name other records (a bill naming members) are made first. `c` is taken
    as a magnitude: the document shows it positive, an implementation may sign it."""
    rows = [r for r in records_in(response_doc(ep)) if isinstance(r, dict)]
    owner = w.model.owner(ep.path)
    if ep.method != "GET" or len(rows) < 2 or owner is None or owner.item is None \
            or not w.model.reachable(ep) or (found := _relation(rows)) is None:
        return None
    child = next((r for r in w.model.resources if r.parent is owner and r.refs
                  and r.creatable and r.create is not None and w.model.reachable(r.create)),
                 None)
    if child is None:
        return None
    a, b, c = found
    case = Case(f"test_{action_name(w.model, ep)}_keeps_{snake(a)}_as_{snake(b)}_less_"
                f"{snake(c)}", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, child, bindings):
        return None
    case.add(w.call(case, "read", ep, bindings), status_assert("read", ep),
             "rows = [r for r in records_in(read.json()) if isinstance(r, dict)]",
             "assert len(rows) >= 1, read.text",
             f"assert all(abs(r[{literal(a)}] - (r[{literal(b)}] - abs(r[{literal(c)}]))) < 0.01"
             " for r in rows), rows",
             f"assert any(r[{literal(c)}] for r in rows), rows")
    return case


def lowercased_identifier(w: Writer, res: Resource) -> Case | None:
    """A sent field the document says is normalised to lower case ("the ID is normalized
    (remove special characters, change to lowercase)"): sent in mixed case, it comes back
    in lower case."""
    ep = res.create
    key = next((p.name for p in ep.params if p.location == "body"
                and p.constraints.get("normalized") == "lowercase"), None) if ep else None
    if key is None or ep is None or not res.creatable or not w.model.reachable(ep) \
            or not isinstance((res.payload or {}).get(key), str):
        return None
    case = Case(f"test_create_{res.noun}_{snake(key)}_comes_back_in_lower_case",
                "api_compliance")
    if not w.create_chain(case, res, {}, overrides={key: 'unique("MixedCase")'}):
        return None
    got = f"str({res.id_var})" if res.created_bare else f"{res.var}[{literal(key)}]"
    case.add(f"assert {got} == payload[{literal(key)}].lower(), response.text")
    return case
