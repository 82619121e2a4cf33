"""Warm a provider before the rounds: one rehearsal call per output schema through a twin
of the adapter whose SDK client answers from memory (httpx2.MockTransport), never the network.

Why: the SDKs build request transforms, response models and type caches lazily on their
first calls (tens of milliseconds of CPU each); in a round those first calls run in dozens of
worker threads at once, all waiting on the GIL, which delays the whole first wave. The twin
shares nothing with the real adapter but the process's caches: no ledger, no cache rows, no
state such as a sticky JSON mode. A rehearsal that fails only leaves the work to the first
real call, so its errors are ignored.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2

from .base import LLMRequest, Message, Provider

_BASE = "http://127.0.0.1:9"  # never contacted: the transport answers
_TEXT = json.dumps({"rationale": "warm-up", "correctness": 3, "coverage": 3,
                    "readability": 2, "relevance": 2})
_REPLIES: dict[str, dict[str, Any]] = {
    "openai": {"id": "warm", "object": "chat.completion", "created": 0, "model": "warm",
               "choices": [{"index": 0, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": _TEXT}}],
               "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2,
                         "prompt_tokens_details": {"cached_tokens": 0}}},
    "anthropic": {"id": "warm", "type": "message", "role": "assistant", "model": "warm",
                  "content": [{"type": "text", "text": _TEXT}], "stop_reason": "end_turn",
                  "stop_sequence": None,
                  "usage": {"input_tokens": 1, "output_tokens": 1,
                            "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}},
    "gemini": {"candidates": [{"content": {"role": "model", "parts": [{"text": _TEXT}]},
                               "finishReason": "STOP", "index": 0}],
               "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
                                 "cachedContentTokenCount": 0},
               "modelVersion": "warm", "responseId": "warm"},
}


def _http(name: str) -> httpx2.Client:
    reply = _REPLIES[name]
    return httpx2.Client(transport=httpx2.MockTransport(
        lambda request: httpx2.Response(200, json=reply)))


def twin(provider: Provider) -> Provider | None:
    """An adapter of the same class and settings whose SDK answers from memory."""
    name = provider.name
    if name == "openai":
        import openai

        from .openai_provider import OpenAIProvider

        client = openai.OpenAI(api_key="warm-up", base_url=f"{_BASE}/v1", max_retries=0,
                               http_client=_http(name))
        return OpenAIProvider(api_key="warm-up", client=client,
                              json_mode=getattr(provider, "json_mode", False))
    if name == "anthropic":
        import anthropic

        from .anthropic_provider import AnthropicProvider

        client = anthropic.Anthropic(api_key="warm-up", base_url=_BASE, max_retries=0,
                                     http_client=_http(name))
        return AnthropicProvider(api_key="warm-up", client=client,
                                 structured=getattr(provider, "structured", "output_format"))
    if name == "gemini":
        from google import genai
        from google.genai import types

        from .gemini_provider import GeminiProvider

        client = genai.Client(api_key="warm-up", http_options=types.HttpOptions(
            base_url=_BASE, httpx_client=_http(name)))
        return GeminiProvider(api_key="warm-up", client=client)
    return None


def rehearse(provider: Provider) -> int:
    """One in-memory call per output schema through `twin(provider)`; how many answered."""
    from .schemas import OUTPUT_SCHEMAS

    try:
        double = twin(provider)
    except Exception:  # noqa: BLE001 - warming is an optimisation; the real call will tell
        return 0
    if double is None:
        return 0
    done = 0
    for schema in OUTPUT_SCHEMAS:
        request = LLMRequest(
            provider=provider.name, model="warm-up", max_tokens=64, temperature=0.0,
            stage="review", messages=[Message(role="system", content="warm-up", cache=True),
                                      Message(role="user", content="warm-up")])
        try:
            double.complete(request, schema)
            done += 1
        except Exception:  # noqa: BLE001 - as above
            pass
    close = getattr(double, "close", None)
    if close is not None:
        close()
    return done
