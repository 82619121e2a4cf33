"""What the offline generator knows about a service: resources, ids, payloads, statuses.

Pure functions over a `Spec`. Everything here is conservative: when the document does not say
enough to write a correct request or assertion, the answer is `None` and the caller skips the
test case it would have written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pipeline.offline.accounts import basic_keys as basic_keys  # re-exported (one home)
from pipeline.offline.accounts import body_keyword as body_keyword
from pipeline.offline.accounts import login_sources as login_sources
from pipeline.offline.accounts import register_endpoint
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
from pipeline.offline.names import REFERENCE_KEY as REFERENCE_KEY  # re-exported (one home)
from pipeline.offline.names import is_param, segments, singular, snake
from pipeline.offline.own_ids import fitting_id, own_id_key, path_pattern
from pipeline.offline.parents import account_collections, adopt
from pipeline.offline.payloads import payload_of
from pipeline.offline.references import free_references, link_siblings, shown_references
from pipeline.offline.resource import Resource as Resource  # re-exported (one home)
from pipeline.offline.schema_values import schema_constants as schema_constants
from pipeline.offline.schema_values import schema_record
from pipeline.offline.seeded import listed_answer, seeded_payload
from pipeline.offline.shape import (
    shape_of,
)
from pipeline.records import Endpoint, Spec

UNIQUE_KEY = re.compile(r"(?:^|_)(?:name|title|username|login|email|sku|code|isbn|slug|key|"
                        r"handle|filename|url|uri|link)$", re.I)
ECHO_TEXT_KEY = re.compile(r"(?:^|_)(?:name|title|username|description|content|note)$", re.I)
SEARCH_PARAMS = ("q", "search", "query", "keyword", "term")
PAGE_PARAMS = ("page",)
SIZE_PARAMS = ("per_page", "page_size", "pageSize", "size", "limit")
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


def _collection_resource(ep: Endpoint, eps: list[Endpoint], paths: set[str]) -> Resource | None:
    """The resource `ep`'s path is the collection of, or None when the path holds no records."""
    segs = segments(ep.path)
    item = item_path(ep.path, paths)
    methods = {e.method for e in eps if e.path == ep.path}
    # a record without an item path of its own is one still where the collection both
    # takes and lists records (`POST /categories`, `GET /categories`)
    if item is None and not ("POST" in methods and len(segs) > 1 and is_param(segs[-2])) \
            and not {"POST", "GET"} <= methods:
        return None
    param = segments(item)[-1][1:-1] if item else None
    noun = segs[-1]
    if _NOT_NOUN.match(noun) and param and not REFERENCE_KEY.search(param) and param != "id":
        noun = param  # `/api/{post}`: the record is a post
    return Resource(collection=ep.path, noun=snake(singular(noun)), item=item, param=param)


def _collections(eps: list[Endpoint], paths: set[str]) -> list[Resource]:
    """One resource per collection path, in the document's order."""
    by_collection: dict[str, Resource] = {}
    for ep in eps:
        segs = segments(ep.path)
        if not segs or is_param(segs[-1]) or ep.path in by_collection:
            continue
        res = _collection_resource(ep, eps, paths)
        if res is not None:
            by_collection[ep.path] = res
    return list(by_collection.values())


def _attach_endpoints(res: Resource, eps: list[Endpoint]) -> None:
    """The first documented endpoint of each kind on the collection and item paths."""
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


def _settle_parent(res: Resource, resources: list[Resource], by_item: dict[str, Resource],
                   accounts: set[str]) -> None:
    """A nested collection's parent; with none (nor an account for it), no test makes one."""
    segs = segments(res.collection)
    if len(segs) > 1 and is_param(segs[-2]):
        parent_item = "/" + "/".join(segs[:-1])
        # "/projects/{id}/issues/" under "/projects/{id}/": one record either way
        res.parent = by_item.get(parent_item) or by_item.get(parent_item + "/")
        if res.parent is None and not adopt(res, resources, accounts):
            res.create = None


def _settle_payload(res: Resource, spec: Spec) -> None:
    """The create body: documented, else from the fields, else a listed record the oracle
    took when observed."""
    if res.payload is None and res.create is not None:
        res.payload = payload_of(res.create, res.fields)
    if res.payload is None and res.create is not None and spec.observed:
        res.payload = seeded_payload(listed_answer(spec.observed, res.collection))
        res.seeded = res.payload is not None and any(  # the oracle took it: as observed
            o.method == "POST" and o.path == res.create.path and o.body == res.payload
            and 200 <= o.status < 300 for o in spec.observed)
        res.payload = res.payload if res.seeded else None


def _settle_ids(res: Resource) -> None:
    """The id field, the parent's key in the body, and an example id."""
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


def _observe_references(res: Resource, spec: Spec, paths: set[str],
                        listings: dict[str, Any]) -> None:
    """References the test may fill freely or as shown, and the observed layout."""
    res.free_refs = free_references(res.payload or {}, paths)
    if not spec.observed:
        return
    res.shape = shape_of(spec.observed, res.collection, res.item, res.param, res.noun)
    if res.id_field is None and res.shape is not None and res.shape.create_id:
        res.id_field = res.shape.create_id  # `{post}` named by no field: as observed
    res.shown_refs = shown_references(res.payload or {}, listings, res.shape is not None)
    if res.seeded:  # the listed record's references name records the service holds
        res.shown_refs += tuple(k for k in res.payload or {} if REFERENCE_KEY.search(k))


def build_model(spec: Spec) -> Model:
    eps = list(spec.endpoints)
    paths = {e.path for e in eps}
    resources = _collections(eps, paths)
    for res in resources:
        _attach_endpoints(res, eps)
    by_item = {r.item: r for r in resources if r.item}
    accounts = account_collections(eps)
    for res in list(resources):
        _settle_parent(res, resources, by_item, accounts)
        res.fields = _representation(res)
        _settle_payload(res, spec)
        _settle_ids(res)
        if res.item is None and (res.id_field not in res.fields or res.parent is None) \
                and not _listed_only(res):
            resources.remove(res)  # a state under a record (a loan), not a collection
    listings = {e.path: response_doc(e) for e in eps if e.method == "GET" and "{" not in e.path}
    for res in resources:
        _observe_references(res, spec, paths, listings)
    for res in resources:
        link_siblings(res, resources)
    model = Model(spec=spec, resources=resources, by_item=by_item)
    if spec.auth is not None:
        auth = spec.auth
        model.login = next((e for e in eps if e.path == auth.login_path
                            and e.method == (auth.login_method or "POST")), None)
        model.register = register_endpoint(eps, model.login, model.basic, auth.name_key)
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
