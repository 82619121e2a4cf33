"""Anthropic adapter: Messages API through the official SDK, prompt caching, message batches."""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from typing import Any

import anthropic
from anthropic.types import Message as AnthropicMessage
from pydantic import BaseModel

from .base import (
    DEFAULT_TIMEOUT_S,
    BatchItem,
    BatchResult,
    BatchStatus,
    LLMRequest,
    LLMResponse,
    Usage,
    env_key,
    http_client,
    validate_output,
)
from .cache import schema_json
from .errors import ProviderError, classify

CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "stop", "pause_turn": "stop",
           "max_tokens": "length", "model_context_window_exceeded": "length",
           "refusal": "refused"}
_EPHEMERAL = {"type": "ephemeral"}


@functools.cache
def _output_schema(schema: type[BaseModel]) -> dict[str, Any]:
    return anthropic.transform_schema(schema)


def output_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """`anthropic.transform_schema(schema)`, computed once per model class (it walks the
    whole JSON Schema on every call); a fresh copy each time, as the body may be changed."""
    return copy.deepcopy(_output_schema(schema))


def _tool_name(schema: type[BaseModel]) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "_", schema.__name__)[:64] or "answer"


class AnthropicProvider:
    """Structured output via `output_config.format` (the wire form of `messages.parse`, built
    with the SDK's own `transform_schema`) or, with `structured="tool"`, forced tool use. The
    output is validated against the original pydantic model (ranges included) by the adapter,
    so usage is kept even when it does not validate. A `Message(cache=True)` gets
    `cache_control: ephemeral` on its block. `LLMRequest.temperature` is not sent: the
    Messages API (anthropic SDK 2.x) no longer takes sampling parameters."""

    name = "anthropic"

    def __init__(self, *, api_key: str | None = None, base_url: str | None = None,
                 timeout_s: float = DEFAULT_TIMEOUT_S, structured: str = "output_format",
                 client: anthropic.Anthropic | None = None) -> None:
        key = env_key(self.name, "ANTHROPIC_API_KEY", given=api_key)
        self.client = client or anthropic.Anthropic(
            api_key=key, base_url=base_url or os.environ.get("ANTHROPIC_BASE_URL") or None,
            max_retries=0, timeout=timeout_s, http_client=http_client(timeout_s),
        )
        if structured not in ("output_format", "tool"):
            raise ValueError("structured must be 'output_format' or 'tool'")
        self.structured = structured

    # request building ---------------------------------------------------------------------------
    def params(self, request: LLMRequest, schema: type[BaseModel] | None) -> dict[str, Any]:
        """The Messages API body for `request` (also used for batch items)."""
        system: list[dict] = []
        messages: list[dict] = []
        for m in request.messages:
            block: dict[str, Any] = {"type": "text", "text": m.content}
            if m.cache:
                block["cache_control"] = dict(_EPHEMERAL)
            if m.role == "system":
                system.append(block)
            elif messages and messages[-1]["role"] == m.role:
                messages[-1]["content"].append(block)
            else:
                messages.append({"role": m.role, "content": [block]})
        body: dict[str, Any] = {"model": request.model, "max_tokens": request.max_tokens,
                                "messages": messages}
        if system:
            body["system"] = system
        # no `temperature`: the Messages API of this SDK generation has no sampling knobs
        if schema is not None and self.structured == "tool":
            name = _tool_name(schema)
            body["tools"] = [{"name": name, "description": f"Record the {name} answer.",
                              "input_schema": schema_json(schema)}]
            body["tool_choice"] = {"type": "tool", "name": name}
        elif schema is not None:
            body["output_config"] = {"format": {"type": "json_schema",
                                                "schema": output_schema(schema)}}
        return body

    def _to_response(self, msg: AnthropicMessage, schema: type[BaseModel] | None,
                     model: str) -> LLMResponse:
        tool = next((b for b in msg.content if b.type == "tool_use"), None)
        if tool is not None:
            text = json.dumps(tool.input)
        else:
            text = "".join(getattr(b, "text", "") for b in msg.content if b.type == "text")
        finish = _FINISH.get(msg.stop_reason or "", "stop")
        u = msg.usage
        read = u.cache_read_input_tokens or 0
        written = u.cache_creation_input_tokens or 0
        return LLMResponse(
            text=text, parsed=validate_output(text, schema) if finish == "stop" else None,
            finish=finish,  # type: ignore[arg-type]
            usage=Usage(input_tokens=u.input_tokens + read + written,
                        output_tokens=u.output_tokens, cached_tokens=read),
            model=msg.model or model, response_id=msg.id,
        )

    def warm(self) -> None:
        """Do before the rounds what the first calls would do lazily in worker threads, under
        the GIL (not part of the Provider protocol): the SDK's resource objects, the output
        schemas."""
        from .schemas import OUTPUT_SCHEMAS

        _ = self.client.messages
        for schema in OUTPUT_SCHEMAS:
            output_schema(schema)

    def close(self) -> None:
        """Release the HTTP connections (not part of the Provider protocol)."""
        self.client.close()

    # Provider ------------------------------------------------------------------------------------
    def complete(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        try:
            try:
                msg = self.client.messages.create(**self.params(request, schema))
            except anthropic.BadRequestError as exc:
                text = str(exc).lower()
                if schema is None or self.structured == "tool" or not any(
                        h in text for h in ("output_config", "output_format")):
                    raise
                self.structured = "tool"  # server without structured outputs: forced tool use
                msg = self.client.messages.create(**self.params(request, schema))
            if not isinstance(msg, AnthropicMessage):
                raise ProviderError("anthropic: malformed response body", provider=self.name,
                                    retryable=True, kind="malformed")
            return self._to_response(msg, schema, request.model)
        except ProviderError:
            raise
        except Exception as exc:
            raise classify(exc, self.name) from None

    def submit_batch(self, items: list[BatchItem], schema: type[BaseModel] | None) -> str:
        bad = [i.custom_id for i in items if not CUSTOM_ID.match(i.custom_id)]
        if bad:
            raise ValueError(f"anthropic batch custom ids must match {CUSTOM_ID.pattern}: {bad}")
        if len({i.custom_id for i in items}) != len(items):
            raise ValueError("anthropic batch: custom ids must be unique")
        requests = [{"custom_id": i.custom_id, "params": self.params(i.request, schema)}
                    for i in items]
        try:
            return self.client.messages.batches.create(requests=requests).id  # type: ignore[arg-type]
        except Exception as exc:
            raise classify(exc, self.name) from None

    def poll_batch(self, batch_id: str, schema: type[BaseModel] | None) -> BatchStatus:
        try:
            batch = self.client.messages.batches.retrieve(batch_id)
            if batch.processing_status != "ended":
                return BatchStatus(batch_id=batch_id, state="running")
            results = []
            for row in self.client.messages.batches.results(batch_id):
                result = row.result
                if result.type == "succeeded":
                    results.append(BatchResult(custom_id=row.custom_id, response=(
                        self._to_response(result.message, schema, result.message.model))))
                elif result.type == "errored":
                    err = result.error.error
                    results.append(BatchResult(custom_id=row.custom_id,
                                               error=f"{err.type}: {err.message}"))
                else:
                    results.append(BatchResult(custom_id=row.custom_id, error=result.type))
        except Exception as exc:
            raise classify(exc, self.name) from None
        state = "cancelled" if batch.cancel_initiated_at is not None else "done"
        return BatchStatus(batch_id=batch_id, state=state, results=results)
