"""OpenAI adapter (also any OpenAI-compatible server by base URL: vLLM, Ollama, llama.cpp)."""

from __future__ import annotations

import functools
import json
import os
from typing import Any

import openai
from openai.types.chat import ChatCompletion
from pydantic import BaseModel, ValidationError

from .base import (
    DEFAULT_TIMEOUT_S,
    BatchItem,
    BatchResult,
    BatchStatus,
    LLMRequest,
    LLMResponse,
    Usage,
    check_one_model,
    env_key,
    http_client,
    validate_output,
)
from .errors import ProviderError, classify

ENDPOINT = "/v1/chat/completions"
_STATES = {"validating": "running", "in_progress": "running", "finalizing": "running",
           "cancelling": "running", "completed": "done", "failed": "failed",
           "cancelled": "cancelled", "expired": "expired"}
_FINISH = {"stop": "stop", "length": "length", "content_filter": "refused",
           "tool_calls": "stop", "function_call": "stop"}
_REFUSAL_HINTS = ("response_format", "json_schema", "structured output", "strict")


@functools.cache
def response_format(schema: type[BaseModel]) -> dict[str, Any]:
    """The strict json_schema `response_format` of `schema` (as the SDK's `.parse` makes it)."""
    from openai.lib._parsing._completions import type_to_response_format_param

    return dict(type_to_response_format_param(schema))  # type: ignore[arg-type]


def _json_mode_prompt(schema: type[BaseModel]) -> str:
    return ("Reply with one JSON object only, no prose, that validates against this JSON "
            f"schema:\n{json.dumps(schema.model_json_schema())}")


class OpenAIProvider:
    """Chat Completions through the official SDK. Structured output: `chat.completions.parse`
    (strict json_schema); when a server refuses json_schema (llama.cpp style) the adapter
    switches, for good, to JSON mode plus pydantic validation."""

    name = "openai"

    def __init__(self, *, api_key: str | None = None, base_url: str | None = None,
                 timeout_s: float = DEFAULT_TIMEOUT_S, json_mode: bool = False,
                 client: openai.OpenAI | None = None) -> None:
        key = env_key(self.name, "OPENAI_API_KEY", given=api_key)
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        self.client = client or openai.OpenAI(
            api_key=key, base_url=self.base_url, max_retries=0, timeout=timeout_s,
            http_client=http_client(timeout_s),
        )
        self.json_mode = json_mode  # sticky once a server refused json_schema
        host = str(self.client.base_url.host or "")
        # api.openai.com wants max_completion_tokens; compatible servers know max_tokens
        self._official = host.endswith("openai.com") or host.endswith("openai.azure.com")

    # request building ---------------------------------------------------------------------------
    def _body(self, request: LLMRequest, schema: type[BaseModel] | None,
              json_mode: bool) -> dict[str, Any]:
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        if schema is not None and json_mode:
            messages.insert(0, {"role": "system", "content": _json_mode_prompt(schema)})
        body: dict[str, Any] = {"model": request.model, "messages": messages}
        body["max_completion_tokens" if self._official else "max_tokens"] = request.max_tokens
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if schema is not None and json_mode:
            body["response_format"] = {"type": "json_object"}
        return body

    def _to_response(self, completion: ChatCompletion, schema: type[BaseModel] | None,
                     model: str) -> LLMResponse:
        choice = completion.choices[0] if completion.choices else None
        text = (choice.message.content or "") if choice else ""
        finish = _FINISH.get(choice.finish_reason, "stop") if choice else "error"
        if choice is not None and getattr(choice.message, "refusal", None):
            finish, text = "refused", text or choice.message.refusal
        parsed = validate_output(text, schema) if finish == "stop" else None
        usage = completion.usage
        details = getattr(usage, "prompt_tokens_details", None) if usage else None
        return LLMResponse(
            text=text, parsed=parsed, finish=finish,
            usage=Usage(input_tokens=usage.prompt_tokens if usage else 0,
                        output_tokens=usage.completion_tokens if usage else 0,
                        cached_tokens=(getattr(details, "cached_tokens", 0) or 0)),
            model=completion.model or model, response_id=completion.id,
        )

    def warm(self) -> None:
        """Do before the rounds what the first calls would do lazily in worker threads, under
        the GIL (not part of the Provider protocol): the SDK's resource objects, the strict
        response formats."""
        from .schemas import OUTPUT_SCHEMAS

        _ = self.client.chat.completions
        for schema in OUTPUT_SCHEMAS:
            response_format(schema)

    def close(self) -> None:
        """Release the HTTP connections (not part of the Provider protocol)."""
        self.client.close()

    # Provider ------------------------------------------------------------------------------------
    def complete(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        try:
            return self._complete(request, schema)
        except ProviderError:
            raise
        except Exception as exc:  # SDK, transport, malformed body: one error type out
            raise classify(exc, self.name) from None

    def _complete(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        if schema is not None and not self.json_mode:
            try:
                return self._parse(request, schema)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if not any(h in str(exc).lower() for h in _REFUSAL_HINTS):
                    raise
                self.json_mode = True  # the server refused json_schema: JSON mode from now on
        completion = self._create(self._body(request, schema, json_mode=schema is not None))
        if not isinstance(completion, ChatCompletion):  # a body that is not a completion
            raise ProviderError("openai: malformed response body", provider=self.name,
                                retryable=True, kind="malformed")
        return self._to_response(completion, schema, request.model)

    def _parse(self, request: LLMRequest, schema: type[BaseModel]) -> LLMResponse:
        """Strict json_schema output, the body `chat.completions.parse` would send; the format
        goes as `extra_body`, built once per schema: the SDK's own transform of it took most
        of a call's CPU. The answer is validated here (`validate_output`), as for JSON mode."""
        completion = self._create(self._body(request, None, json_mode=False),
                                  {"response_format": response_format(schema)})
        if not isinstance(completion, ChatCompletion):
            raise ProviderError("openai: malformed response body", provider=self.name,
                                retryable=True, kind="malformed")
        return self._to_response(completion, schema, request.model)

    def _create(self, body: dict[str, Any], extra: dict[str, Any] | None = None) -> Any:
        """`chat.completions.create(**body)` with the messages (plain role/content strings)
        sent through `extra_body`: the SDK's type-driven transform returns such messages
        unchanged but took a quarter of a call's CPU. The SDK merges `extra_body` into its
        body in place, so the wire body (keys, order, values) is the one it would send."""
        params = dict(body)
        messages = params.pop("messages")
        return self.client.chat.completions.create(
            **params, messages=[], extra_body={"messages": messages, **(extra or {})})

    def submit_batch(self, items: list[BatchItem], schema: type[BaseModel] | None) -> str:
        from openai.lib._parsing._completions import type_to_response_format_param

        check_one_model(items, self.name)
        lines = []
        for item in items:
            body = self._body(item.request, schema, json_mode=self.json_mode)
            if schema is not None and not self.json_mode:
                body["response_format"] = type_to_response_format_param(schema)
            lines.append(json.dumps({"custom_id": item.custom_id, "method": "POST",
                                     "url": ENDPOINT, "body": body}))
        data = ("\n".join(lines) + "\n").encode()
        try:
            upload = self.client.files.create(file=("batch.jsonl", data, "application/jsonl"),
                                              purpose="batch")
            batch = self.client.batches.create(input_file_id=upload.id, endpoint=ENDPOINT,
                                               completion_window="24h")
        except Exception as exc:
            raise classify(exc, self.name) from None
        return batch.id

    def poll_batch(self, batch_id: str, schema: type[BaseModel] | None) -> BatchStatus:
        try:
            batch = self.client.batches.retrieve(batch_id)
            state = _STATES.get(batch.status, "running")
            results: list[BatchResult] = []
            if state != "running":
                for file_id in (batch.output_file_id, batch.error_file_id):
                    if file_id:
                        text = self.client.files.content(file_id).text
                        results += self._read_results(text, schema)
        except Exception as exc:
            raise classify(exc, self.name) from None
        return BatchStatus(batch_id=batch_id, state=state, results=results)  # type: ignore[arg-type]

    def _read_results(self, text: str, schema: type[BaseModel] | None) -> list[BatchResult]:
        out = []
        for line in text.splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            cid = row.get("custom_id", "")
            response = row.get("response") or {}
            body = response.get("body") or {}
            if row.get("error") or response.get("status_code") != 200:
                err = row.get("error") or body.get("error") or {}
                msg = err.get("message") if isinstance(err, dict) else str(err)
                out.append(BatchResult(custom_id=cid, error=(
                    f"HTTP {response.get('status_code')}: {msg}")))
                continue
            try:
                completion = ChatCompletion.model_validate(body)
            except ValidationError as exc:
                out.append(BatchResult(custom_id=cid, error=f"malformed result: {exc}"[:500]))
                continue
            out.append(BatchResult(custom_id=cid, response=self._to_response(
                completion, schema, body.get("model", ""))))
        return out
