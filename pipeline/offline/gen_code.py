"""Source-code building blocks for the offline generator: literals, URLs, requests, asserts."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from pipeline.offline.gen_docs import error_tokens, error_value_asserts
from pipeline.offline.gen_model import (
    FUTURE_YEAR,
    UNIQUE_KEY,
    UPCOMING,
    Model,
    Resource,
    error_code,
    has_reference,
    shift_dates,
    success_status,
)
from pipeline.offline.own_ids import OWN_ID, Bound
from pipeline.offline.references import referenced_counts
from pipeline.offline.shape import Shape
from pipeline.offline.uploads import files_source
from pipeline.records import Endpoint

INDENT = "    "
NULLABLE = re.compile(r"(?<!created)_at$|(?:^|_)(?:date|due|expires?)(?:_|$)", re.I)
_TRANSFORMED = re.compile(r"normali[sz]|upper-?cased|lower-?cased|sorted|de-?duplicated|"
                          r"rounded|slugif|小写|大写|排序|去重|规范化", re.I)
_NO_ECHO_TEXT = re.compile(r"pass(word)?|secret|token|email|(?:^|_)(?:at|date|due)$", re.I)
_DATE_VALUE = re.compile(r"^\d{4}-\d{2}-\d{2}")
_ZERO_ON_DELETE_CONFLICT = re.compile(r"^(?:quantity|qty|stock|balance|amount|count)$", re.I)


def literal(value: Any) -> str:
    """Python source for a JSON value (dicts keep their order)."""
    if isinstance(value, Bound):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def _date_format(res: Resource, key: str) -> bool:
    """Does the record's documented schema give `key` as a calendar date (`format: date`)?"""
    for ep in (res.get, res.create):
        props = ((ep.response_schema or {}).get("properties") or {}) if ep is not None else {}
        if isinstance(props, dict) and isinstance(props.get(key), dict):
            return props[key].get("format") == "date"
    return False


class Fresh(str):
    """A payload text the test makes unique per run, whatever its key (see `match_keys`)."""


def payload_lines(var: str, payload: dict, unique_keys: bool = True) -> list[str]:
    """`var = {...}` with identity-like string fields (and `Fresh` ones) made unique per
    run."""
    parts = []
    for key, value in payload.items():
        src = literal(value)
        if unique_keys and isinstance(value, str) and value and not isinstance(value, Bound) \
                and (UNIQUE_KEY.search(key) or OWN_ID.fullmatch(key) or isinstance(value, Fresh)):
            src = f"unique({src})"
        parts.append(f"{literal(key)}: {src}")
    one = f"{var} = {{" + ", ".join(parts) + "}"
    if len(one) <= 92:
        return [one]
    return [f"{var} = {{", *[f"{INDENT}{p}," for p in parts], "}"]


def add_payload(case: Any, var: str, payload: dict | None) -> str:
    """Bind `payload` to `var` in the case; the keyword argument that sends it (or "")."""
    if payload is None:
        return ""
    case.add(*payload_lines(var, payload))
    return f"json={var}"


def set_assert(keys: list[str], right: str, prefix: str = "assert ") -> list[str]:
    """`assert {keys} <= right`, wrapped over lines when long."""
    items = [literal(k) for k in keys]
    one = f"{prefix}{{{', '.join(items)}}} <= {right}"
    if len(one) <= 92:
        return [one]
    rows, row = [], ""
    for item in items:
        if row and len(row) + len(item) > 80:
            rows.append(row.rstrip())
            row = ""
        row += item + ", "
    rows.append(row.rstrip())
    return [f"{prefix}{{", *[INDENT + r for r in rows], f"}} <= {right}"]


def type_check(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "(int, float)"
    for py, name in ((str, "str"), (list, "list"), (dict, "dict")):
        if isinstance(value, py):
            return name
    return None


def field_asserts(body_var: str, example: dict, limit: int = 6,
                  constants: dict[str, bool] | None = None) -> list[str]:
    """Presence of every documented field, and the type of the first few; an envelope flag
    (`constants`, `"success": true` on every answer) by its value."""
    keys = [k for k in example if isinstance(k, str)]
    if not keys:
        return []
    lines = set_assert(keys, f"set({body_var})")
    flags = {k: v for k, v in (constants or {}).items() if example.get(k) is v}
    lines += [f"assert {body_var}[{literal(k)}] is {v}" for k, v in flags.items()]
    keys = [k for k in keys if k not in flags]
    typed = [(k, type_check(example[k])) for k in keys]
    typed = [(k, "(str, type(None))" if t == "str" and NULLABLE.search(k) else t)
             for k, t in typed]
    for key, check in [t for t in typed if t[1]][:limit]:
        lines.append(f"assert isinstance({body_var}[{literal(key)}], {check})")
    return lines


def status_assert(var: str, ep: Endpoint, code: int | None = None) -> str:
    code = code if code is not None else success_status(ep)
    if code is None:
        return f"assert 200 <= {var}.status_code < 300, {var}.text"
    return f"assert {var}.status_code == {code}, {var}.text"


def _other_form(shown: Any, sent: Any) -> bool:
    """The document sends a value in one JSON type and shows it stored in another (`"3"`
    sent, `3` shown): the service converts it, an equality would fail."""
    if shown is None or sent is None:
        return False
    kinds = [("number" if isinstance(v, int | float) and not isinstance(v, bool)
              else type(v).__name__) for v in (shown, sent)]
    return kinds[0] != kinds[1]


def _at_top(shape: Shape, res: Resource) -> bool:
    """The observed create answer is the record with its id where the generator looks by
    default: the code stays as it was."""
    return shape.create_record == () and shape.create_id == res.id_field


@dataclass(frozen=True)
class Made:
    """The variables a create binds: its answer, the payload it sends, and the record and id
    it takes from the answer (empty: the resource's own names, `Resource.var`/`id_var`)."""

    response: str = "response"
    payload: str = "payload"
    record: str = ""
    id: str = ""


@dataclass
class Case:
    """A test case under construction."""

    name: str
    category: str
    endpoints: list[str] = field(default_factory=list)
    setup: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    cleanup: list[str] = field(default_factory=list)
    fixtures: set[str] = field(default_factory=set)
    doc: str = ""

    def target(self, ep: Endpoint) -> None:
        key = f"{ep.method} {ep.path}"
        if key not in self.endpoints:
            self.endpoints.append(key)

    def add(self, *lines: str) -> None:
        (self.body if self.cleanup or self.body else self.setup).extend(lines)

    def source(self) -> str:
        text = "\n".join(self.setup + self.body + self.cleanup)
        order = ["base_url", "session", "unique", "auth_headers", "other_auth_headers"]
        used = [f for f in order if f in self.fixtures or re.search(rf"\b{f}\b", text)]
        out = [f"def {self.name}({', '.join(used)}):"]
        if self.doc:
            out.append(f'{INDENT}"""{self.doc}"""')
        out += [INDENT + line if line else "" for line in self.setup]
        if self.cleanup:
            late = _bound_late(self.body, self.cleanup)  # a failure before them: no NameError
            out += [f"{INDENT}{name} = None" for name in late]
            out.append(f"{INDENT}try:")
            out += [INDENT * 2 + line if line else "" for line in self.body]
            out.append(f"{INDENT}finally:")
            for line in self.cleanup:
                names = [n for n in late if re.search(rf"\b{n}\b", line)]
                if names and not line.startswith(" ") and not line.endswith(":"):
                    out.append(INDENT * 2 + "if " + " and ".join(f"{n} is not None"
                                                              for n in names) + ":")
                    out.append(INDENT * 3 + line)
                else:
                    out.append(INDENT * 2 + line)
        else:
            out += [INDENT + line if line else "" for line in self.body]
        return "\n".join(out) + "\n"


def _bound_late(body: list[str], cleanup: list[str]) -> list[str]:
    """Names the cleanup uses that the body binds: unbound when the body fails earlier, and
    the cleanup's NameError would hide the failure the refiner repairs from."""
    bound = dict.fromkeys(m.group(1) for line in body
                          if (m := re.match(r"(\w+) = ", line)))
    text = "\n".join(cleanup)
    return [n for n in bound if re.search(rf"\b{n}\b", text)]


class Writer:
    """Emits requests against one service model into a `Case`."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.last: dict[str, Endpoint] = {}  # response variable -> endpoint it came from

    def errors(self, var: str, code: int) -> list[str]:
        """The documented error body's top-level fields (endpoint example, else the format)."""
        ep = self.last.get(var)
        doc = ep.response_examples.get(code) if ep is not None else None
        if not isinstance(doc, dict):
            doc = self.model.spec.error_format
        if not isinstance(doc, dict) or not doc:
            tokens = error_tokens(ep, code)  # the body's shape is unknown, its code is not
            return [f'assert "{tokens[0]}" in {var}.text, {var}.text'] if len(tokens) == 1 else []
        keys = set_assert([k for k in doc if isinstance(k, str)], f"set({var}.json())")
        fmt = self.model.spec.error_format if isinstance(
            self.model.spec.error_format, dict) else doc
        return keys + error_value_asserts(var, fmt, code, error_tokens(ep, code))

    def url(self, path: str, bindings: dict[str, str]) -> str:
        mine = {r.account_param for r in self.model.resources if r.account_param}

        def sub(m: re.Match[str]) -> str:
            name = m.group(1)  # the signed-in user's id, where nothing else binds it
            default = "user_id_in(auth_headers)" if name in mine else name
            return "{" + bindings.get(name, default) + "}"

        return 'f"{base_url}' + re.sub(r"\{([^{}]+)\}", sub, path) + '"'

    def call(self, case: Case, var: str, ep: Endpoint, bindings: dict[str, str],
             extra: str = "", target: bool = True) -> str:
        """The call's source line, signed in where `ep` needs it; `target` False for a call
        the case makes but does not test (a count, a read-back, a cleanup)."""
        if self.model.needs_auth(ep):
            extra = f"{extra}, headers=auth_headers" if extra else "headers=auth_headers"
        return self.call_unsigned(case, var, ep, bindings, extra, target)

    def call_unsigned(self, case: Case, var: str, ep: Endpoint, bindings: dict[str, str],
                      extra: str = "", target: bool = True) -> str:
        """The call's source line without the signed-in user's headers: sent anonymously, or
        with the headers `extra` names (another user's, a forged token)."""
        if target:
            case.target(ep)
        self.last[var] = ep
        args = [self.url(ep.path, bindings)]
        if extra.startswith("json=") and ep.request_form:  # the document sends it as a form
            extra = "data=" + extra.removeprefix("json=")
        if extra.startswith("data=") and ep.request_files:  # with the files it uploads
            args.append(files_source(ep.request_files))
        if extra:
            args.append(extra)
        return f"{var} = session.{ep.method.lower()}({', '.join(args)})"

    def payload_for(self, res: Resource, deletable: bool = False) -> dict | None:
        """The create payload; `deletable` empties stock-like counts a delete may refuse;
        under a list of upcoming records only, its dates lie ahead."""
        payload = dict(res.payload or {})
        if res.listing is not None and UPCOMING.search(res.listing.summary):
            payload.update(shift_dates(payload, FUTURE_YEAR))
        if deletable and res.delete is not None and error_code(res.delete, 409):
            for key, value in payload.items():
                if isinstance(value, int | float) and _ZERO_ON_DELETE_CONFLICT.match(key):
                    payload[key] = 0
        for key in self.match_keys(res):
            if isinstance(payload.get(key), str):
                payload[key] = Fresh(payload[key])
        return payload if res.payload is not None else None

    def create_chain(self, case: Case, res: Resource, bindings: dict[str, str],
                     made: Made = Made(), deletable: bool = False,
                     overrides: dict[str, str] | None = None) -> bool:
        """Create `res` (and its parents first); binds each path param to its id variable;
        `made`: the variables `res` itself is made with; `overrides`: source of values that
        replace the payload's for `res` itself.

        The root record is deleted in `finally` when the service documents a delete.
        """
        chain = res.chain()
        if chain[0].account_param:  # under the signed-in user: its id is in the token
            case.add("me = user_id_in(auth_headers)", 'assert me is not None, "no user id"')
            bindings[chain[0].account_param] = "me"
        for node in chain:
            last = node is res
            names = made if last else Made(f"{node.noun}_response", f"{node.noun}_payload")
            if not self.create_node(case, node, bindings, names, deletable and last,
                                    overrides if last else None):
                return False
            if node is chain[0] and node.delete is not None:
                line = self.call(case, "_", node.delete, bindings, target=False)  # cleanup
                case.cleanup.append(line.split(" = ", 1)[1])
        return True

    def create_node(self, case: Case, node: Resource, bindings: dict[str, str], made: Made,
                    deletable: bool, overrides: dict[str, str] | None) -> bool:
        """Create one record of a chain whose parents exist (see `create_chain`); binds its
        param to its id, and signs in as it where it is the account."""
        if not node.creatable or node.id_field is None:
            return False
        if node.parent is not None and node.parent_param:
            bindings[node.parent_param] = node.parent.id_var
        if not self.make_referenced(case, node, bindings):
            return False
        pvar, rvar = made.payload, made.response
        case.add(*payload_lines(pvar, self.payload_for(node, deletable) or {}))
        if node.parent_key and node.parent is not None:
            case.add(f"{pvar}[{literal(node.parent_key)}] = {node.parent.id_var}")
        if overrides:
            case.add(*[f"{pvar}[{literal(k)}] = {v}" for k, v in overrides.items()])
        assert node.create is not None
        case.add(self.call(case, rvar, node.create, bindings, f"json={pvar}"),
                 status_assert(rvar, node.create))
        if not self.take_created(case, node, bindings, made):
            return False
        if node.param:
            bindings[node.param] = node.id_var
        if (keys := self.model.signs_in_as(node)) is not None:  # its own credentials
            case.add(f"auth_headers = basic_auth({node.id_var}, {pvar}[{literal(keys[1])}])")
        return True

    def make_referenced(self, case: Case, node: Resource, bindings: dict[str, str]) -> bool:
        """Make the sibling records `node`'s body names (`member_ids`), under its parent."""
        for noun, (target, count) in referenced_counts(node).items():
            assert target.create is not None
            ids = []
            for i in range(1, count + 1):
                pvar, rvar = f"{noun}_payload_{i}", f"{noun}_response_{i}"
                case.add(*payload_lines(pvar, self.payload_for(target) or {}))
                if target.parent_key and target.parent is not None:
                    case.add(f"{pvar}[{literal(target.parent_key)}] = {target.parent.id_var}")
                case.add(self.call(case, rvar, target.create, bindings, f"json={pvar}",
                                   target=False), status_assert(rvar, target.create))
                if not self.take_created(case, target, bindings, Made(
                        rvar, pvar, f"{noun}_record_{i}", f"{noun}_id_{i}")):
                    return False
                ids.append(f"{noun}_id_{i}")
            case.add(f"{noun}_ids = [{', '.join(ids)}]")
        return True

    def take_created(self, case: Case, node: Resource, bindings: dict[str, str],
                     made: Made = Made()) -> bool:
        """Bind the record `made.response` created to `made.record` and its id to `made.id`
        (the node's names by default): from the create answer as the document shows it; where
        it shows none, from the answer if that shows the record, else from the list
        (`tolerant.created_record`, found by the sent fields the oracle stored unchanged)."""
        rvar, pvar = made.response, made.payload
        var, id_var = made.record or node.var, made.id or node.id_var
        shape = node.observed(node.create)
        if node.created_bare:  # `35`: the answer is the id
            case.add(f"{id_var} = {rvar}.json()",
                     f"assert isinstance({id_var}, (int, str)) and not isinstance({id_var}, bool)"
                     f", {rvar}.text")
            return True
        if node.links_itself:
            case.add(f"{var} = {rvar}.json()",
                     f"{id_var} = id_of_record({var}, {literal(node.noun)})",
                     f"assert {id_var} is not None, {rvar}.text")
            return True
        if node.create is not None and node.create.location_header and not node.shows_id \
                and (shape is None or shape.create_id is None) and not node.created_id_key:
            # the record shown has no id; the `Location` header names the new record
            case.add(f"{var} = {rvar}.json()",
                     f'{id_var} = {rvar}.headers["Location"].rstrip("/").rsplit("/", 1)[-1]',
                     f"{id_var} = int({id_var}) if {id_var}.isdigit() else {id_var}")
            return True
        if self.plain_create(node):
            key = node.created_id_key or node.id_field
            case.add(f"{var} = {rvar}.json()", f"{id_var} = {var}[{literal(key)}]")
            return True
        if not self.findable(node):
            return False
        listing = node.listing
        url = self.url(listing.path, bindings) if listing is not None and \
            self.model.reachable(listing) and not self.model.needs_auth(listing) else "None"
        payload = self.payload_for(node) or {}
        keys = "".join(f"{literal(k)}, " for k in shape.match_keys)
        sent = pvar if set(shape.match_keys) >= {k for k, v in payload.items()
                                                if isinstance(v, str | int | float | bool)} \
            else f"{{k: {pvar}[k] for k in ({keys.rstrip()})}}"
        if self.signed_list(node):
            assert listing is not None
            sent = f"{{k: {pvar}[k] for k in ({keys.rstrip()})}}"
            case.add(self.call(case, f"{var}_list", listing, bindings, target=False),
                     f"assert 200 <= {var}_list.status_code < 300, {var}_list.text",
                     f"{var} = next((r for r in records_in({var}_list.json()) if isinstance("
                     f"r, dict) and all(r.get(k) == v for k, v in {sent}.items())), None)",
                     f'assert {var} is not None, "the created {node.noun} is not listed"',
                     f"{id_var} = {node.id_of(var, node.create)}")
            return True
        case.add(f"{var} = created_record(session, {rvar}, {url}, {sent}, "
                 f"{literal(node.noun)})", f"{id_var} = {node.id_of(var, node.create)}")
        return True

    def signed_list(self, res: Resource) -> bool:
        """Only the list shows the created record, and the document does not say the list is
        open: the test reads it signed in, finding the record by its text fields, which it
        makes unique (`payload_lines`)."""
        shape, listing = res.observed(res.create), res.listing
        return shape is not None and not _at_top(shape, res) and not res.links_itself \
            and not shape.answer_found and shape.listed_found and listing is not None \
            and self.model.needs_auth(listing) and self.model.reachable(listing) \
            and bool(shape.match_keys)

    def match_keys(self, res: Resource) -> tuple[str, ...]:
        """Text fields a test makes unique so that it finds its record in a list."""
        shape = res.observed(res.create)
        return shape.match_keys if shape is not None and self.signed_list(res) else ()

    def plain_create(self, res: Resource) -> bool:
        """Is the created record's id where the generator looks by default (`x.json()["id"]`):
        the document shows the create answer, nothing was observed, or what was agrees?"""
        shape = res.observed(res.create)
        return not res.links_itself and (shape is None or _at_top(shape, res))

    def findable(self, res: Resource) -> bool:
        """Can a test find the record it creates (`take_created`)?"""
        shape = res.observed(res.create)
        if shape is None or _at_top(shape, res):
            return True
        listing = res.listing
        by_list = shape.listed_found and listing is not None and self.model.reachable(listing)
        return shape.answer_found or by_list

    def unknown_id(self, res: Resource | None) -> str:
        """Source for an id no record has (shape of the documented ids)."""
        example = res.id_example if res else None
        if isinstance(example, str) and example:
            if re.fullmatch(r"[0-9a-f]{8,}", example):
                return literal("0" * len(example))
            return f"unique({literal(example)})"
        return "999999999"

    def echo_fields(self, res: Resource, payload: dict, limit: int = 6) -> list[str]:
        """Request fields the record should hold unchanged: the values sent must come back.

        Left out: fields the document says are transformed (normalised, re-cased, sorted),
        e-mail addresses not in lower case, dates and secrets, whose stored form may differ
        from the one sent.
        """
        out = []
        seen = (res.shape.match_keys + res.shape.update_keys
                if res.shape is not None and not res.fields else None)
        for key, value in payload.items():
            if (key not in res.fields and res.fields) or self.transformed(res, key):
                continue
            if seen and key not in seen:  # observed coming back in another form
                continue
            if _other_form(res.fields.get(key), value):  # the document shows it converted
                continue
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if number and has_reference({key: value}):
                continue
            text = isinstance(value, str) and value and not _NO_ECHO_TEXT.search(key) and not (
                _DATE_VALUE.match(value) or "@" in value)
            # an e-mail address already in its canonical form (lower case) comes back as sent
            text = text or (isinstance(value, str) and "@" in value and value == value.lower()
                            and re.fullmatch(r"[^@\s]+@[^@\s]+\.\w+", value) is not None
                            and not re.search(r"pass|secret|token", key, re.I))
            # a calendar date the record's schema gives as `format: date` stays that date
            text = text or (isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)
                            is not None and _date_format(res, key))
            plain = isinstance(value, bool)  # lists are often stored sorted or re-cased
            if text or number or plain:
                out.append(key)
        return out[:limit]

    def transformed(self, res: Resource, key: str) -> bool:
        """Does the document say the service stores `key` in another form than sent?"""
        texts = [p.description for ep in (res.create, res.update) if ep is not None
                 for p in ep.params if p.name == key]
        if res.create is not None:
            texts += [str(t) for t in res.create.status_codes.values() if key in str(t)]
        return any(_TRANSFORMED.search(t) for t in texts)
