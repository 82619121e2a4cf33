"""Anthropic wire protocol: messages (text, forced tool use, output_config) and message batches."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from .common import Recorded, Reply, apply_fault, as_text, check_fields, new_id, tokens, truncate
from .faults import Fault

CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# top-level Messages fields of the current API (anthropic SDK 2.x: no sampling parameters)
PARAMS = {"model", "max_tokens", "messages", "system", "metadata", "stop_sequences", "stream",
          "tools", "tool_choice", "thinking", "output_config", "service_tier", "speed",
          "container", "cache_control", "diagnostics", "inference_geo", "user_profile_id",
          "workspace_id"}
_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
                429: "rate_limit_error", 500: "api_error", 503: "api_error",
                529: "overloaded_error"}


def error_reply(status: int, kind: str, fault: Fault | None = None, message: str = "") -> Reply:
    text = message or (fault.message if fault and fault.message else f"fake {kind} error")
    error: dict[str, Any] = {"type": _ERROR_TYPES.get(status, "api_error"), "message": text}
    code = fault.code if fault is not None else None
    if kind == "spend_limit" or code:
        error["details"] = {"error_code": code or "enforced_spend_limit_reached"}
    return Reply(status, {"type": "error", "error": error, "request_id": "req_fake"},
                 headers={"request-id": "req_fake"})


def _check_headers(headers: dict, problems: list[str]) -> None:
    auth = headers.get("authorization", "")
    if not headers.get("x-api-key") and not (auth.startswith("Bearer ") and len(auth) > 7):
        problems.append("missing x-api-key (or Authorization: Bearer) header")
    if not headers.get("anthropic-version"):
        problems.append("missing anthropic-version header")


def _blocks(content: Any, where: str, problems: list[str]) -> list[dict]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list) or not content:
        problems.append(f"{where}content must be a string or a non-empty list of blocks")
        return []
    for i, block in enumerate(content):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            problems.append(f"{where}content[{i}] is not a typed block")
        elif block["type"] == "text" and not isinstance(block.get("text"), str):
            problems.append(f"{where}content[{i}] text block without text")
        cc = block.get("cache_control") if isinstance(block, dict) else None
        if cc is not None and (not isinstance(cc, dict) or cc.get("type") != "ephemeral"
                               or cc.get("ttl", "5m") not in ("5m", "1h")):
            problems.append(f"{where}content[{i}].cache_control must be {{type: ephemeral}}")
    return [b for b in content if isinstance(b, dict)]


def validate_messages(body: Any, problems: list[str], where: str = "") -> list[dict]:
    """Problems of a Messages request; returns the blocks in prompt order (system first)."""
    if not check_fields(body, {"model": str, "max_tokens": int, "messages": list}, problems,
                        where):
        return []
    if body["max_tokens"] < 1:
        problems.append(f"{where}max_tokens must be >= 1")
    if not body["messages"]:
        problems.append(f"{where}messages must not be empty")
    ordered = _ordered_blocks(body, problems, where)
    if sum(1 for b in ordered if b.get("cache_control")) > 4:
        problems.append(f"{where}more than 4 cache_control breakpoints")
    unknown = set(body) - PARAMS
    if unknown:
        problems.append(f"{where}unknown fields {sorted(unknown)}")
    _check_tools(body, problems, where)
    fmt = (body.get("output_config") or {}).get("format")
    if fmt is not None and (fmt.get("type") != "json_schema"
                            or not isinstance(fmt.get("schema"), dict)):
        problems.append(f"{where}output_config.format must be {{type: json_schema, schema}}")
    if body.get("stream"):
        problems.append(f"{where}stream=true is not supported by the fake server")
    return ordered


def _ordered_blocks(body: dict, problems: list[str], where: str) -> list[dict]:
    """System blocks, then each message's blocks, as the prompt cache sees them."""
    ordered: list[dict] = []
    system = body.get("system")
    if system is not None:
        ordered += _blocks(system, f"{where}system: ", problems)
    for i, msg in enumerate(body["messages"]):
        if not isinstance(msg, dict) or msg.get("role") not in ("user", "assistant"):
            problems.append(f"{where}messages[{i}].role must be user or assistant")
            continue
        ordered += _blocks(msg.get("content"), f"{where}messages[{i}].", problems)
    return ordered


def _check_tools(body: dict, problems: list[str], where: str) -> None:
    """Tool definitions, and a forced tool_choice that names one of them."""
    names = set()
    for i, tool in enumerate(body.get("tools") or []):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) \
                or not isinstance(tool.get("input_schema"), dict):
            problems.append(f"{where}tools[{i}] needs name and input_schema")
        else:
            names.add(tool["name"])
    choice = body.get("tool_choice")
    if choice is None:
        return
    if not isinstance(choice, dict) or choice.get("type") not in ("auto", "any", "tool", "none"):
        problems.append(f"{where}tool_choice.type invalid")
    elif choice["type"] == "tool" and choice.get("name") not in names:
        problems.append(f"{where}tool_choice names an undefined tool")


def message(fake: Any, body: dict, ordered: list[dict], fault: Fault | None) -> dict:
    """A Message object answering `body`."""
    choice = body.get("tool_choice") or {}
    tool = None
    if choice.get("type") in ("tool", "any") and body.get("tools"):
        tool = next((t for t in body["tools"] if t["name"] == choice.get("name")),
                    body["tools"][0])
    fmt = (body.get("output_config") or {}).get("format")
    schema = tool["input_schema"] if tool else (fmt or {}).get("schema")
    value = fake.produce("anthropic", body, schema)
    text, cut = truncate(as_text(value), body["max_tokens"],
                         fault is not None and fault.kind == "truncate")
    texts = [b.get("text") or json.dumps(b) for b in ordered]
    marks = [i for i, b in enumerate(ordered) if b.get("cache_control")]
    prefix = "\n".join(texts[: marks[-1] + 1]) if marks else ""
    read = fake.cached_tokens("anthropic", prefix) if prefix else 0
    created = tokens(prefix) if prefix and not read else 0
    if tool is not None:
        data = value if isinstance(value, dict) and not cut else {}
        content = [{"type": "tool_use", "id": new_id("toolu_fake", fake), "name": tool["name"],
                    "input": data}]
        stop = "max_tokens" if cut else "tool_use"
    else:
        content = [{"type": "text", "text": text}]
        stop = "max_tokens" if cut else "end_turn"
    return {
        "id": new_id("msg_fake", fake), "type": "message", "role": "assistant",
        "model": body["model"], "content": content, "stop_reason": stop, "stop_sequence": None,
        "usage": {"input_tokens": max(0, tokens("\n".join(texts)) - read - created),
                  "output_tokens": tokens(text), "cache_creation_input_tokens": created,
                  "cache_read_input_tokens": read},
    }


def _iso(dt: datetime) -> str:
    return dt.isoformat().replace("+00:00", "Z")


def _batch_obj(fake: Any, b: dict) -> dict:
    done = b["processing_status"] == "ended"
    return {
        "id": b["id"], "type": "message_batch", "processing_status": b["processing_status"],
        "request_counts": b["counts"], "created_at": b["created_at"],
        "expires_at": b["expires_at"], "ended_at": b.get("ended_at"), "archived_at": None,
        "cancel_initiated_at": b.get("cancel_initiated_at"),
        "results_url": f"{fake.base_url}/v1/messages/batches/{b['id']}/results" if done else None,
    }


def _finish(fake: Any, b: dict) -> None:
    lines = []
    for item in b["requests"]:
        fault = fake.faults.next_fault("anthropic", "item")
        if b.get("cancel_initiated_at"):
            result: dict = {"type": "canceled"}
        elif fault is not None and fault.status:
            err = json.loads(error_reply(fault.status, fault.kind, fault).raw)
            result = {"type": "errored", "error": {"type": "error", "error": err["error"]}}
        else:
            ordered = validate_messages(item["params"], [])
            result = {"type": "succeeded",
                      "message": message(fake, item["params"], ordered, fault)}
        lines.append({"custom_id": item["custom_id"], "result": result})
    counts = {"processing": 0, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
    for line in lines:
        counts[line["result"]["type"]] += 1
    b.update(processing_status="ended", counts=counts, ended_at=_iso(datetime.now(UTC)),
             results="".join(json.dumps(line) + "\n" for line in lines).encode())


def _create_batch(fake: Any, rec: Recorded) -> Reply:
    if not check_fields(rec.body, {"requests": list}, rec.problems):
        return error_reply(400, "invalid_request", message="; ".join(rec.problems))
    seen: set[str] = set()
    for i, item in enumerate(rec.body["requests"]):
        where = f"requests[{i}]: "
        if not check_fields(item, {"custom_id": str, "params": dict}, rec.problems, where):
            continue
        cid = item["custom_id"]
        if not CUSTOM_ID.match(cid):
            rec.problems.append(f"{where}custom_id {cid!r} must match {CUSTOM_ID.pattern}")
        if cid in seen:
            rec.problems.append(f"{where}duplicate custom_id {cid!r}")
        seen.add(cid)
        rec.custom_ids.append(cid)
        validate_messages(item["params"], rec.problems, where)
    if not rec.body["requests"]:
        rec.problems.append("requests must not be empty")
    if rec.problems:
        return error_reply(400, "invalid_request", message="; ".join(rec.problems[:5]))
    now = datetime.now(UTC)
    n = len(rec.body["requests"])
    b = {"id": new_id("msgbatch_fake", fake), "processing_status": "in_progress",
         "counts": {"processing": n, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0},
         "created_at": _iso(now), "expires_at": _iso(now + timedelta(hours=24)),
         "requests": rec.body["requests"], "polls": 0}
    fake.state["anthropic_batches"][b["id"]] = b
    return Reply(200, _batch_obj(fake, b))


def handle(fake: Any, rec: Recorded, headers: dict, raw: bytes, query: str) -> Reply:
    _check_headers(headers, rec.problems)
    if rec.path == "/v1/messages" and rec.method == "POST":
        ordered = validate_messages(rec.body, rec.problems)
        if rec.problems:
            return error_reply(400, "invalid_request", message="; ".join(rec.problems))
        fault = fake.faults.next_fault("anthropic", "call")
        failed = apply_fault(rec, fault, error_reply)
        return failed or Reply(200, message(fake, rec.body, ordered, fault))
    rec.endpoint = "batch"
    if rec.problems:
        return error_reply(401, "auth", message="; ".join(rec.problems))
    fault = fake.faults.next_fault("anthropic", "batch")
    failed = apply_fault(rec, fault, error_reply)
    if failed is not None:
        return failed
    parts = rec.path.strip("/").split("/")  # v1 messages batches {id} [results|cancel]
    with fake.lock:
        if len(parts) == 3 and rec.method == "POST":
            return _create_batch(fake, rec)
        b = fake.state["anthropic_batches"].get(parts[3]) if len(parts) > 3 else None
        if b is None:
            return error_reply(404, "not_found", message="no such message batch")
        return _batch_request(fake, rec, b, parts[4] if len(parts) > 4 else "")


def _batch_request(fake: Any, rec: Recorded, b: dict, tail: str) -> Reply:
    """Cancel, results or a poll of an existing batch (a poll may finish it)."""
    if tail == "cancel" and rec.method == "POST":
        if b["processing_status"] == "in_progress":
            b["processing_status"] = "canceling"
            b["cancel_initiated_at"] = _iso(datetime.now(UTC))
        return Reply(200, _batch_obj(fake, b))
    if tail == "results":
        if b["processing_status"] != "ended":
            return error_reply(404, "not_found", message="batch has not ended")
        return Reply(200, raw=b["results"], content_type="application/binary")
    if b["processing_status"] in ("in_progress", "canceling"):
        b["polls"] += 1
        if b["polls"] > fake.batch_polls or b["processing_status"] == "canceling":
            _finish(fake, b)
    return Reply(200, _batch_obj(fake, b))
