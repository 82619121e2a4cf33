"""Refine a shape-only success test into one that checks values (pure).

A test that asserts only the status, keys or types of a success passes on the bugs that
matter (a write that stores the wrong value, a health check that reports "down"). The
document says what the values must be, so the refiner adds, after the status assertion of a
documented request:
- for a write sent with a JSON body bound to a variable (`payload = {...}`): the fields the
  documented response echoes, equal to the values sent (no secrets, e-mail addresses or dates,
  whose stored form may differ);
- for any documented success: the literal values a health-like answer always carries
  (`{"status": "ok"}`, `{"pong": true}`);
- for an action on a record (`POST /todos/{id}/complete`): the answer's id is the record's.
If the oracle answers differently, the next round's failure repair drops the assertion again.
"""

from __future__ import annotations

import ast
import re

from pipeline.offline.gen_api import constant_checks
from pipeline.offline.gen_code import literal
from pipeline.offline.gen_model import response_doc
from pipeline.offline.refine_errors import EndpointOf
from pipeline.records import Endpoint, Spec

_STATUS = re.compile(r"^assert\s+(\w+)\.status_code\s*(?:==\s*(2\d\d)|in\s*\(\s*2\d\d)")
_SENT = re.compile(r"^(\w+)\s*=\s*session\.(?:post|put|patch)\(.*\bjson=(\w+)\b")
NO_ECHO = re.compile(r"pass|secret|token|email|(?:^|_)(?:at|date|due)$|^created|^updated",
                      re.I)
MAX_ECHO = 4


def _payload_keys(tree: ast.AST, var: str) -> list[str]:
    """Keys of the dict literal assigned to `var` whose values can be compared as sent."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == var
                and isinstance(node.value, ast.Dict)):
            out = []
            for key, value in zip(node.value.keys, node.value.values, strict=True):
                plain = isinstance(value, ast.Constant) and isinstance(
                    value.value, str | int | float | bool) and "@" not in str(value.value)
                fresh = isinstance(value, ast.Call) and ast.unparse(value.func) == "unique"
                if (isinstance(key, ast.Constant) and isinstance(key.value, str)
                        and (plain or fresh) and not NO_ECHO.search(key.value)):
                    out.append(key.value)
            return out
    return []


def _already(lines: list[str], var: str, key: str) -> bool:
    return any(f'["{key}"] ==' in ln and (var in ln) for ln in lines)


def _documented_body(ep: Endpoint) -> dict | None:
    """The documented success body, else its schema's top-level fields (values unknown:
    None, so only the values sent and the record's id are checked, no constants)."""
    doc = response_doc(ep)
    if isinstance(doc, dict):
        return doc
    props = (ep.response_schema or {}).get("properties")
    return {str(k): None for k in props} if isinstance(props, dict) and props else None


_URL_VAR = re.compile(r"\{(\w+)\}")


def _same_record(lines: list[str], at: int, var: str, ep: Endpoint, doc: dict,
                 spec: Spec) -> list[str]:
    """An action on a record (`POST /todos/{id}/complete`, `POST /books/{id}/loan`) answers
    about that record: its id (or the `<noun>_id` the answer names) is the one in the URL."""
    call = next((ln for ln in reversed(lines[:at]) if re.match(rf"\s*{var}\s*=\s*session\.",
                                                               ln)), "")
    names = [n for n in _URL_VAR.findall(call.split('"')[1] if '"' in call else "")
             if n != "base_url"]
    if len(names) != 1 or "{" not in ep.path:
        return []
    name = names[0]
    if name in doc and not isinstance(doc[name], dict | list):
        key = name  # the answer names the record by the URL's own variable: `game_id`
    elif ep.path.endswith("}"):
        return []
    else:
        item = ep.path[:ep.path.index("}") + 1]
        get = next((e for e in spec.endpoints if e.method == "GET" and e.path == item), None)
        record = response_doc(get) if get is not None else None
        if "id" not in doc or not isinstance(record, dict) or set(record) != set(doc):
            return []
        key = "id"
    if any(f'["{key}"] == {name}' in ln for ln in lines):
        return []
    return [f"assert {var}.json()[{literal(key)}] == {name}"]


def add_value_checks(lines: list[str], spec: Spec, endpoint_of: EndpointOf,
                     last_only: bool = False) -> list[str]:
    """`lines` with value assertions after documented successes that only had their shape
    checked (unchanged when the document gives no value to check); `last_only`: after the
    last success only (the request under test, not the setup before it)."""
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return lines
    out, seen = list(lines), False
    for i in range(len(lines) - 1, -1, -1):
        m = _STATUS.match(lines[i].strip())
        if not m or (last_only and seen):
            continue
        seen, var = True, m.group(1)
        ep = endpoint_of(var, lines, i, spec)
        doc = _documented_body(ep) if ep is not None else None
        if not isinstance(doc, dict):
            continue
        checks = [c.replace("body[", f"{var}.json()[", 1)
                  for c in constant_checks("body", doc)]
        checks = [c for c in checks if c not in "\n".join(lines)]
        sent = next((s for ln in reversed(lines[:i])
                     if (s := _SENT.match(ln.strip())) and s.group(1) == var), None)
        if sent is not None:
            keys = [k for k in _payload_keys(tree, sent.group(2)) if k in doc
                    and not isinstance(doc[k], dict | list) and not _already(lines, var, k)]
            checks += [f"assert {var}.json()[{literal(k)}] == {sent.group(2)}[{literal(k)}]"
                       for k in keys[:MAX_ECHO]]
        checks += _same_record(lines, i, var, ep, doc, spec) if ep is not None else []
        if checks:
            indent = re.match(r"\s*", lines[i]).group(0)  # type: ignore[union-attr]
            out[i + 1:i + 1] = [indent + c for c in checks]
    return out
