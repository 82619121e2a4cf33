"""Offline template for a field the document derives from a sent one: "`file_content_preview`:
First 5 lines of the paste file content", "`summary`: the first 100 characters of the body".

The test sends a text longer than that (three lines or characters more) and finds exactly
the first N of it in the derived field: a preview of six lines, or of the whole text, fails.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Writer, literal
from pipeline.offline.gen_model import Resource

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
