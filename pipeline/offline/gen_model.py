"""What the offline generator knows about a service: resources, ids, payloads, statuses.

Pure functions over a `Spec`. Everything here is conservative: when the document does not say
enough to write a correct request or assertion, the answer is `None` and the caller skips the
test case it would have written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pipeline.offline.accounts import basic_keys as basic_keys  # re-exported (one home)
from pipeline.offline.accounts import body_keyword as body_keyword
from pipeline.offline.accounts import login_sources as login_sources
from pipeline.offline.endpoint_docs import FUTURE_YEAR as FUTURE_YEAR  # re-exported (one home)
from pipeline.offline.endpoint_docs import UPCOMING as UPCOMING
from pipeline.offline.endpoint_docs import conflict_code as conflict_code
from pipeline.offline.endpoint_docs import envelope_constants
from pipeline.offline.endpoint_docs import error_code as error_code
from pipeline.offline.endpoint_docs import first_record as first_record
from pipeline.offline.endpoint_docs import has_reference as has_reference
from pipeline.offline.endpoint_docs import list_key as list_key
from pipeline.offline.endpoint_docs import response_doc as response_doc
from pipeline.offline.endpoint_docs import shift_dates as shift_dates
from pipeline.offline.endpoint_docs import success_codes as success_codes
from pipeline.offline.endpoint_docs import success_status as success_status
from pipeline.offline.names import is_param, segments, singular, snake
from pipeline.offline.own_ids import OWN_ID, fitting_id, own_id_key, path_pattern
from pipeline.offline.parents import account_collections, adopt
from pipeline.offline.payloads import payload_of
from pipeline.offline.references import REFERENCE_KEY as REFERENCE_KEY  # one home
from pipeline.offline.references import free_references, link_siblings, shown_references
from pipeline.offline.schema_values import schema_constants as schema_constants
from pipeline.offline.schema_values import schema_record
from pipeline.offline.seeded import listed_answer, seeded_payload
from pipeline.offline.shape import (
    Shape,
    bare_id,
    id_key,
    id_names,
    only_id,
    record_path,
    shape_of,
)
from pipeline.records import Endpoint, Spec

UNIQUE_KEY = re.compile(r"(?:^|_)(?:name|title|username|login|email|sku|code|isbn|slug|key|"
                        r"handle|filename|url|uri|link)$", re.I)
ECHO_TEXT_KEY = re.compile(r"(?:^|_)(?:name|title|username|description|content|note)$", re.I)
SEARCH_PARAMS = ("q", "search", "query", "keyword", "term")
PAGE_PARAMS = ("page",)
SIZE_PARAMS = ("per_page", "page_size", "pageSize", "size", "limit")
REGISTER_PATH = re.compile(r"regist(?:er|ration)|sign-?up", re.I)
# a POST on a record's path that says it updates it ("This will update a category by its id")
_UPDATING = re.compile(r"^(?:\W*(?:this|it)\s+(?:will\s+)?)?(?:update|edit|modif(?:y|ies))", re.I)
UNSAFE_PATH = re.compile(r"reset|clear|purge|shutdown|wipe|seed", re.I)


def item_path(collection: str, paths: set[str]) -> str | None:
    """The path of one record of `collection`: `/books/{id}`, or under the singular name
    (`/shoppinglists` and `/shoppinglist/{list_id}`)."""
    segs = segments(collection)
    singular_form = "/" + "/".join(segs[:-1] + [singular(segs[-1])]) if segs else ""
    for prefix in (collection.rstrip("/"), singular_form):
        found = next((p for p in sorted(paths) if p.startswith(prefix + "/")
                      and len(segments(p)) == len(segs) + 1 and is_param(segments(p)[-1])),
                     None)
        if found is not None:
            return found
    return None


_NOT_NOUN = re.compile(r"^(?:api|v\d+(?:\.\d+)*|rest)$", re.I)
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


def _representation(res: Resource) -> dict[str, Any]:
    """The record's fields: from the create, get or list example, whichever is trustworthy."""
    if res.create is not None:
        body = response_doc(res.create)
        if isinstance(body, dict) and res.payload:
            shared = set(body) & set(res.payload)
            if shared or "id" in body:
                return body
    if res.get is not None and isinstance(response_doc(res.get), dict):
        return response_doc(res.get)
    if res.listing is not None:
        rec = first_record(response_doc(res.listing))
        if rec:
            return rec
    return schema_record(res.create, res.get)


def _listed_only(res: Resource) -> bool:
    """A top-level record the document creates and lists but never addresses alone: the
    create's answer names its id (`created_category_id`) and the list holds it."""
    doc = response_doc(res.create) if res.create is not None else None
    return res.parent is None and res.listing is not None and isinstance(doc, dict) \
        and any(re.fullmatch(rf"(?:created_|new_)?{res.noun}_?id", str(k), re.I) for k in doc)


def _id_field(res: Resource) -> str | None:
    param = res.param or ""
    names = [param, snake(param), re.sub(r"(_id|Id)$", "", param), "id"]
    for name in names:
        value = res.fields.get(name)
        if isinstance(value, str) and " " in value.strip():
            continue  # `question` of `{question_id}` holding the question's text: no id
        if name and name in res.fields:
            return name
    listed = first_record(response_doc(res.listing)) if res.listing is not None else None
    if listed and not any(n in res.fields for n in names if n) and "id" in listed \
            and res.fields:  # `/polls/<pk>/` shows no id; its list's records show it
        return "id"
    if param and param in (res.payload or {}):
        return param
    if param == "id" or param.endswith(("_id", "Id")) or not param:
        return own_id_key(res.fields, res.payload) or "id"  # `/client/([0-9]*)` of an `oid`
    return None


@dataclass
class Model:
    spec: Spec
    resources: list[Resource]
    by_item: dict[str, Resource]
    register: Endpoint | None = None
    login: Endpoint | None = None

    @cached_property
    def envelope(self) -> dict[str, bool]:
        """Flags every answer's envelope sets (`"success": true`): checked by value (read by
        every body check, computed once)."""
        return envelope_constants(self.spec.endpoints, self.spec.error_format)

    @property
    def opaque_tokens(self) -> bool:
        """Bearer auth with no endpoint that issues a token: the document leaves no way to
        obtain one, so any token a client sends stands for its own user."""
        auth = self.spec.auth
        if auth is None or auth.scheme.lower() not in ("bearer", "token") or auth.login_path:
            return False
        issuing = re.compile(r"log-?in|sign-?(?:in|up)|register|token|session|oauth|auth\b", re.I)
        return not any(issuing.search(e.path) for e in self.spec.endpoints)

    @property
    def basic(self) -> bool:
        return self.spec.auth is not None and self.spec.auth.scheme.lower() == "basic"

    def signs_in_as(self, res: Resource) -> tuple[str, str] | None:
        """(name key, password key) where `res` is the account (HTTP Basic with the record's
        identifier as the name): after making one, a test signs in as it."""
        if not self.basic or self.basic_name is None or res.create is None \
                or res.create is not self.register:
            return None
        return basic_keys(res.create, self.basic_name)

    @property
    def basic_name(self) -> str | None:
        """The body key the document says the Basic name is (a record's identifier)."""
        return self.spec.auth.name_key if self.spec.auth is not None else None

    @property
    def account(self) -> tuple[str, str] | None:
        """The documented default account, where the service registers no users over HTTP:
        every test signs in as it (HTTP Basic or Digest)."""
        auth = self.spec.auth
        if auth is None or auth.account is None or self.register is not None:
            return None
        return auth.account if auth.scheme.lower() in ("basic", "digest") else None

    @property
    def auth_usable(self) -> bool:
        if self.opaque_tokens or self.account is not None:
            return True
        if self.basic:
            return self.register is not None and basic_keys(self.register,
                                                            self.basic_name) is not None
        return self.spec.auth is not None and self.login is not None and (
            isinstance(self.login.request_example, dict) and bool(self.login.request_example))

    def needs_auth(self, ep: Endpoint) -> bool:
        if self.spec.auth is None or ep.auth_required is False:
            return False
        return ep not in (self.register, self.login)

    def reachable(self, ep: Endpoint) -> bool:
        return not self.needs_auth(ep) or self.auth_usable

    def owner(self, path: str) -> Resource | None:
        """The resource whose item path is the longest prefix of `path` (or equal)."""
        best: Resource | None = None
        for item, res in self.by_item.items():
            if (path == item or path.startswith(item + "/")) and (
                    best is None or len(item) > len(best.item or "")):
                best = res
        if best is None:
            params = re.findall(r"\{([^{}]+)\}", path)
            for res in self.resources:
                if params and res.param == params[-1] and len(params) == 1:
                    return res
        return best


def build_model(spec: Spec) -> Model:
    eps = list(spec.endpoints)
    paths = {e.path for e in eps}
    resources: list[Resource] = []
    by_collection: dict[str, Resource] = {}
    for ep in eps:
        segs = segments(ep.path)
        if not segs or is_param(segs[-1]) or ep.path in by_collection:
            continue
        item = item_path(ep.path, paths)
        methods = {e.method for e in eps if e.path == ep.path}
        # a record without an item path of its own is one still where the collection both
        # takes and lists records (`POST /categories`, `GET /categories`)
        if item is None and not ("POST" in methods and len(segs) > 1 and is_param(segs[-2])) \
                and not {"POST", "GET"} <= methods:
            continue
        param = segments(item)[-1][1:-1] if item else None
        noun = segs[-1]
        if _NOT_NOUN.match(noun) and param and not REFERENCE_KEY.search(param) and param != "id":
            noun = param  # `/api/{post}`: the record is a post
        res = Resource(collection=ep.path, noun=snake(singular(noun)), item=item, param=param)
        by_collection[ep.path] = res
        resources.append(res)
    for res in resources:
        for ep in eps:
            if ep.path == res.collection:
                if ep.method == "POST":
                    res.create = res.create or ep
                elif ep.method == "GET":
                    res.listing = res.listing or ep
            elif res.item and ep.path == res.item:
                slot = {"GET": "get", "PUT": "update", "PATCH": "update", "DELETE": "delete",
                        "POST": "update" if _UPDATING.search(ep.summary) else ""}
                name = slot.get(ep.method)
                if name and getattr(res, name) is None:
                    setattr(res, name, ep)
        if res.create is not None and isinstance(res.create.request_example, dict):
            res.payload = payload_of(res.create)
    by_item = {r.item: r for r in resources if r.item}
    accounts = account_collections(eps)
    for res in list(resources):
        segs = segments(res.collection)
        if len(segs) > 1 and is_param(segs[-2]):
            parent_item = "/" + "/".join(segs[:-1])
            # "/projects/{id}/issues/" under "/projects/{id}/": one record either way
            res.parent = by_item.get(parent_item) or by_item.get(parent_item + "/")
            if res.parent is None and not adopt(res, resources, accounts):
                res.create = None
        res.fields = _representation(res)
        if res.payload is None and res.create is not None:
            res.payload = payload_of(res.create, res.fields)
        if res.payload is None and res.create is not None and spec.observed:
            res.payload = seeded_payload(listed_answer(spec.observed, res.collection))
            res.seeded = res.payload is not None and any(  # the oracle took it: as observed
                o.method == "POST" and o.path == res.create.path and o.body == res.payload
                and 200 <= o.status < 300 for o in spec.observed)
            res.payload = res.payload if res.seeded else None
        res.id_field = _id_field(res)
        if res.parent is not None and res.payload:  # the body names the record it is under
            res.parent_key = next((k for k in (f"{res.parent.noun}_id", f"{res.parent.noun}Id",
                                               res.parent_param) if k and k in res.payload), None)
        if res.client_id:  # the create body names the record: as the path's pattern asks
            res.payload[res.id_field] = fitting_id(  # type: ignore[index]
                res.payload[res.id_field],  # type: ignore[index]
                path_pattern(res.get, res.update, res.delete))
        res.id_example = res.fields.get(res.id_field or "")
        if res.id_example is None and res.payload:
            res.id_example = res.payload.get(res.id_field or "")
        if res.item is None and (res.id_field not in res.fields or res.parent is None) \
                and not _listed_only(res):
            resources.remove(res)  # a state under a record (a loan), not a collection
    listings = {e.path: response_doc(e) for e in eps if e.method == "GET" and "{" not in e.path}
    for res in resources:
        res.free_refs = free_references(res.payload or {}, paths)
        if spec.observed:
            res.shape = shape_of(spec.observed, res.collection, res.item, res.param, res.noun)
            if res.id_field is None and res.shape is not None and res.shape.create_id:
                res.id_field = res.shape.create_id  # `{post}` named by no field: as observed
            res.shown_refs = shown_references(res.payload or {}, listings,
                                              res.shape is not None)
            if res.seeded:  # the listed record's references name records the service holds
                res.shown_refs += tuple(k for k in res.payload or {} if REFERENCE_KEY.search(k))
    for res in resources:
        link_siblings(res, resources)
    model = Model(spec=spec, resources=resources, by_item=by_item)
    if spec.auth is not None:
        login_path = spec.auth.login_path
        model.login = next((e for e in eps if e.path == login_path and e.method == (
            spec.auth.login_method or "POST")), None)
        model.register = next((e for e in eps if e.method == "POST" and REGISTER_PATH.search(
            e.path) and isinstance(e.request_example, dict)), None)
        if model.register is None and model.login is not None and isinstance(
                model.login.request_example, dict) and model.login.request_example:
            # the open create whose body holds every key the login sends makes the account
            keys = set(model.login.request_example)
            model.register = next((e for e in eps if e.method == "POST" and "{" not in e.path
                                   and e is not model.login and e.auth_required is not True
                                   and isinstance(e.request_example, dict)
                                   and keys <= set(e.request_example)), None)
        if model.register is None and model.basic:
            # HTTP Basic sends an account's name and password: the open create that takes both
            model.register = next((e for e in eps if e.method == "POST" and "{" not in e.path
                                   and e.auth_required is not True
                                   and basic_keys(e, spec.auth.name_key)), None)
    return model


JWT_VALUE = re.compile(r"^eyJ[\w-]+\.[\w-]+\.[\w-]+$")


def token_source(model: Model, var: str) -> str:
    """Source for the token in the login answer `var`: at its documented field, else found
    by the tolerant helper (`token_in`: any implementation's token key)."""
    field = token_field(model)
    if field is not None:
        return f"{var}.json()[{json.dumps(field)}]"
    return f"token_in({var}.json())"


def token_field(model: Model) -> str | None:
    body = response_doc(model.login) if model.login else None
    if body is None and model.login is not None and model.login.response_schema:
        body = model.login.response_schema.get("properties")  # a described body's fields
    if isinstance(body, dict):
        for key in sorted(body, key=lambda k: (k != "access_token", k != "token", k)):
            if "token" in key.lower() and "type" not in key.lower():
                return key
        # a JWT pair ({"access": "eyJ...", "refresh": "eyJ..."}): the value shows the token
        jwt = [k for k, v in body.items() if isinstance(v, str) and JWT_VALUE.match(v)]
        return next((k for k in sorted(jwt, key=lambda k: ("refresh" in k.lower(), k))), None)
    return None
