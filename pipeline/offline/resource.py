"""One resource of a document as the generator sees it: its collection and item paths, the
endpoints that create, list, read, update and delete it, the body a test sends and where its
id lives (from the document, else from the oracle's observed answers). Its own module so the
modules that fill it in (`parents`, `references`) and `gen_model`, which builds it, need no
import circle.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pipeline.offline.endpoint_docs import has_reference, response_doc
from pipeline.offline.names import segments, snake
from pipeline.offline.own_ids import OWN_ID
from pipeline.offline.shape import (
    Shape,
    bare_id,
    id_key,
    id_names,
    only_id,
    record_path,
)
from pipeline.records import Endpoint


@dataclass
class Resource:
    collection: str
    noun: str
    item: str | None = None
    param: str | None = None
    parent: Resource | None = None
    create: Endpoint | None = None
    listing: Endpoint | None = None
    get: Endpoint | None = None
    update: Endpoint | None = None
    delete: Endpoint | None = None
    payload: dict | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    id_field: str | None = None
    id_example: Any = None
    free_refs: tuple[str, ...] = ()  # ids of things no documented path manages: any value
    shown_refs: tuple[str, ...] = ()  # ids of records the document shows existing: as written
    shape: Shape | None = None  # observed on the running oracle (see shape.py)
    seeded: bool = False  # the create body is shaped like a listed record (seeded.py)
    account_param: str | None = None  # `{id}` of `/users/{id}/...`: the signed-in user
    parent_param: str | None = None  # `{id}` of `/categories/{id}/...`: the parent's id
    parent_key: str | None = None  # the body's field naming the parent (`category_id`)
    ref_keys: tuple[str, ...] = ()  # body keys the document says are ids of other records
    refs: dict[str, Resource] = field(default_factory=dict)  # those the test can make first

    def observed(self, ep: Endpoint | None) -> Shape | None:
        """The observed layout where the document shows no answer for `ep` (the document's
        own example always wins)."""
        if self.shape is None or ep is None or response_doc(ep) is not None \
                or ep.response_schema:
            return None
        return self.shape

    @property
    def created_id_key(self) -> str | None:
        """The key of the new record's id where the documented create answer reports the
        creation (`{"success": true, "created_question_id": 24}`) instead of showing the
        record; None when it shows the record, or shows no answer."""
        doc = response_doc(self.create) if self.create is not None else None
        if not isinstance(doc, dict) or (self.id_field and self.id_field in doc):
            return None
        if self.payload and record_path(doc, self.payload) is not None:
            return None
        return id_key(doc, id_names(self.param, self.noun)) or only_id(doc, self.noun)

    @property
    def created_bare(self) -> bool:
        """The create answers the new record's id alone (`35`): documented, else observed."""
        if self.create is None:
            return False
        doc = response_doc(self.create)
        if doc is not None:
            return bare_id(doc)
        return self.shape is not None and self.shape.create_bare

    def created_id(self, var: str) -> str:
        """Source for the new record's id in the create answer `var` that shows it where the
        generator looks by default (`plain_create`)."""
        if self.created_bare:
            return f"{var}.json()"
        return f"{var}.json()[{json.dumps(self.created_id_key or self.id_field)}]"

    @property
    def links_itself(self) -> bool:
        """The documented create answer shows the record without its id but with a link to
        it (`"url": ".../projects/11/"`): the id is read from the link (`id_of_record`)."""
        doc = response_doc(self.create) if self.create is not None else None
        if not isinstance(doc, dict) or not self.id_field or self.id_field in doc \
                or self.created_id_key:
            return False
        tail = segments(self.collection)[-1] if segments(self.collection) else ""
        links = [doc.get(k) for k in ("url", "href", "self")]
        if isinstance(doc.get("_links"), dict):
            self_link = doc["_links"].get("self")
            links.append(self_link.get("href") if isinstance(self_link, dict) else self_link)
        return any(isinstance(v, str) and f"/{tail}/" in v for v in links)

    @property
    def shows_id(self) -> bool:
        """Does the record's representation carry its id? (`{"username": "miguel"}` with the
        id only in the create's `Location` does not.)"""
        if self.shape is not None and any(k == self.id_field for k, _ in self.shape.record_types):
            return True
        return not self.fields or self.id_field in self.fields

    def reads_back(self) -> bool:
        """Has the record a documented read that finds it (where the document shows no answer,
        as the oracle's answer showed)?"""
        shape = self.observed(self.get)
        return self.get is not None and (shape is None or shape.read_found)

    def record_of(self, var: str, ep: Endpoint | None) -> str:
        """Source for the record in `var`'s answer to the item read `ep`: where the document
        shows no answer, wherever an implementation puts it (`tolerant.record_in`)."""
        return f"record_in({var}.json())" if self.observed(ep) else f"{var}.json()"

    def id_of(self, record: str, ep: Endpoint | None) -> str:
        """Source for the id of `record` (from `ep`'s answer): the documented key, else the
        key an implementation names it by (`tolerant.id_of_record`)."""
        if self.observed(ep):
            return f"id_of_record({record}, {json.dumps(self.noun)})"
        return f"{record}[{json.dumps(self.id_field)}]"

    @property
    def var(self) -> str:
        return self.noun

    @property
    def id_var(self) -> str:
        return f"{self.noun}_{snake(self.id_field or 'id')}"

    @property
    def client_id(self) -> bool:
        """Does the client choose the record's id, sending it in the create body?"""
        return bool(self.payload and self.id_field and self.id_field in self.payload
                    and OWN_ID.fullmatch(self.id_field))

    @property
    def creatable(self) -> bool:
        if self.create is None or self.payload is None:
            return False
        if has_reference({k: v for k, v in self.payload.items() if k not in (
                *self.free_refs, *self.shown_refs, self.parent_key, *self.refs)}):
            return False
        if any(k not in self.refs or not r.creatable for k, r in
               {k: self.refs.get(k, self) for k in self.ref_keys}.items()):
            return False
        return self.parent is None or self.parent.creatable

    def chain(self) -> list[Resource]:
        out: list[Resource] = []
        node: Resource | None = self
        while node is not None:
            out.insert(0, node)
            node = node.parent
        return out


