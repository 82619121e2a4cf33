"""The OpenAI adapter's fast path (messages through `extra_body`) sends, byte for byte, the
body the SDK's plain `chat.completions.create(**body)` sends."""

from __future__ import annotations

import json

import httpx2
import openai

from pipeline.llm.base import LLMRequest, Message
from pipeline.llm.openai_provider import OpenAIProvider, response_format

COMPLETION = {"id": "c1", "object": "chat.completion", "created": 1, "model": "m",
              "choices": [{"index": 0, "finish_reason": "stop", "message": {
                  "role": "assistant", "content": '{"score": 1, "verdict": "v", "issues": []}'}}],
              "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}


def _recording_provider() -> tuple[OpenAIProvider, list[bytes]]:
    seen: list[bytes] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(request.content)
        return httpx2.Response(200, json=COMPLETION)

    client = openai.OpenAI(api_key="k", base_url="http://127.0.0.1:9/v1", max_retries=0,
                           http_client=httpx2.Client(transport=httpx2.MockTransport(handler)))
    return OpenAIProvider(api_key="k", client=client), seen


def _request() -> LLMRequest:
    return LLMRequest(provider="openai", model="m", max_tokens=99, temperature=0.3,
                      stage="review",
                      messages=[Message(role="system", content="rubric é \"q\"", cache=True),
                                Message(role="user", content="def test_x():\n    assert 1")])


def test_structured_body_is_byte_identical_to_the_sdk_path(review) -> None:
    provider, seen = _recording_provider()
    resp = provider.complete(_request(), review)
    assert resp.parsed == {"score": 1, "verdict": "v", "issues": []}
    body = provider._body(_request(), None, json_mode=False)
    provider.client.chat.completions.create(
        **body, extra_body={"response_format": response_format(review)})
    assert len(seen) == 2 and seen[0] == seen[1]
    sent = json.loads(seen[0])
    assert [m["content"] for m in sent["messages"]] == [m.content for m in _request().messages]


def test_json_mode_and_plain_bodies_are_byte_identical_to_the_sdk_path(review) -> None:
    for schema, json_mode in ((review, True), (None, False)):
        provider, seen = _recording_provider()
        provider.json_mode = json_mode
        provider.complete(_request(), schema)
        provider.client.chat.completions.create(
            **provider._body(_request(), schema, json_mode=schema is not None))
        assert len(seen) == 2 and seen[0] == seen[1]
