"""An OpenAPI or Swagger document inside the README (a YAML or JSON code block with `paths`).

Some READMEs append the service's API document (a Flasgger `docs/index.yml`, an OpenAPI 3
excerpt) below a table that names the endpoints and nothing more. What the API document says
fills what the prose left empty: parameters, request bodies (the schema's `example`, else
each field's `example` or `default`; Swagger's one-field-per-`in: body` style too; form
fields give a form body), the answer's schema, the status codes and whether the operation is
secured. An operation the prose does not name is added. What the prose says wins. Pure.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from pipeline.records import HTTP_METHODS, Endpoint, Param
from pipeline.spec.markdown import Block

_ANGLE = re.compile(r"<(?:\w+:)?(\w+)>")  # Flask's `<int:list_id>`
_PARAM = re.compile(r"\{[^{}]+\}")
_LOCATIONS = {"path": "path", "query": "query", "header": "header", "body": "body",
              "formData": "body"}
_KEYWORDS = ("default", "enum", "minimum", "maximum", "minLength", "maxLength", "format")


def api_documents(blocks: list[Block]) -> list[dict[str, Any]]:
    """The code blocks that parse as an API document (a mapping of `paths` from `/...`)."""
    out = []
    for block in blocks:
        if block.kind != "code" or "paths" not in block.text:
            continue
        try:
            doc = yaml.safe_load(block.text)
        except yaml.YAMLError:
            continue
        paths = doc.get("paths") if isinstance(doc, dict) else None
        if isinstance(paths, dict) and any(str(k).startswith("/") for k in paths):
            out.append(doc)
    return out


def _resolve(doc: dict[str, Any], node: Any, hops: int = 0) -> Any:
    """`node` with its `$ref`s into the same document followed (a few hops: no cycles)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            if hops >= 4:
                return {}
            target: Any = doc
            for part in ref[2:].split("/"):
                target = target.get(part) if isinstance(target, dict) else None
            return _resolve(doc, target, hops + 1) if target is not None else {}
        return {k: _resolve(doc, v, hops) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(doc, v, hops) for v in node]
    return node


def _example(schema: Any) -> Any:
    """An example of a schema: its own, else one built from its fields' examples/defaults."""
    if not isinstance(schema, dict):
        return None
    for key in ("example", "default"):
        if key in schema:
            return schema[key]
    props = schema.get("properties")
    if isinstance(props, dict):
        built = {k: _example(v) for k, v in props.items()}
        return {k: v for k, v in built.items() if v is not None} or None
    return None


def _param(raw: dict[str, Any]) -> Param | None:
    name, where = raw.get("name"), _LOCATIONS.get(str(raw.get("in")))
    if not isinstance(name, str) or where is None:
        return None
    schema = raw.get("schema") if isinstance(raw.get("schema"), dict) else raw
    constraints = {k: schema[k] for k in _KEYWORDS if k in schema}
    return Param(name=name, location=where,  # type: ignore[arg-type]
                 type=schema.get("type") if isinstance(schema.get("type"), str) else None,
                 required=raw.get("required") if isinstance(raw.get("required"), bool)
                 else None, description=str(raw.get("description") or ""),
                 constraints=constraints)


def _body(op: dict[str, Any], params: list[dict[str, Any]]
          ) -> tuple[dict[str, Any] | None, Any, bool]:
    """(request schema, request example, sent as a form) of an operation."""
    content = (op.get("requestBody") or {}).get("content") or {}
    for kind, form in (("application/json", False), ("application/x-www-form-urlencoded", True)):
        media = content.get(kind)
        if isinstance(media, dict) and isinstance(media.get("schema"), dict):
            example = media.get("example", _example(media["schema"]))
            return media["schema"], example, form
    whole = next((p for p in params if p.get("in") == "body" and isinstance(p.get("schema"),
                                                                             dict)), None)
    if whole is not None:
        return whole["schema"], _example(whole["schema"]), False
    fields = [p for p in params if p.get("in") in ("body", "formData") and "schema" not in p
              and isinstance(p.get("name"), str)]
    if not fields:
        return None, None, False
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {p["name"]: {k: p[k] for k in ("type", *_KEYWORDS) if k in p}
                       for p in fields},
        "required": [p["name"] for p in fields if p.get("required") is True]}
    example = {p["name"]: p.get("example", p.get("default")) for p in fields}
    form = all(p.get("in") == "formData" for p in fields)
    return schema, {k: v for k, v in example.items() if v is not None} or None, form


def _answer(responses: dict[Any, Any]) -> tuple[dict[int, str], dict[str, Any] | None]:
    """(status codes with their descriptions, the first success's schema)."""
    codes: dict[int, str] = {}
    schema: dict[str, Any] | None = None
    for code, answer in responses.items():
        if not str(code).isdigit() or not 100 <= int(code) <= 599:
            continue
        answer = answer if isinstance(answer, dict) else {}
        codes[int(code)] = str(answer.get("description") or "")
        found = answer.get("schema")
        media = (answer.get("content") or {}).get("application/json")
        if found is None and isinstance(media, dict):
            found = media.get("schema")
        if schema is None and 200 <= int(code) < 300 and isinstance(found, dict):
            schema = found
    return dict(sorted(codes.items())), schema


def read_document(doc: dict[str, Any]) -> list[Endpoint]:
    """The operations of one API document, as endpoints."""
    doc = _resolve(doc, doc)
    base = str(doc.get("basePath") or "").rstrip("/")
    secured = bool(doc.get("security"))
    out = []
    for raw_path, item in doc["paths"].items():
        if not isinstance(item, dict) or not str(raw_path).startswith("/"):
            continue
        path = base + _ANGLE.sub(r"{\1}", str(raw_path))
        shared = [p for p in item.get("parameters") or [] if isinstance(p, dict)]
        for method, op in item.items():
            if method.upper() not in HTTP_METHODS or not isinstance(op, dict):
                continue
            raw = shared + [p for p in op.get("parameters") or [] if isinstance(p, dict)]
            if method.upper() in ("GET", "DELETE", "HEAD"):  # a body there is a slip
                raw = [p for p in raw if p.get("in") not in ("body", "formData")]
            params = [p for p in (_param(r) for r in raw) if p is not None]
            schema, example, form = _body(op, raw)
            codes, answer = _answer(op.get("responses") or {})
            security = op.get("security", None)
            out.append(Endpoint(
                method=method.upper(), path=path,
                summary=str(op.get("summary") or op.get("description") or "").strip(),
                params=params, request_schema=schema, request_example=example,
                request_form=form, response_schema=answer, status_codes=codes,
                auth_required=bool(security) if security is not None else (
                    True if secured else None)))
    return out


def _shape(path: str) -> str:
    return _PARAM.sub("{}", path.rstrip("/") or "/")


def merge_documents(endpoints: list[Endpoint], blocks: list[Block]) -> None:
    """Fill the endpoints from the README's API documents (the prose wins); add operations the
    prose does not name. In place."""
    for doc in api_documents(blocks):
        for found in read_document(doc):
            mine = next((e for e in endpoints if e.method == found.method
                         and _shape(e.path) == _shape(found.path)), None)
            if mine is None:
                endpoints.append(found)
                continue
            _fill(mine, found)


def _fill(mine: Endpoint, found: Endpoint) -> None:
    named = {p.name for p in mine.params}
    path_names = _PARAM.findall(mine.path)
    mine.params += [p for p in found.params if p.name not in named and (
        p.location != "path" or "{" + p.name + "}" in path_names)]
    if mine.request_example is None and mine.request_schema is None:
        mine.request_schema, mine.request_example = found.request_schema, found.request_example
        mine.request_form = found.request_form
    if mine.response_schema is None and mine.response_example is None:
        mine.response_schema = found.response_schema
    if not mine.status_codes:
        mine.status_codes = found.status_codes
    if mine.auth_required is None:
        mine.auth_required = found.auth_required
    if not mine.summary:
        mine.summary = found.summary
