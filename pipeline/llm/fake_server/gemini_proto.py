"""Gemini (Generative Language API) wire protocol: generateContent and inline batches."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from .common import Recorded, Reply, apply_fault, as_text, check_fields, new_id, tokens, truncate
from .faults import Fault

MODEL_PATH = re.compile(r"^/(v1|v1beta|v1alpha)/models/([^:/]+):(\w+)$")
BATCH_PATH = re.compile(r"^/(v1|v1beta|v1alpha)/batches/([^:/]+)(?::(\w+))?$")
_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
           404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE",
           529: "UNAVAILABLE"}
GEN_CONFIG_KEYS = {
    "stopSequences", "responseMimeType", "responseSchema", "responseJsonSchema",
    "_responseJsonSchema", "responseModalities", "candidateCount", "maxOutputTokens",
    "temperature", "topP", "topK", "seed", "presencePenalty", "frequencyPenalty",
    "responseLogprobs", "logprobs", "enableEnhancedCivicAnswers", "speechConfig",
    "thinkingConfig", "mediaResolution", "imageConfig", "propertyOrdering",
}
MIME_TYPES = {"text/plain", "application/json", "text/x.enum"}


def error_reply(status: int, kind: str, fault: Fault | None = None, message: str = "") -> Reply:
    text = message or (fault.message if fault and fault.message else f"fake {kind} error")
    error: dict[str, Any] = {"code": status, "message": text,
                             "status": _STATUS.get(status, "INTERNAL")}
    if fault is not None and fault.retry_after is not None:
        error["details"] = [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
                             "retryDelay": f"{fault.retry_after:g}s"}]
    return Reply(status, {"error": error})


def _check_auth(headers: dict, problems: list[str]) -> None:
    if not headers.get("x-goog-api-key"):
        problems.append("missing x-goog-api-key header (or key= query parameter)")


def _parts_text(content: Any, where: str, problems: list[str]) -> str:
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list) \
            or not content["parts"]:
        problems.append(f"{where} needs a non-empty parts list")
        return ""
    out = []
    for i, part in enumerate(content["parts"]):
        if not isinstance(part, dict) or not part:
            problems.append(f"{where}.parts[{i}] is empty")
        elif "text" in part:
            out.append(str(part["text"]))
    return "\n".join(out)


def validate_generate(body: Any, problems: list[str], where: str = "") -> list[str]:
    """Problems of a GenerateContentRequest; returns its texts in prompt order."""
    if not check_fields(body, {"contents": list}, problems, where):
        return []
    texts: list[str] = []
    if body.get("systemInstruction") is not None:
        texts.append(_parts_text(body["systemInstruction"], f"{where}systemInstruction",
                                 problems))
    if not body["contents"]:
        problems.append(f"{where}contents must not be empty")
    for i, content in enumerate(body["contents"]):
        if isinstance(content, dict) and content.get("role") not in (None, "user", "model"):
            problems.append(f"{where}contents[{i}].role must be user or model")
        texts.append(_parts_text(content, f"{where}contents[{i}]", problems))
    config = body.get("generationConfig") or {}
    if not isinstance(config, dict):
        problems.append(f"{where}generationConfig must be an object")
        return texts
    _check_config(config, problems, where)
    return texts


def _check_config(config: dict, problems: list[str], where: str) -> None:
    """generationConfig: known keys, a schema only with JSON output, sane limits."""
    unknown = set(config) - GEN_CONFIG_KEYS
    if unknown:
        problems.append(f"{where}unknown generationConfig fields {sorted(unknown)}")
    mime = config.get("responseMimeType")
    if mime is not None and mime not in MIME_TYPES:
        problems.append(f"{where}responseMimeType {mime!r} not supported")
    has_schema = "responseSchema" in config or "responseJsonSchema" in config
    if has_schema and mime != "application/json":
        problems.append(f"{where}a response schema needs responseMimeType application/json")
    if "responseSchema" in config and "responseJsonSchema" in config:
        problems.append(f"{where}responseSchema and responseJsonSchema are exclusive")
    mot = config.get("maxOutputTokens")
    if mot is not None and (not isinstance(mot, int) or mot < 1):
        problems.append(f"{where}maxOutputTokens must be a positive integer")
    temp = config.get("temperature")
    if temp is not None and not (isinstance(temp, int | float) and 0 <= temp <= 2):
        problems.append(f"{where}temperature must be within [0, 2]")


def generate(fake: Any, body: dict, model: str, texts: list[str], fault: Fault | None) -> dict:
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if schema is None and config.get("responseMimeType") == "application/json":
        schema = {"type": "object", "properties": {}}
    request = {**body, "model": model}
    text, cut = truncate(as_text(fake.produce("gemini", request, schema)),
                         config.get("maxOutputTokens"),
                         fault is not None and fault.kind == "truncate")
    cached = fake.cached_tokens("gemini", "\n".join(texts[:-1]))
    prompt = tokens("\n".join(texts))
    usage = {"promptTokenCount": prompt, "candidatesTokenCount": tokens(text),
             "totalTokenCount": prompt + tokens(text)}
    if cached:
        usage["cachedContentTokenCount"] = cached
    return {
        "candidates": [{"content": {"parts": [{"text": text}], "role": "model"},
                        "finishReason": "MAX_TOKENS" if cut else "STOP", "index": 0}],
        "usageMetadata": usage, "modelVersion": model,
        "responseId": new_id("gresp-fake", fake),
    }


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _operation(b: dict) -> dict:
    meta = {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main."
                     "GenerateContentBatch",
            "name": b["name"], "displayName": b["displayName"], "model": b["model"],
            "state": b["state"], "createTime": b["createTime"], "updateTime": _now()}
    op: dict[str, Any] = {"name": b["name"], "metadata": meta}
    if b.get("output") is not None:
        meta["output"] = b["output"]
        meta["endTime"] = b["endTime"]
        op["done"] = True
        op["response"] = {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main."
                                   "GenerateContentBatchOutput", **b["output"]}
    return op


def _finish(fake: Any, b: dict) -> None:
    out = []
    for item in b["requests"]:
        fault = fake.faults.next_fault("gemini", "item")
        entry: dict[str, Any] = {}
        if item.get("metadata") is not None:
            entry["metadata"] = item["metadata"]
        if fault is not None and fault.status:
            entry["error"] = json.loads(error_reply(fault.status, fault.kind, fault).raw)["error"]
        else:
            texts = validate_generate(item["request"], [])
            entry["response"] = generate(fake, item["request"], b["model"].split("/")[-1],
                                         texts, fault)
        out.append(entry)
    b.update(state="BATCH_STATE_SUCCEEDED", endTime=_now(),
             output={"inlinedResponses": {"inlinedResponses": out}})


def _create_batch(fake: Any, rec: Recorded, model: str) -> Reply:
    batch = rec.body.get("batch") if isinstance(rec.body, dict) else None
    requests = (((batch or {}).get("inputConfig") or {}).get("requests") or {}).get("requests")
    if not isinstance(requests, list) or not requests:
        rec.problems.append("batch.inputConfig.requests.requests must be a non-empty list")
        return error_reply(400, "invalid_request", message=rec.problems[-1])
    for i, item in enumerate(requests):
        where = f"requests[{i}]."
        if not check_fields(item, {"request": dict}, rec.problems, where):
            continue
        validate_generate(item["request"], rec.problems, f"{where}request.")
        cid = (item.get("metadata") or {}).get("custom_id") if isinstance(
            item.get("metadata"), dict) else None
        if cid is not None:
            rec.custom_ids.append(str(cid))
    if len(set(rec.custom_ids)) != len(rec.custom_ids):
        rec.problems.append("duplicate custom_id in batch metadata")
    if rec.problems:
        return error_reply(400, "invalid_request", message="; ".join(rec.problems[:5]))
    b = {"name": new_id("batches/fake", fake), "displayName": batch.get("displayName", ""),
         "model": f"models/{model}", "state": "BATCH_STATE_PENDING", "createTime": _now(),
         "requests": requests, "polls": 0, "output": None}
    fake.state["gemini_batches"][b["name"]] = b
    return Reply(200, _operation(b))


def handle(fake: Any, rec: Recorded, headers: dict, raw: bytes, query: str) -> Reply:
    _check_auth(headers, rec.problems)
    model_match = MODEL_PATH.match(rec.path)
    batch_match = BATCH_PATH.match(rec.path)
    if model_match and model_match.group(3) == "generateContent" and rec.method == "POST":
        texts = validate_generate(rec.body, rec.problems)
        if rec.problems:
            return error_reply(400, "invalid_request", message="; ".join(rec.problems))
        fault = fake.faults.next_fault("gemini", "call")
        failed = apply_fault(rec, fault, error_reply)
        return failed or Reply(200, generate(fake, rec.body, model_match.group(2), texts,
                                             fault))
    rec.endpoint = "batch"
    if rec.problems:
        return error_reply(401, "auth", message="; ".join(rec.problems))
    if not (model_match and model_match.group(3) == "batchGenerateContent") and not batch_match:
        return error_reply(404, "not_found", message=f"no route {rec.method} {rec.path}")
    fault = fake.faults.next_fault("gemini", "batch")
    failed = apply_fault(rec, fault, error_reply)
    if failed is not None:
        return failed
    with fake.lock:
        if model_match:
            return _create_batch(fake, rec, model_match.group(2))
        b = fake.state["gemini_batches"].get(f"batches/{batch_match.group(2)}")
        if b is None:
            return error_reply(404, "not_found", message="no such batch")
        return _batch_request(fake, rec, b, batch_match.group(3))


def _batch_request(fake: Any, rec: Recorded, b: dict, action: str | None) -> Reply:
    """Cancel, delete or a poll of an existing batch (a poll may finish it)."""
    if action == "cancel" and rec.method == "POST":
        if b["output"] is None:
            b.update(state="BATCH_STATE_CANCELLED", output={}, endTime=_now())
        return Reply(200, {})
    if rec.method == "DELETE":
        fake.state["gemini_batches"].pop(b["name"], None)
        return Reply(200, {})
    if b["output"] is None:
        b["polls"] += 1
        b["state"] = "BATCH_STATE_RUNNING"
        if b["polls"] > fake.batch_polls:
            _finish(fake, b)
    return Reply(200, _operation(b))
