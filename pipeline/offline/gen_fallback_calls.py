"""The fallback's call writers: the lines of one documented request, its status check, the
record a path names created first, the body a write sends. One home for the fallback
(`gen_fallback`) and its no-token and contrast cases (`gen_fallback_auth`,
`gen_fallback_contrast`), which all import them from here.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pipeline.offline.gen_model import (
    UNIQUE_KEY,
    body_keyword,
    login_sources,
    singular,
)
from pipeline.offline.shape import shape_of
from pipeline.offline.tolerant import id_of_record, records_in
from pipeline.records import Endpoint, Spec, TestCase
from pipeline.spec.texts import fixed_part, placeholder

AUTHOR = "offline"
INDENT = "    "
UNKNOWN_ID = "999999"
_PREFIX = re.compile(r"^(?:api|v\d+(?:\.\d+)?|rest)$", re.I)
PARAM = re.compile(r"\{([^{}]+)\}")
BODY_METHODS = ("POST", "PUT", "PATCH")


_SECRET = re.compile(r"pass|pwd|secret", re.I)
_ACCOUNT = re.compile(r"register|sign-?up|users?$|accounts?$", re.I)


class Unique:
    """A body whose identifying strings are made fresh per run (no clash with other tests)."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body

    def source(self) -> str:
        parts = []
        for key, value in self.body.items():
            if isinstance(value, str) and not _SECRET.search(key) and (
                    "@" in value or value.startswith("sample") or UNIQUE_KEY.search(key)):
                src = f"unique({value!r})"  # the conftest's fresh value shaped like it
            else:
                src = repr(value)
            parts.append(f"{key!r}: {src}")
        return "{" + ", ".join(parts) + "}"


def endpoint_key(ep: Endpoint) -> str:
    return f"{ep.method} {ep.path}"


def uncovered(spec: Spec, cases: list[TestCase]) -> list[Endpoint]:
    """Documented endpoints no case targets, in document order."""
    covered = {key for case in cases for key in case.endpoints}
    return [ep for ep in spec.endpoints if endpoint_key(ep) not in covered]


def endpoint_slug(ep: Endpoint) -> str:
    segs = [s for s in ep.path.split("/") if s]
    while len(segs) > 1 and _PREFIX.match(segs[0]):
        segs = segs[1:]
    words = ["item" if PARAM.fullmatch(s) else s for s in segs] or ["root"]
    slug = re.sub(r"\W+", "_", "_".join(words)).strip("_").lower()
    return f"{ep.method.lower()}_{slug or 'root'}"


def ok_codes(ep: Endpoint) -> tuple[int, ...]:
    documented = tuple(sorted(c for c in ep.status_codes if 200 <= c < 300))
    if documented == (200,) and ep.method == "POST" and ep.status_codes[200] in ("", "OK"):
        return (200, 201)  # a bare "200 OK" is often the extractor's default for a body
    if documented:
        return documented
    return {"POST": (200, 201), "DELETE": (200, 202, 204)}.get(ep.method, (200,))


def code_check(var: str, codes: tuple[int, ...]) -> str:
    if len(codes) == 1:
        return f"assert {var}.status_code == {codes[0]}, {var}.text"
    return f"assert {var}.status_code in {codes!r}, {var}.text"


def documented_fields(ep: Endpoint, code: int) -> list[str] | None:
    """Top-level response fields the document promises (None: no object documented)."""
    schema = ep.response_schema or {}
    props = schema.get("properties")
    if isinstance(props, dict) and props:
        optional = set(schema.get("x-optional") or [])
        return [k for k in props if k not in optional]
    doc = ep.response_examples.get(code, ep.response_example)
    if isinstance(doc, dict) and doc:
        return [str(k) for k in doc]
    return None


def create_for(spec: Spec, ep: Endpoint) -> tuple[Endpoint, str] | None:
    """The documented POST that creates the record the path's one parameter names."""
    names = PARAM.findall(ep.path)
    if len(names) != 1:
        return None
    collection = ep.path[: ep.path.index("{" + names[0] + "}")].rstrip("/")
    create = next((e for e in spec.endpoints if e.method == "POST"
                   and e.path.rstrip("/") == collection), None)
    if create is None or not isinstance(create.request_example, (dict, type(None))):
        return None
    return create, names[0]


def url_source(path: str, bindings: dict[str, str]) -> str:
    def sub(m: re.Match[str]) -> str:
        return "{" + bindings.get(m.group(1), repr(UNKNOWN_ID)) + "}"

    return 'f"{base_url}' + PARAM.sub(sub, path) + '"'


def call_line(var: str, ep: Endpoint, url: str, headers: bool, body: Any = None,
          raw: str | None = None) -> str:
    args = [url]
    if raw is not None:
        args.append(f"data={raw!r}")
        extra = "**auth_headers, " if headers else ""
        args.append("headers={" + extra + '"Content-Type": "application/json"}')
    else:
        if isinstance(body, Unique):
            args.append(f"{body_keyword(ep)}={body.source()}")
        elif body is not None:
            args.append(f"{body_keyword(ep)}={body!r}")
        if headers:
            args.append("headers=auth_headers")
    return f"{var} = session.{ep.method.lower()}({', '.join(args)})"


def function_source(name: str, doc: str, lines: list[str]) -> str:
    text = "\n".join(lines)
    fixtures = [f for f in ("base_url", "session", "unique", "auth_headers")
                if re.search(rf"\b{f}\b", text) or f == "base_url"]
    out = [f"def {name}({', '.join(fixtures)}):", f'{INDENT}"""{doc}"""']
    out += [INDENT + ln for ln in lines]
    return "\n".join(out) + "\n"


def body_value(ep: Endpoint) -> Any:
    if ep.method not in BODY_METHODS:
        return None
    if isinstance(ep.request_example, dict):
        return Unique(ep.request_example)
    if isinstance(ep.request_example, list):
        return ep.request_example
    return params_body(ep)


def params_body(ep: Endpoint) -> dict[str, Any] | None:
    """A body from documented fields with an allowed value or a default ("`choice`: string,
    enum {rock, paper, scissors}"); None unless every body field has one."""
    fields = [p for p in ep.params if p.location == "body"]
    out: dict[str, Any] = {}
    for p in fields:
        enum = p.constraints.get("enum")
        if isinstance(enum, list) and enum:
            out[p.name] = enum[0]
        elif "default" in p.constraints:
            out[p.name] = p.constraints["default"]
        else:
            return None
    return out or None


def text_checks(ep: Endpoint, sent: dict[str, Any] | None = None) -> list[str]:
    """The text a non-JSON page must show, as the document quotes it; a piece whose
    placeholder names an input the case sent ("You chose: <user_choice>", `choice`) must show
    that very value."""
    lines = []
    for text in ep.response_text:
        fixed = fixed_part(text)
        lines.append(f"assert {fixed!r} in response.text, response.text[:500]")
        name = placeholder(text) or ""
        hit = next((k for k in sent or {} if names_input(name, k)), None)
        if hit is not None:
            pattern = re.escape(fixed) + r"\s*([\w.@-]+)"
            lines += [f"shown = re.search({pattern!r}, response.text)",
                      f"assert shown is not None and shown.group(1) == {str(sent[hit])!r}, "
                      "response.text[:500]"]
    return lines


def names_input(placeholder_name: str, param: str) -> bool:
    """`<choice>` / `<user_choice>` name the caller's `choice`; `<computer_choice>` does not."""
    return placeholder_name in (param, f"user_{param}", f"your_{param}", f"input_{param}",
                                f"selected_{param}", f"given_{param}")


def echo_input(ep: Endpoint) -> tuple[str, dict[str, Any]] | None:
    """("query", {name: value}) for a query input a page shows back, sent with an allowed
    value other than its fallback so that echoing it is a real check. (A body field may be
    a form field the document does not mark as such: not sent as JSON here.)"""
    names = {placeholder(t) or "" for t in ep.response_text}
    for p in ep.params:
        enum = p.constraints.get("enum")
        if p.location == "query" and isinstance(enum, list) and len(enum) > 1 and \
                any(names_input(n, p.name) for n in names):
            return p.location, {p.name: enum[1]}
    return None


def register_endpoint(spec: Spec) -> Endpoint | None:
    login = spec.auth.login_path if spec.auth else None
    return next((e for e in spec.endpoints if e.method == "POST" and e.path != login
                 and _ACCOUNT.search(e.path) and isinstance(e.request_example, dict)), None)


def login_success(spec: Spec, ep: Endpoint) -> tuple[str, list[str]] | None:
    """Register a fresh account with the documented body, then log in with it."""
    reg = register_endpoint(spec)
    if reg is None or not isinstance(ep.request_example, dict):
        return None
    sources = login_sources(ep, reg)
    keys = [k for k in sources if sources[k] == k]
    picked = (f"{{k: account[k] for k in {keys!r}}}" if len(keys) == len(sources) else
              "{" + ", ".join(f"{json.dumps(k)}: account[{json.dumps(v)}]"
                          for k, v in sources.items()) + "}")
    codes = ok_codes(ep)
    lines = [f"account = {Unique(reg.request_example).source()}",  # type: ignore[arg-type]
             f"registered = session.post(f\"{{base_url}}{reg.path}\", json=account)",
             code_check("registered", ok_codes(reg)),
             f"credentials = {picked}",
             f"response = session.post(f\"{{base_url}}{ep.path}\", "
             f"{body_keyword(ep)}=credentials)",
             code_check("response", codes)]
    fields = documented_fields(ep, codes[0])
    if fields:
        lines += ["body = response.json()", f"assert set({sorted(fields)!r}) <= set(body), body"]
    return "A freshly registered account logs in.", lines


def created_lines(spec: Spec, ep: Endpoint, auth: bool,
             needs_token: bool) -> tuple[list[str], dict[str, str]] | None:
    """Lines creating the record `ep`'s one path parameter names, and the binding to it."""
    found = create_for(spec, ep)
    if found is None:
        return None
    create, param = found
    if create.auth_required is True and not auth:
        return None
    var = re.sub(r"\W+", "_", param)
    if spec.observed and not guess_holds(spec, create, param):
        return found_lines(spec, create, param, var,
                      auth and (needs_token or create.auth_required is True))
    return [
        call_line("created", create, url_source(create.path, {}),
              auth and (needs_token or create.auth_required is True), body_value(create) or {}),
        code_check("created", ok_codes(create)),
        "record = created.json()",
        'if isinstance(record, dict) and isinstance(record.get("data"), dict):',
        f'{INDENT}record = record["data"]',
        f"{var} = next(record[k] for k in {(param, 'id')!r} if k in record)",
    ], {param: var}


def guess_holds(spec: Spec, create: Endpoint, param: str) -> bool:
    """Would the plain guess (the id at the top of the create answer, or under `data`) find
    the record on the oracle? Then the code stays as it was."""
    seen = [o for o in spec.observed if o.path == create.path]
    if not seen:
        return True  # nothing observed (behind auth): no evidence against the guess
    made = next((o for o in seen if o.method == "POST" and 200 <= o.status < 300), None)
    answer = made.answer if made is not None else None
    if isinstance(answer, dict) and isinstance(answer.get("data"), dict):
        answer = answer["data"]
    return isinstance(answer, dict) and (param in answer or "id" in answer)


def found_lines(spec: Spec, create: Endpoint, param: str, var: str,
           token: bool) -> tuple[list[str], dict[str, str]] | None:
    """Lines binding `var` to a record's id where the guess does not hold: the record the
    test creates, found as `tolerant.created_record` finds it (matched on the fields the
    oracle stored unchanged); else, where the document gives no body to create one with, a
    record the service already lists (as the oracle did)."""
    listing = next((e for e in spec.endpoints if e.method == "GET" and e.path == create.path),
                   None)
    url = url_source(create.path, {})
    lookup = "None" if listing is None or (listing.auth_required is True and not token) \
        else url
    body = body_value(create)
    noun = singular(create.path.rstrip("/").rsplit("/", 1)[-1])
    shape = shape_of(spec.observed, create.path, None, param, noun)
    if shape is not None and shape.match_keys and isinstance(body, Unique) and (
            shape.answer_found or (shape.listed_found and lookup != "None")):
        keys = "".join(f"{json.dumps(k)}, " for k in shape.match_keys).rstrip()
        args = ", ".join([url, "json=sent"] + (["headers=auth_headers"] if token else []))
        return [f"sent = {body.source()}", f"created = session.{create.method.lower()}({args})",
                code_check("created", ok_codes(create)),
                f"{var} = id_of_record(created_record(session, created, {lookup}, "
                f"{{k: sent[k] for k in ({keys})}}, {json.dumps(noun)}), {json.dumps(noun)})"
                ], {param: var}
    listed = next((o for o in spec.observed if o.method == "GET" and o.path == create.path
                   and 200 <= o.status < 300), None)
    records = records_in(listed.answer) if listed is not None else []
    if listing is None or lookup == "None" or not records or id_of_record(records[0]) is None:
        return None
    return [call_line("listed", listing, url, token), code_check("listed", ok_codes(listing)),
            "records = records_in(listed.json())",
            'assert records, "the service lists no record to read"',
            f"{var} = id_of_record(records[0])"], {param: var}


def unchanged_lines(spec: Spec, ep: Endpoint, auth: bool, lines: list[str]) -> list[str]:
    """`lines` (a refused write) between two reads of the collection it writes to, and the
    check that it changed nothing there; `lines` as they are when no such read is
    documented (a write on a record path, or a list that needs a token we do not have)."""
    listing = next((e for e in spec.endpoints if e.method == "GET" and e.path == ep.path), None)
    if (ep.method not in BODY_METHODS or PARAM.search(ep.path) or listing is None
            or (listing.auth_required is True and not auth)):
        return lines
    url, token = url_source(ep.path, {}), listing.auth_required is True
    codes = ok_codes(listing)
    return [call_line("listed_before", listing, url, token), code_check("listed_before", codes),
            *lines, call_line("listed_after", listing, url, token),
            "assert listed_after.json() == listed_before.json()"]
