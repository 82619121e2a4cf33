"""OpenAI wire protocol: chat completions, responses, files and batches."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from .common import (
    Recorded,
    Reply,
    apply_fault,
    as_text,
    check_fields,
    find_embedded_schema,
    new_id,
    parse_multipart,
    tokens,
    truncate,
)
from .faults import Fault

ROLES = {"system", "developer", "user", "assistant", "tool"}
ENDPOINTS = ("/v1/chat/completions", "/v1/responses")


def error_reply(status: int, kind: str, fault: Fault | None = None, message: str = "") -> Reply:
    etype = {429: "rate_limit_exceeded", 401: "invalid_api_key", 400: "invalid_request_error"}
    if kind == "spend_limit":
        etype[429] = "insufficient_quota"
    text = message or (fault.message if fault and fault.message else f"fake {kind} error")
    code = (fault.code if fault is not None else None) or etype.get(status)
    return Reply(status, {"error": {"message": text, "type": etype.get(status, "server_error"),
                                    "param": None, "code": code}})


def _check_auth(headers: dict, problems: list[str]) -> None:
    auth = headers.get("authorization", "")
    if not auth.startswith("Bearer ") or len(auth) <= len("Bearer "):
        problems.append("missing Authorization: Bearer header")


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def validate_chat(body: Any, problems: list[str], where: str = "") -> None:
    if not check_fields(body, {"model": str, "messages": list}, problems, where):
        return
    _check_messages(body["messages"], problems, where)
    for key in ("max_tokens", "max_completion_tokens"):
        if key in body and (not isinstance(body[key], int) or body[key] < 1):
            problems.append(f"{where}{key} must be a positive integer")
    temp = body.get("temperature")
    if temp is not None and not (isinstance(temp, int | float) and 0 <= temp <= 2):
        problems.append(f"{where}temperature must be within [0, 2]")
    fmt = body.get("response_format")
    if fmt is not None:
        _check_response_format(fmt, problems, where)
    if body.get("stream"):
        problems.append(f"{where}stream=true is not supported by the fake server")


def _check_messages(messages: list, problems: list[str], where: str) -> None:
    if not messages:
        problems.append(f"{where}messages must not be empty")
    for i, msg in enumerate(messages):
        if not isinstance(msg, dict) or msg.get("role") not in ROLES:
            problems.append(f"{where}messages[{i}] has no valid role")
        elif "content" not in msg and msg.get("role") != "assistant":
            problems.append(f"{where}messages[{i}] has no content")


def _check_response_format(fmt: Any, problems: list[str], where: str) -> None:
    kind = fmt.get("type") if isinstance(fmt, dict) else None
    if kind not in ("text", "json_object", "json_schema"):
        problems.append(f"{where}response_format.type invalid: {kind!r}")
    elif kind == "json_schema":
        spec = fmt.get("json_schema") or {}
        if not isinstance(spec.get("name"), str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}",
                                                                    spec.get("name", "")):
            problems.append(f"{where}response_format.json_schema.name invalid")
        if not isinstance(spec.get("schema"), dict):
            problems.append(f"{where}response_format.json_schema.schema missing")


def chat_completion(fake: Any, body: dict, fault: Fault | None) -> dict:
    """A chat.completion object answering `body`."""
    texts = [_text_of(m.get("content")) for m in body["messages"]]
    fmt = body.get("response_format") or {}
    schema = None
    if fmt.get("type") == "json_schema":
        schema = fmt["json_schema"]["schema"]
    elif fmt.get("type") == "json_object":
        schema = find_embedded_schema(texts) or {"type": "object", "properties": {}}
    limit = body.get("max_completion_tokens") or body.get("max_tokens")
    text, cut = truncate(as_text(fake.produce("openai", body, schema)), limit,
                         fault is not None and fault.kind == "truncate")
    prompt = "\n".join(texts)
    cached = fake.cached_tokens("openai", "\n".join(texts[:-1]))
    return {
        "id": new_id("chatcmpl-fake", fake), "object": "chat.completion",
        "created": int(time.time()), "model": body["model"], "system_fingerprint": "fake",
        "choices": [{"index": 0, "logprobs": None, "finish_reason": "length" if cut else "stop",
                     "message": {"role": "assistant", "content": text, "refusal": None}}],
        "usage": {"prompt_tokens": tokens(prompt), "completion_tokens": tokens(text),
                  "total_tokens": tokens(prompt) + tokens(text),
                  "prompt_tokens_details": {"cached_tokens": cached, "audio_tokens": 0},
                  "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0}},
    }


def _responses(fake: Any, body: dict, fault: Fault | None) -> dict:
    inp = body.get("input")
    texts = [inp] if isinstance(inp, str) else [
        _text_of(m.get("content")) for m in inp or [] if isinstance(m, dict)]
    if body.get("instructions"):
        texts.insert(0, body["instructions"])
    fmt = (body.get("text") or {}).get("format") or {}
    schema = fmt.get("schema") if fmt.get("type") == "json_schema" else None
    text, cut = truncate(as_text(fake.produce("openai", body, schema)),
                         body.get("max_output_tokens"), fault is not None
                         and fault.kind == "truncate")
    cached = fake.cached_tokens("openai", "\n".join(texts[:-1]))
    return {
        "id": new_id("resp_fake", fake), "object": "response", "created_at": int(time.time()),
        "model": body.get("model"), "status": "incomplete" if cut else "completed",
        "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
        "output": [{"type": "message", "id": new_id("msg_fake", fake), "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}],
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
        "usage": {"input_tokens": tokens("\n".join(texts)), "output_tokens": tokens(text),
                  "total_tokens": tokens("\n".join(texts)) + tokens(text),
                  "input_tokens_details": {"cached_tokens": cached},
                  "output_tokens_details": {"reasoning_tokens": 0}},
    }


def _call(fake: Any, rec: Recorded, headers: dict, path: str) -> Reply:
    _check_auth(headers, rec.problems)
    if path == "/v1/responses":
        check_fields(rec.body, {"model": str}, rec.problems)
        if isinstance(rec.body, dict) and "input" not in rec.body:
            rec.problems.append("missing required field 'input'")
    else:
        validate_chat(rec.body, rec.problems)
    if rec.problems:
        return error_reply(400, "invalid_request", message="; ".join(rec.problems))
    fmt = rec.body.get("response_format") or {}
    if fmt.get("type") == "json_schema" and not fake.openai_json_schema:
        return error_reply(400, "invalid_request", message=(
            'response_format type must be one of "text" or "json_object", got json_schema'))
    fault = fake.faults.next_fault("openai", "call")
    failed = apply_fault(rec, fault, error_reply)
    if failed is not None:
        return failed
    if path == "/v1/responses":
        return Reply(200, _responses(fake, rec.body, fault))
    return Reply(200, chat_completion(fake, rec.body, fault))


# files and batches ---------------------------------------------------------------------------
def _file_obj(f: dict) -> dict:
    return {"id": f["id"], "object": "file", "bytes": len(f["data"]), "created_at": f["created"],
            "filename": f["filename"], "purpose": f["purpose"], "status": "processed"}


def _store_file(fake: Any, data: bytes, purpose: str, filename: str) -> dict:
    f = {"id": new_id("file-fake", fake), "data": data, "purpose": purpose,
         "filename": filename, "created": int(time.time())}
    fake.state["files"][f["id"]] = f
    return f


def _batch_obj(b: dict) -> dict:
    return {k: v for k, v in b.items() if not k.startswith("_")}


def _finish_batch(fake: Any, b: dict) -> None:
    out, err = [], []
    for line in b["_items"]:
        fault = fake.faults.next_fault("openai", "item")
        rid = new_id("batch_req_fake", fake)
        if fault is not None and fault.status:
            body = json.loads(error_reply(fault.status, fault.kind, fault).raw)
            err.append({"id": rid, "custom_id": line["custom_id"], "error": None,
                        "response": {"status_code": fault.status, "request_id": rid,
                                     "body": body}})
            continue
        body = chat_completion(fake, line["body"], fault)
        out.append({"id": rid, "custom_id": line["custom_id"], "error": None,
                    "response": {"status_code": 200, "request_id": rid, "body": body}})
    for rows, key in ((out, "output_file_id"), (err, "error_file_id")):
        if rows:
            data = "".join(json.dumps(r) + "\n" for r in rows).encode()
            b[key] = _store_file(fake, data, "batch_output", f"{b['id']}_{key}.jsonl")["id"]
    b.update(status="completed", completed_at=int(time.time()),
             request_counts={"total": len(b["_items"]), "completed": len(out),
                             "failed": len(err)})


def _create_batch(fake: Any, rec: Recorded) -> Reply:
    body = rec.body
    check_fields(body, {"input_file_id": str, "endpoint": str, "completion_window": str},
                 rec.problems)
    if rec.problems:
        return error_reply(400, "invalid_request", message="; ".join(rec.problems))
    f = fake.state["files"].get(body["input_file_id"])
    if f is None or f["purpose"] != "batch":
        rec.problems.append("input_file_id is not an uploaded batch file")
    if body["endpoint"] not in ENDPOINTS:
        rec.problems.append(f"unsupported endpoint {body['endpoint']!r}")
    if body["completion_window"] != "24h":
        rec.problems.append("completion_window must be '24h'")
    items = _batch_items((f or {"data": b""})["data"], body["endpoint"], rec.problems)
    rec.custom_ids = [i["custom_id"] for i in items]
    if rec.problems:
        return error_reply(400, "invalid_request", message="; ".join(rec.problems[:5]))
    now = int(time.time())
    b = {"id": new_id("batch_fake", fake), "object": "batch", "endpoint": body["endpoint"],
         "errors": None, "input_file_id": body["input_file_id"], "completion_window": "24h",
         "status": "validating", "output_file_id": None, "error_file_id": None,
         "created_at": now, "in_progress_at": None, "expires_at": now + 86400,
         "completed_at": None, "metadata": body.get("metadata"),
         "request_counts": {"total": len(items), "completed": 0, "failed": 0},
         "_items": items, "_polls": 0}
    fake.state["openai_batches"][b["id"]] = b
    return Reply(200, _batch_obj(b))


def _batch_items(data: bytes, endpoint: str, problems: list[str]) -> list[dict]:
    """The well-formed request lines of a batch input file; the rest become problems."""
    items: list[dict] = []
    seen: set[str] = set()
    for n, line in enumerate(data.decode().splitlines()):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            problems.append(f"line {n + 1} is not JSON")
            continue
        where = f"line {n + 1}: "
        if not check_fields(item, {"custom_id": str, "method": str, "url": str, "body": dict},
                            problems, where):
            continue
        if item["custom_id"] in seen:
            problems.append(f"{where}duplicate custom_id {item['custom_id']!r}")
        seen.add(item["custom_id"])
        if item["method"] != "POST" or item["url"] != endpoint:
            problems.append(f"{where}method/url must be POST {endpoint}")
        validate_chat(item["body"], problems, where)
        items.append(item)
    return items


def handle(fake: Any, rec: Recorded, headers: dict, raw: bytes, query: str) -> Reply:
    path, method = rec.path, rec.method
    if path in ENDPOINTS and method == "POST":
        return _call(fake, rec, headers, path)
    rec.endpoint = "file" if path.startswith("/v1/files") else "batch"
    _check_auth(headers, rec.problems)
    if rec.problems:
        return error_reply(401, "auth", message="missing bearer token")
    fault = fake.faults.next_fault("openai", "batch")
    failed = apply_fault(rec, fault, error_reply)
    if failed is not None:
        return failed
    parts = path.strip("/").split("/")  # v1, files|batches, id?, content|cancel?
    with fake.lock:
        if parts[1] == "files":
            return _files(fake, rec, headers.get("content-type", ""), raw, parts)
        return _batches(fake, rec, parts)


def _files(fake: Any, rec: Recorded, content_type: str, raw: bytes, parts: list[str]) -> Reply:
    """Upload (POST /v1/files), metadata and content of stored files."""
    if rec.method == "POST" and len(parts) == 2:
        fields = parse_multipart(content_type, raw)
        purpose = fields.get("purpose", b"").decode()
        if "file" not in fields or purpose != "batch":
            rec.problems.append("multipart upload needs 'file' and purpose=batch")
            return error_reply(400, "invalid_request", message=rec.problems[-1])
        return Reply(200, _file_obj(_store_file(fake, fields["file"], purpose, "batch.jsonl")))
    f = fake.state["files"].get(parts[2]) if len(parts) > 2 else None
    if f is None:
        return error_reply(404, "not_found", message="no such file")
    if len(parts) == 4 and parts[3] == "content":
        return Reply(200, raw=f["data"], content_type="application/octet-stream")
    return Reply(200, _file_obj(f))


def _batches(fake: Any, rec: Recorded, parts: list[str]) -> Reply:
    """Create, cancel and poll batches; a poll past `fake.batch_polls` finishes the batch."""
    if rec.method == "POST" and len(parts) == 2:
        return _create_batch(fake, rec)
    b = fake.state["openai_batches"].get(parts[2]) if len(parts) > 2 else None
    if b is None:
        return error_reply(404, "not_found", message="no such batch")
    if len(parts) == 4 and parts[3] == "cancel" and rec.method == "POST":
        if b["status"] not in ("completed", "failed", "expired"):
            b["status"] = "cancelled"
        return Reply(200, _batch_obj(b))
    if b["status"] in ("validating", "in_progress"):
        b["_polls"] += 1
        b["status"] = "in_progress"
        b["in_progress_at"] = b["in_progress_at"] or int(time.time())
        if b["_polls"] > fake.batch_polls:
            _finish_batch(fake, b)
    return Reply(200, _batch_obj(b))
