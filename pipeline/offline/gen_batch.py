"""Offline template for batch endpoints: several items in one request, each answered.

A batch endpoint (`POST /orders/batch`) takes a list of the bodies its collection's create
takes. When those bodies point at other records (an order's lines name a product `sku`), the
test first creates one such record through the documented endpoint that makes it, then sends
two valid items and checks both were created, in order, and can be read back.
"""

from __future__ import annotations

import copy
from typing import Any

from pipeline.offline.gen_code import Case, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import (
    REFERENCE_KEY,
    Resource,
    response_doc,
    success_status,
)
from pipeline.offline.payloads import payload_of
from pipeline.records import Endpoint


def _refs(value: Any, path: tuple = ()) -> list[tuple[tuple, str]]:
    """(path to the dict, key) of every reference inside a payload (nested lines too)."""
    out: list[tuple[tuple, str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if REFERENCE_KEY.search(key) and isinstance(item, str | int) and path:
                out.append((path, key))
            out += _refs(item, (*path, key))
    elif isinstance(value, list) and value:
        out += _refs(value[0], (*path, 0))
    return out


def _provider(w: Writer, key: str) -> tuple[Endpoint, dict] | None:
    """A documented POST on a fixed path whose body names `key` itself (products by sku)."""
    for ep in w.model.spec.endpoints:
        doc = response_doc(ep)
        body = payload_of(ep, doc if isinstance(doc, dict) else None)
        if (ep.method == "POST" and "{" not in ep.path and isinstance(body, dict)
                and key in body and not _refs(body) and success_status(ep)
                and w.model.reachable(ep)):
            return ep, body
    return None


def _batch_key(ep: Endpoint, res: Resource) -> str | None:
    """The body key holding the list of items: from the example, else the one body field
    named after the collection (`{"orders": [<order body>, ...]}`)."""
    example = ep.request_example
    if isinstance(example, dict):
        for key, value in example.items():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                return key
    body = [p.name for p in ep.params if p.location == "body"]
    plural = res.collection.rstrip("/").rsplit("/", 1)[-1]
    return body[0] if len(body) == 1 and body[0] in (plural, f"{res.noun}s", "items") else None


def _owner(w: Writer, ep: Endpoint) -> Resource | None:
    parent = ep.path.rsplit("/", 1)[0]
    return next((r for r in w.model.resources if r.collection == parent and r.create), None)


def batch_case(w: Writer, ep: Endpoint) -> Case | None:
    if ep.method != "POST" or "{" in ep.path or not ep.path.rstrip("/").endswith("batch"):
        return None
    res = _owner(w, ep)
    key = _batch_key(ep, res) if res is not None else None
    code = 200 if 200 in ep.status_codes else success_status(ep)  # 200: "even when some fail"
    if res is None or res.create is None or key is None or code is None:
        return None
    doc = response_doc(ep)
    results = next((k for k, v in doc.items() if isinstance(v, list)), None) \
        if isinstance(doc, dict) else None
    item = res.payload or payload_of(res.create, res.fields)
    refs = _refs(item)
    providers = {key: _provider(w, key) for _, key in refs}
    if (item is None or results is None or any(p is None for p in providers.values())
            or not w.model.reachable(ep)):
        return None
    case = Case(f"test_post_{thing(ep.path)}_with_two_{res.noun}s_creates_both", "integration")
    for n, (_key, found) in enumerate(sorted(providers.items())):
        assert found is not None
        pep, body = found
        case.add(*payload_lines(f"ref{n}", body),
                 w.call(case, f"ref{n}_made", pep, {}, f"json=ref{n}"),
                 status_assert(f"ref{n}_made", pep))
    items = []
    for i in range(2):
        var = f"item{i}"
        case.add(*payload_lines(var, copy.deepcopy(item)))
        for path, ref in refs:
            n = sorted(providers).index(ref)
            where = "".join(f"[{literal(p)}]" for p in path)
            case.add(f"{var}{where}[{literal(ref)}] = ref{n}[{literal(ref)}]")
        items.append(var)
    sent = f"json={{{literal(key)}: [{', '.join(items)}]}}"
    case.add(w.call(case, "response", ep, {}, sent),
             status_assert("response", ep, code), "answer = response.json()",
             f"assert len(answer[{literal(results)}]) == 2")
    if isinstance(doc, dict) and isinstance(doc.get("created"), int):
        case.add('assert answer["created"] == 2')
    first = doc[results][0] if isinstance(doc.get(results), list) and doc[results] else None
    if isinstance(first, dict) and "status" in first and res.create is not None:
        created = success_status(res.create)
        case.add(f'assert [r["status"] for r in answer[{literal(results)}]] == '
                 f"[{created}, {created}]")
    return case


def batch_cases(w: Writer) -> list[Case | None]:
    return [batch_case(w, ep) for ep in w.model.spec.endpoints]
