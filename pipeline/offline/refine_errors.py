"""Refine an error test that checks only the status (and the error body's keys) into one that
checks the documented error code -- the part that tells one 4xx from another (pure).

The code comes from the document: the endpoint's description of that status when it names
exactly one snake_case code first (`409: duplicate_isbn when ...`), placed where the
document's error format carries its code (`{"error": {"code": ...}}` -> `["error"]["code"]`).
If the oracle answers differently, the next round's failure repair drops the assertion again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pipeline.records import Endpoint, Spec

_STATUS = re.compile(r"^assert\s+(\w+)\.status_code\s*==\s*(4\d\d)\b")
_CODE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_CODE_KEYS = {"code", "error_code", "errorcode", "reason"}

EndpointOf = Callable[[str, list[str], int, Spec], Endpoint | None]


def documented_code(ep: Endpoint | None, status: int) -> str | None:
    """The one error code the document names first for `status` of `ep`, if any."""
    text = (ep.status_codes.get(status) or "").strip() if ep is not None else ""
    codes = set(_CODE.findall(text))
    first = _CODE.match(text)
    return first.group(0) if first and len(codes) == 1 else None


def code_path(error_format: Any, depth: int = 0) -> list[str] | None:
    """Keys leading to the code in the document's error body example."""
    if not isinstance(error_format, dict) or depth > 3:
        return None
    for key, value in error_format.items():
        if isinstance(value, str) and (str(key).lower() in _CODE_KEYS
                                       or re.fullmatch(_CODE.pattern, value)):
            return [str(key)]
    for key, value in error_format.items():
        inner = code_path(value, depth + 1)
        if inner is not None:
            return [str(key), *inner]
    return None


def add_error_code_checks(lines: list[str], spec: Spec, endpoint_of: EndpointOf) -> list[str]:
    """After each exact-4xx status assertion, assert the documented error code (when the
    document gives one and the test does not already compare it)."""
    path = code_path(spec.error_format)
    if path is None:
        return lines
    out = list(lines)
    for i in range(len(lines) - 1, -1, -1):
        m = _STATUS.match(lines[i].strip())
        if not m:
            continue
        var, status = m.group(1), int(m.group(2))
        code = documented_code(endpoint_of(var, lines, i, spec), status)
        if code is None or any(f'"{code}"' in ln or f"'{code}'" in ln for ln in lines):
            continue
        indent = re.match(r"\s*", lines[i]).group(0)  # type: ignore[union-attr]
        keys = "".join(f'["{k}"]' for k in path)
        out[i + 1:i + 1] = [f'{indent}assert {var}.json(){keys} == "{code}"']
    return out
