"""What an endpoint's documentation says: its success and error codes, its documented answer
and the records in it, and whether a body names other records. Pure functions over one
`Endpoint`, shared by the generator's model and its templates (re-exported by `gen_model`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from pipeline.offline.names import REFERENCE_KEY
from pipeline.records import Endpoint


def success_codes(ep: Endpoint) -> list[int]:
    return sorted(c for c in ep.status_codes if 200 <= c < 300)


def success_status(ep: Endpoint) -> int | None:
    """The documented success status the method most likely returns, else None."""
    codes = success_codes(ep)
    preferred = {"POST": (201, 200, 202), "DELETE": (204, 200, 202)}.get(ep.method, (200,))
    for code in preferred:
        if code in codes:
            return code
    if codes:
        return codes[0]
    redirects = sorted(c for c in ep.status_codes if 300 <= c < 400)
    if redirects and ep.method == "GET":
        return redirects[0]
    if ep.method == "GET" and (ep.response_example is not None or ep.response_schema):
        return 200  # a documented GET body without a code: the HTTP default
    return None


def error_code(ep: Endpoint, code: int, *words: str) -> bool:
    """Is `code` documented for `ep` (and, when words are given, does its text name one)?"""
    if code not in ep.status_codes:
        return False
    if not words:
        return True
    text = str(ep.status_codes[code]).lower()
    return any(w in text for w in words)


UPCOMING = re.compile(r"\bupcoming\b|\bfuture\b|\bstarts?\s+after\s+(?:the\s+)?(?:current|now)"
                      r"|即将|未来", re.I)
_WHEN_VALUE = re.compile(r"^(\d{4})(-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                         r"(?:Z|[+-]\d{2}:?\d{2})?)?)$")
_SERVER_TIME = re.compile(r"^(?:created|updated|modified|deleted)|timestamp", re.I)


def shift_dates(payload: dict[str, Any], year: int) -> dict[str, str]:
    """The payload's dates moved by the same number of years so the earliest falls in `year`
    (the gaps between them, an end after a start, are kept); key -> new value."""
    found = {k: _WHEN_VALUE.match(v) for k, v in payload.items()
             if isinstance(v, str) and not _SERVER_TIME.search(k)}
    dates = {k: m for k, m in found.items() if m is not None}
    if not dates:
        return {}
    shift = year - min(int(m.group(1)) for m in dates.values())
    return {k: f"{int(m.group(1)) + shift}{m.group(2)}" for k, m in dates.items()}


FUTURE_YEAR = 2099  # a date a document wrote as ahead has often passed since


def conflict_code(ep: Endpoint, *words: str) -> int | None:
    """The status the document gives a repeated write ("409 if it exists", "400 if the
    attendee is already registered"): a 409 naming one of `words`, else the one other
    refusal that names one."""
    if error_code(ep, 409, *words):
        return 409
    named = [c for c in ep.status_codes if 400 <= c < 500 and c not in (401, 403, 404, 409)
             and error_code(ep, c, *words)]
    return named[0] if len(named) == 1 else None


def response_doc(ep: Endpoint) -> Any:
    """The documented success body (example first, then JSON quoted in the status text)."""
    status = success_status(ep)
    if status is not None and status in ep.response_examples:
        return ep.response_examples[status]
    if ep.response_example is not None:
        return ep.response_example
    text = str(ep.status_codes.get(status or 0, ""))
    match = re.search(r"(\{.*\}|\[.*\])", text)
    if match:
        try:
            return json.loads(match.group(1))
        except ValueError:
            return None
    return None


def list_key(body: Any) -> str | None:
    """The key of the list of records in a paged/enveloped list response."""
    if not isinstance(body, dict):
        return None
    for key, value in body.items():
        if isinstance(value, list) and (not value or isinstance(value[0], dict)):
            return key
    return None


def first_record(body: Any) -> dict | None:
    if isinstance(body, list):
        return body[0] if body and isinstance(body[0], dict) else None
    key = list_key(body)
    if key and body[key] and isinstance(body[key][0], dict):
        return body[key][0]
    return None


def has_reference(value: Any, top: bool = True) -> bool:
    """Does a payload point at other records (ids, skus) the test would have to create?"""
    if isinstance(value, dict):
        for key, item in value.items():
            if REFERENCE_KEY.search(key) and not (top and key in ("sku", "isbn")):
                return True
            if has_reference(item, top=False):
                return True
    if isinstance(value, list):
        return any(has_reference(v, top=False) for v in value)
    return False


def envelope_constants(endpoints: list[Endpoint], error_format: Any = None) -> dict[str, bool]:
    """Answer flags the envelope sets, not a record: a top-level boolean every documented
    success answer showing it gives one value, and either a documented error body gives
    the other (`"success": true` / `"success": false`) or every documented answer (three at
    least, of two collections) shows it (`"success": true` throughout). A record's flag
    (`"done": false`) neither flips with the outcome nor shows in every answer."""
    errors = [error_format] + [body for ep in endpoints
                               for status, body in ep.response_examples.items() if status >= 400]
    failed = {(k, v) for body in errors if isinstance(body, dict)
              for k, v in body.items() if isinstance(v, bool)}
    docs = [(ep, doc) for ep in endpoints if isinstance(doc := response_doc(ep), dict)]
    out: dict[str, bool] = {}
    for key in {k for _, doc in docs for k, v in doc.items() if isinstance(v, bool)}:
        values = {doc[key] for _, doc in docs if key in doc}
        if len(values) != 1 or not all(isinstance(v, bool) for v in values):
            continue
        value = values.pop()
        holders = [ep for ep, doc in docs if key in doc]
        places = {next((s for s in reversed(ep.path.split("/")) if s and s[0] != "{"), "")
                  for ep in holders}
        flips = (key, not value) in failed and len(holders) >= 2
        everywhere = len(holders) == len(docs) >= 3 and len(places) >= 2
        if flips or everywhere:
            out[key] = value
    return out
