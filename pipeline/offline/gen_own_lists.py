"""Offline template for a list of the signed-in user's own records, named as such by its path
(`GET /polls/mypolls`, `/posts/mine`, `/notes/my-notes`) under the collection it lists.

Two users each make a record; the first user's list holds the first user's record and not the
other's. A list that forgets the owner (every user's records) passes every one-user test. The
records are told apart by a text the test makes unique, so the check holds whichever key an
implementation gives the ids, or none.
"""

from __future__ import annotations

import re

from pipeline.offline.gen_code import Case, Fresh, Writer, literal, payload_lines, status_assert
from pipeline.offline.gen_common import thing
from pipeline.offline.gen_model import UNIQUE_KEY, Resource
from pipeline.offline.names import segments
from pipeline.records import Endpoint

_MINE = re.compile(r"^(?:my[-_]?[a-z]*|mine|own)$", re.I)


def _collection_of(w: Writer, ep: Endpoint) -> Resource | None:
    segs = segments(ep.path)
    if ep.method != "GET" or "{" in ep.path or len(segs) < 2 or not _MINE.match(segs[-1]):
        return None
    under = "/" + "/".join(segs[:-1])
    return next((r for r in w.model.resources if r.collection.rstrip("/") == under), None)


def own_list(w: Writer, ep: Endpoint) -> Case | None:
    res = _collection_of(w, ep)
    if res is None or res.create is None or not res.creatable or not w.model.auth_usable \
            or not w.model.needs_auth(res.create) or not w.model.reachable(ep):
        return None
    payload = w.payload_for(res) or {}
    key = next((k for k, v in payload.items() if isinstance(v, str) and v
                and (UNIQUE_KEY.search(k) or isinstance(v, Fresh))), None)
    if key is None:
        return None
    case = Case(f"test_{thing(ep.path)}_holds_only_the_users_own", "integration")
    bindings: dict[str, str] = {}
    if not w.create_chain(case, res, bindings):
        return None
    case.add(*payload_lines("other_payload", payload),
             w.call_unsigned(case, "other_response", res.create, bindings,
                             "json=other_payload, headers=other_auth_headers"),
             status_assert("other_response", res.create),
             w.call(case, "mine", ep, bindings), status_assert("mine", ep),
             f"texts = [row.get({literal(key)}) for row in records_in(mine.json()) "
             "if isinstance(row, dict)]",
             f"assert payload[{literal(key)}] in texts, mine.text",
             f"assert other_payload[{literal(key)}] not in texts, mine.text")
    return case
