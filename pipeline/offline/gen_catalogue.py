"""Offline template for a catalogue answered as a map of ids to names
(`"categories": {"1": "Science", "2": "Art"}`) whose keys address another endpoint
(`GET /categories/{category_id}/questions`).

The map's keys are what the document says they are: ids. A key read from the answer opens
the endpoint it names, and where that endpoint's documented answer carries a field named
for its path parameter (`"current_category_id": 5`), the key comes back there. An
implementation that answers the catalogue as a list of records, or keys it by name, fails.
"""

from __future__ import annotations

from pipeline.offline.gen_code import Case, Writer, literal, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import response_doc
from pipeline.records import Endpoint


def _id_map(doc: object) -> str | None:
    """The key of a top-level map from digit-string ids to names."""
    for key, value in (doc.items() if isinstance(doc, dict) else ()):
        if isinstance(value, dict) and len(value) >= 2 and all(
                isinstance(k, str) and k.isdigit() and isinstance(v, str)
                for k, v in value.items()):
            return key
    return None


def catalogue_keys_address(w: Writer, ep: Endpoint) -> Case | None:
    key = _id_map(response_doc(ep))
    if ep.method != "GET" or "{" in ep.path or key is None or not w.model.reachable(ep):
        return None
    target = next((e for e in w.model.spec.endpoints if e.method == "GET"
                   and f"/{key}/{{" in e.path and e.path.count("{") == 1
                   and w.model.reachable(e)), None)
    if target is None:
        return None
    param = target.path.split(f"/{key}/{{", 1)[1].split("}", 1)[0]
    case = Case(f"test_{thing(ep.path)}_{key}_keys_open_their_{thing(target.path)}",
                "integration")
    case.add(w.call(case, "response", ep, {}), status_assert("response", ep),
             f"catalogue = response.json()[{literal(key)}]",
             "assert isinstance(catalogue, dict) and len(catalogue) >= 1, response.text",
             "key = sorted(catalogue, key=str)[0]",
             w.call(case, "opened", target, {param: "key"}), status_assert("opened", target))
    shown = response_doc(target)
    echo = next((k for k, v in (shown.items() if isinstance(shown, dict) else ())
                 if k.endswith(param) and isinstance(v, int | str)
                 and not isinstance(v, bool)), None)
    if echo is not None:
        case.add(f"assert str(opened.json()[{literal(echo)}]) == str(key), opened.text")
    return case


def _map_fields(ep: Endpoint) -> list[str]:
    """Top-level answer fields that are maps (an example's object, a schema's `object`)."""
    doc = response_doc(ep)
    if isinstance(doc, dict):
        return [k for k, v in doc.items() if isinstance(v, dict) and v]
    props = (ep.response_schema or {}).get("properties") or {}
    return [k for k, sub in props.items() if isinstance(sub, dict) and sub.get("type") == "object"]


def catalogue_values_accepted(w: Writer, ep: Endpoint) -> Case | None:
    """A map the service answers (`"language": {"python": "Python", ...}`, "keys are the
    language aliases") whose name is a string field a create takes: a key of it, sent as
    that field, is stored (the record shows it), not only the document's example value."""
    if ep.method != "GET" or "{" in ep.path or not w.model.reachable(ep):
        return None
    for key in _map_fields(ep):
        res = next((r for r in w.model.resources if r.creatable and r.create is not None
                    and key in r.fields and w.model.reachable(r.create)
                    and (isinstance((r.payload or {}).get(key), str) or any(
                        p.name == key and p.location == "body"
                        and (p.type or "string").lower() in ("string", "str")
                        for p in r.create.params))), None)
        if res is None:
            continue
        example = (res.payload or {}).get(key)
        case = Case(f"test_{res.noun}_{key}_takes_a_key_of_the_{thing(ep.path) or 'root'}_"
                    f"{key}", "integration")
        case.add(w.call(case, "catalogue", ep, {}, target=False),
                 status_assert("catalogue", ep),
                 f"known = catalogue.json()[{literal(key)}]",
                 "assert isinstance(known, dict) and len(known) >= 2, catalogue.text",
                 f"value = next(k for k in sorted(known, reverse=True) if k != {literal(example)})")
        if not w.create_chain(case, res, {}, overrides={key: "value"}):
            return None
        case.add(f"assert {res.var}[{literal(key)}] == value, response.text")
        return case
    return None
