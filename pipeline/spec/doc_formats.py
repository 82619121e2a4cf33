"""A document-wide rule on how times are written, applied to the answers' time fields.

"Logging and timestamp fields as ISO 8601 strings" / "all dates are ISO 8601" is said once,
not beside each schema; the time fields of every documented answer (`timestamp`, `*_at`,
`*_time`, `date`) then carry `format: date-time`, so a test can check a time field holds a
time and not any string. Pure: text in, endpoints updated in place.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.records import Endpoint

_RULE = re.compile(r"\btimestamps?\b[^.\n]{0,60}?\bISO[\s-]?8601\b"
                   r"|\ball\b[^.\n]{0,30}?\b(?:times|dates|datetimes)\b[^.\n]{0,30}?"
                   r"\bISO[\s-]?8601\b"
                   r"|\bISO[\s-]?8601\b[^.\n]{0,40}?\b(?:timestamps|all\s+(?:times|dates))\b",
                   re.I)
_TIME_FIELD = re.compile(r"^(?:timestamp|date|datetime|time)$|_(?:at|time|timestamp)$", re.I)


def iso_times_rule(markdown_text: str) -> bool:
    """Does the document say, for the whole service, that times are ISO 8601?"""
    return _RULE.search(markdown_text) is not None


def _mark(schema: Any) -> None:
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict):
        return
    for name, sub in props.items():
        if (isinstance(sub, dict) and _TIME_FIELD.search(name) and "format" not in sub
                and sub.get("type") == "string"):
            sub["format"] = "date-time"


def apply_time_format(endpoints: list[Endpoint], markdown_text: str) -> None:
    """Mark the answers' top-level time fields `date-time` when the document says so."""
    if not iso_times_rule(markdown_text):
        return
    for ep in endpoints:
        _mark(ep.response_schema)
