"""Gemini adapter: google-genai `models.generate_content` and inline batch jobs."""

from __future__ import annotations

import itertools
import json
import os
from typing import Any

from google import genai
from google.genai import types
from pydantic import BaseModel

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
from .cache import schema_json
from .errors import ProviderError, classify

_STATES = {"JOB_STATE_SUCCEEDED": "done", "JOB_STATE_PARTIALLY_SUCCEEDED": "done",
           "JOB_STATE_FAILED": "failed", "JOB_STATE_CANCELLED": "cancelled",
           "JOB_STATE_EXPIRED": "expired"}
_REFUSED = {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "LANGUAGE",
            "IMAGE_SAFETY"}
_batch_seq = itertools.count(1)


class GeminiProvider:
    """Structured output: `GenerateContentConfig(response_mime_type="application/json",
    response_schema=Model)`; when the SDK refuses the model's schema (multipleOf, dict fields,
    discriminated unions) the adapter sends it as `response_json_schema` instead. API version:
    the SDK default (`v1`) unless `GOOGLE_GENAI_API_VERSION` or `api_version` says otherwise."""

    name = "gemini"

    def __init__(self, *, api_key: str | None = None, base_url: str | None = None,
                 api_version: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S,
                 client: genai.Client | None = None) -> None:
        # the SDK's own precedence: GOOGLE_API_KEY wins when both are set
        key = env_key(self.name, "GOOGLE_API_KEY", "GEMINI_API_KEY", given=api_key)
        options = types.HttpOptions(
            base_url=base_url or os.environ.get("GOOGLE_GEMINI_BASE_URL") or None,
            api_version=api_version or os.environ.get("GOOGLE_GENAI_API_VERSION") or None,
            timeout=int(timeout_s * 1000),  # milliseconds; None would mean no timeout at all
            httpx_client=http_client(timeout_s),
        )
        # keep the reference: a collected genai.Client closes its transport
        self.client = client or genai.Client(api_key=key, http_options=options)
        self._json_schema_models: set[str] = set()  # schemas the SDK refused as response_schema

    # request building ---------------------------------------------------------------------------
    def _contents(self, request: LLMRequest) -> tuple[list[dict], str | None]:
        system = "\n\n".join(m.content for m in request.messages if m.role == "system") or None
        contents: list[dict] = []
        for m in request.messages:
            if m.role == "system":
                continue
            role = "model" if m.role == "assistant" else "user"
            if contents and contents[-1]["role"] == role:
                contents[-1]["parts"].append({"text": m.content})
            else:
                contents.append({"role": role, "parts": [{"text": m.content}]})
        return contents, system

    def _config(self, request: LLMRequest, schema: type[BaseModel] | None, system: str | None,
                as_json_schema: bool) -> dict[str, Any]:
        config: dict[str, Any] = {"max_output_tokens": request.max_tokens}
        if system:
            config["system_instruction"] = system
        if request.temperature is not None:
            config["temperature"] = request.temperature
        if schema is not None:
            config["response_mime_type"] = "application/json"
            if as_json_schema:
                config["response_json_schema"] = schema_json(schema)
            else:
                config["response_schema"] = schema
        return config

    def _to_response(self, resp: types.GenerateContentResponse, schema: type[BaseModel] | None,
                     model: str) -> LLMResponse:
        cand = resp.candidates[0] if resp.candidates else None
        parts = (cand.content.parts if cand and cand.content and cand.content.parts else [])
        text = "".join(p.text for p in parts if p.text and not p.thought)
        reason = cand.finish_reason.value if cand and cand.finish_reason else None
        if cand is None:
            blocked = resp.prompt_feedback and resp.prompt_feedback.block_reason
            finish = "refused" if blocked else "error"
        elif reason == "MAX_TOKENS":
            finish = "length"
        elif reason in _REFUSED:
            finish = "refused"
        elif reason in (None, "STOP", "FINISH_REASON_UNSPECIFIED"):
            finish = "stop"
        else:
            finish = "error"
        u = resp.usage_metadata
        usage = Usage()
        if u is not None:
            usage = Usage(input_tokens=u.prompt_token_count or 0,
                          output_tokens=(u.candidates_token_count or 0)
                          + (u.thoughts_token_count or 0),
                          cached_tokens=u.cached_content_token_count or 0)
        return LLMResponse(
            text=text, parsed=validate_output(text, schema) if finish == "stop" else None,
            finish=finish, usage=usage,  # type: ignore[arg-type]
            model=resp.model_version or model, response_id=resp.response_id,
        )

    def warm(self) -> None:
        """Do before the rounds what the first calls would do lazily in worker threads, under
        the GIL (not part of the Provider protocol): the SDK's resource objects, the output
        schemas."""
        from .schemas import OUTPUT_SCHEMAS

        _ = self.client.models
        for schema in OUTPUT_SCHEMAS:
            schema.model_json_schema()

    def close(self) -> None:
        """Release the HTTP connections (not part of the Provider protocol)."""
        self.client.close()

    # Provider ------------------------------------------------------------------------------------
    def complete(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        contents, system = self._contents(request)
        as_json = schema is not None and schema.__qualname__ in self._json_schema_models
        try:
            try:
                resp = self.client.models.generate_content(
                    model=request.model, contents=contents,
                    config=self._config(request, schema, system, as_json))
            except (ValueError, TypeError) as exc:
                if schema is None or as_json or isinstance(exc, json.JSONDecodeError):
                    raise
                # the SDK refused this schema as response_schema: send it as JSON Schema
                self._json_schema_models.add(schema.__qualname__)
                resp = self.client.models.generate_content(
                    model=request.model, contents=contents,
                    config=self._config(request, schema, system, True))
            if not isinstance(resp, types.GenerateContentResponse):
                raise ProviderError("gemini: malformed response body", provider=self.name,
                                    retryable=True, kind="malformed")
            return self._to_response(resp, schema, request.model)
        except ProviderError:
            raise
        except Exception as exc:
            raise classify(exc, self.name) from None

    def submit_batch(self, items: list[BatchItem], schema: type[BaseModel] | None) -> str:
        model = check_one_model(items, self.name)
        src = []
        for item in items:
            contents, system = self._contents(item.request)
            # inline batch requests carry the schema as plain JSON Schema
            src.append({"contents": contents, "metadata": {"custom_id": item.custom_id},
                        "config": self._config(item.request, schema, system, True)})
        try:
            job = self.client.batches.create(
                model=model, src=src,  # type: ignore[arg-type]
                config={"display_name": f"repogenesis-{os.getpid()}-{next(_batch_seq)}"})
        except Exception as exc:
            raise classify(exc, self.name) from None
        if not job.name:
            raise ProviderError("gemini: batch job without a name", provider=self.name,
                                retryable=False, kind="malformed")
        return job.name

    def poll_batch(self, batch_id: str, schema: type[BaseModel] | None) -> BatchStatus:
        try:
            job = self.client.batches.get(name=batch_id)
        except Exception as exc:
            raise classify(exc, self.name) from None
        state = _STATES.get(job.state.value if job.state else "", "running")
        results: list[BatchResult] = []
        model = (job.model or "").split("/")[-1]
        responses = (job.dest.inlined_responses if job.dest else None) or []
        for n, entry in enumerate(responses):
            cid = str((entry.metadata or {}).get("custom_id", n))
            if entry.error is not None:
                results.append(BatchResult(custom_id=cid, error=(
                    f"{entry.error.code}: {entry.error.message}")))
            elif entry.response is not None:
                results.append(BatchResult(custom_id=cid, response=self._to_response(
                    entry.response, schema, model)))
            else:
                results.append(BatchResult(custom_id=cid, error="empty batch result"))
        return BatchStatus(batch_id=batch_id, state=state, results=results)  # type: ignore[arg-type]
