"""Shared pieces of the fake server: request records, replies, token counting, faults."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .faults import Fault


@dataclass
class Recorded:
    index: int
    provider: str
    endpoint: str  # call | batch | file | cut (body cut short: the client went away)
    method: str
    path: str
    headers: dict[str, str]  # auth header values are replaced by "<present>"
    body: Any
    problems: list[str] = field(default_factory=list)
    fault: str | None = None
    status: int = 0
    custom_ids: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems


def tokens(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


class Reply:
    """What a protocol handler returns to the HTTP layer."""

    def __init__(self, status: int, body: Any = None, *, raw: bytes | None = None,
                 content_type: str = "application/json", headers: dict | None = None):
        self.status = status
        self.raw = raw if raw is not None else json.dumps(body).encode()
        self.content_type = content_type
        self.headers = headers or {}


def as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def truncate(text: str, max_tokens: int | None, forced: bool) -> tuple[str, bool]:
    """Cut the output by the token limit (or by a `truncate` fault)."""
    if forced:
        return text[: max(1, len(text) // 2)], True
    if max_tokens is not None and tokens(text) > max_tokens:
        return text[: max_tokens * 4], True
    return text, False


def apply_fault(rec: Recorded, fault: Fault | None,
                error_reply: Callable[[int, str, Fault], Reply]) -> Reply | None:
    """Sleep for latency; return an error reply for status faults; None to go on normally."""
    if fault is None:
        return None
    rec.fault = fault.kind
    if fault.delay_s or fault.kind == "latency":
        time.sleep(fault.delay_s or 1.0)
    if fault.kind in ("latency", "truncate"):
        return None
    if fault.kind == "malformed":
        return Reply(200, raw=b'{"id": "broken", "choices": [{"message": {"content": "', )
    reply = error_reply(fault.status or 500, fault.kind, fault)
    if fault.retry_after is not None:
        reply.headers["retry-after"] = str(fault.retry_after)
    if fault.retry_after_ms is not None:
        reply.headers["retry-after-ms"] = str(fault.retry_after_ms)
    return reply


def new_id(prefix: str, fake: Any) -> str:
    with fake.lock:
        fake.state["seq"] = fake.state.get("seq", 0) + 1
        return f"{prefix}{fake.state['seq']:06d}"


def find_embedded_schema(texts: list[str]) -> dict | None:
    """A JSON schema quoted in the prompt (JSON mode): the last `{...}` with "properties"."""
    for text in reversed(texts):
        start = text.find("{")
        while start != -1:
            try:
                obj, _ = json.JSONDecoder().raw_decode(text[start:])
            except json.JSONDecodeError:
                obj = None
            if isinstance(obj, dict) and "properties" in obj:
                return obj
            start = text.find("{", start + 1)
    return None


def check_fields(body: Any, required: dict[str, type | tuple], problems: list[str],
                 where: str = "") -> bool:
    if not isinstance(body, dict):
        problems.append(f"{where}body must be a JSON object")
        return False
    ok = True
    for name, kind in required.items():
        if name not in body:
            problems.append(f"{where}missing required field {name!r}")
            ok = False
        elif not isinstance(body[name], kind) or isinstance(body[name], bool) and kind is int:
            problems.append(f"{where}field {name!r} has wrong type {type(body[name]).__name__}")
            ok = False
    return ok


def parse_multipart(content_type: str, raw: bytes) -> dict[str, bytes]:
    """Fields of a multipart/form-data body (name -> bytes)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    msg = BytesParser(policy=HTTP).parsebytes(
        f"content-type: {content_type}\r\n\r\n".encode() + raw
    )
    fields: dict[str, bytes] = {}
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if name:
            fields[str(name)] = part.get_payload(decode=True) or b""
    return fields
