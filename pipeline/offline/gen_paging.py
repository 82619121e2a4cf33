"""Offline template for a paged list the document counts: walking its pages from the first
(as the document numbers them) until a page is empty or, where the document says so, not
found, meets every record once, as many as the documented total says. A page numbered from
the wrong end, a page that repeats the one before, or a total that counts something else
fails here; it needs no page size, no order and no record of its own."""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import path_params, query_param, records_expr, thing
from pipeline.offline.gen_model import (
    PAGE_PARAMS,
    error_code,
    first_record,
    response_doc,
    success_status,
)
from pipeline.records import Endpoint

_TOTAL = re.compile(r"(?:^|_)(?:total|count)(?:_|$)|^total[A-Z]", re.I)
MAX_PAGES = 200


def _total_key(doc: object) -> str | None:
    keys = [k for k, v in doc.items() if _TOTAL.search(str(k)) and isinstance(v, int)
            and not isinstance(v, bool)] if isinstance(doc, dict) else []
    return keys[0] if len(keys) == 1 else None


def _first_page(ep: Endpoint, name: str) -> int | None:
    """The number of the first page: the documented default, when it is 0 or 1."""
    param = next((p for p in ep.params if p.name == name), None)
    first = param.constraints.get("default") if param is not None else None
    return first if first in (0, 1) and not isinstance(first, bool) else None


def pages_hold_every_record(w: Writer, ep: Endpoint) -> Case | None:
    doc = response_doc(ep)
    records = records_expr(doc, "body")
    total = _total_key(doc)
    name = query_param(w.model, ep, PAGE_PARAMS)
    first = _first_page(ep, name) if name else None
    if ep.method != "GET" or path_params(ep.path) or records is None or total is None \
            or first is None or success_status(ep) != 200 or not w.model.reachable(ep) \
            or not isinstance(doc, dict):
        return None
    sample = first_record(doc)
    if not isinstance(sample, dict) or "id" not in sample:
        return None
    case = Case(f"test_list_{thing(ep.path)}_pages_hold_every_record_once", "edge_case")
    page = literal(name)
    case.add(w.call(case, "response", ep, {}, f"params={{{page}: {first}}}"),
             status_assert("response", ep), f"total = response.json()[{literal(total)}]",
             "seen = []", f"for number in range({first}, {first} + {MAX_PAGES}):",
             "    " + w.call(case, "response", ep, {}, f"params={{{page}: number}}"))
    if error_code(ep, 404, "page"):  # the document answers a page that is not there so
        case.add("    if response.status_code == 404:", "        break")
    case.add("    " + status_assert("response", ep), "    body = response.json()",
             f"    if not {records}:", "        break",
             f"    seen += [record[\"id\"] for record in {records}]",
             "assert len(seen) == len(set(seen)), seen",
             "assert len(seen) == total, (len(seen), total)")
    return case
