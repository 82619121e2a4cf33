"""Each adapter against the fake server through the real SDK: completions, structured output,
usage, truncation, prompt caching, fallbacks, missing keys."""

from __future__ import annotations

import json

import pytest

from pipeline.llm.base import LLMRequest, LLMResponse, Message, Provider
from pipeline.llm.errors import MissingKeyError

PROVIDERS = ["openai", "anthropic", "gemini"]


def _request(provider: str, *, max_tokens: int = 4096, cache: bool = False) -> LLMRequest:
    return LLMRequest(
        provider=provider, model=f"{provider}-test-model", max_tokens=max_tokens,
        temperature=0.2, stage="review",
        messages=[Message(role="system", content="You review tests. " * 50, cache=cache),
                  Message(role="user", content="Review this test: def test_x(): assert 1")],
    )


@pytest.mark.parametrize("name", PROVIDERS)
def test_plain_completion(fake, make_provider, name):
    provider = make_provider(name)
    assert isinstance(provider, Provider)
    resp = provider.complete(_request(name), None)
    assert isinstance(resp, LLMResponse)
    assert resp.finish == "stop"
    assert resp.text.startswith(f"fake {name} answer")
    assert resp.parsed is None
    assert resp.usage.input_tokens > 0 and resp.usage.output_tokens > 0
    assert resp.response_id
    assert len(fake.calls(name)) == 1 and not fake.invalid


@pytest.mark.parametrize("name", PROVIDERS)
def test_structured_output_parsed(fake, make_provider, name, review):
    resp = make_provider(name).complete(_request(name), review)
    assert resp.finish == "stop"
    assert resp.parsed == {"score": 1, "verdict": "fake", "issues": []}
    assert json.loads(resp.text)["score"] == 1
    assert not fake.invalid
    body = fake.calls(name)[0].body
    if name == "openai":
        fmt = body["response_format"]
        assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
        assert body["temperature"] == 0.2
    elif name == "anthropic":
        assert body["output_config"]["format"]["type"] == "json_schema"
        assert body["system"][0]["type"] == "text"
    else:
        config = body["generationConfig"]
        assert config["responseMimeType"] == "application/json"
        assert "responseSchema" in config
        assert body["systemInstruction"]["parts"][0]["text"].startswith("You review")


@pytest.mark.parametrize("name", PROVIDERS)
def test_out_of_range_output_is_not_parsed(fake, make_provider, name, review):
    fake.responder = lambda provider, request: {"score": 9, "verdict": "x", "issues": []}
    resp = make_provider(name).complete(_request(name), review)
    assert resp.finish == "stop"
    assert resp.parsed is None  # the wrapper re-asks with the validation error
    assert json.loads(resp.text)["score"] == 9
    assert resp.usage.output_tokens > 0  # tokens are still counted


@pytest.mark.parametrize("name", PROVIDERS)
def test_truncated_output_is_length(fake, make_provider, name, review):
    fake.fault("truncate", at=0)
    provider = make_provider(name)
    resp = provider.complete(_request(name), review)
    assert resp.finish == "length" and resp.parsed is None
    # by the token limit itself, too
    fake.responder = lambda provider, request: "word " * 400
    resp = provider.complete(_request(name, max_tokens=20), None)
    assert resp.finish == "length"
    assert len(fake.calls(name)) == 2  # never re-sent by the adapter


@pytest.mark.parametrize("name", PROVIDERS)
def test_cached_tokens_read(fake, make_provider, name):
    provider = make_provider(name)
    first = provider.complete(_request(name, cache=True), None)
    second = provider.complete(_request(name, cache=True), None)
    assert first.usage.cached_tokens == 0
    assert second.usage.cached_tokens > 0
    assert second.usage.input_tokens >= second.usage.cached_tokens
    assert second.usage.input_tokens == first.usage.input_tokens


def test_anthropic_cache_control_on_marked_block(fake, make_provider):
    request = LLMRequest(provider="anthropic", model="claude-test", messages=[
        Message(role="system", content="rubric"),
        Message(role="user", content="README excerpt", cache=True),
        Message(role="user", content="the test code"),
    ])
    make_provider("anthropic").complete(request, None)
    body = fake.calls("anthropic")[0].body
    assert "cache_control" not in body["system"][0]
    blocks = body["messages"][0]["content"]
    assert blocks[0]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in blocks[1]
    assert fake.calls("anthropic")[0].headers["anthropic-version"]
    # the others ignore the flag but still send valid requests
    for name in ("openai", "gemini"):
        make_provider(name).complete(request.model_copy(update={"provider": name}), None)
    assert not fake.invalid


def test_anthropic_forced_tool_use(fake, make_provider, review):
    provider = make_provider("anthropic", structured="tool")
    resp = provider.complete(_request("anthropic"), review)
    assert resp.parsed == {"score": 1, "verdict": "fake", "issues": []}
    body = fake.calls("anthropic")[0].body
    assert body["tool_choice"] == {"type": "tool", "name": "Review"}
    assert body["tools"][0]["input_schema"]["properties"]["score"]["maximum"] == 5


def test_anthropic_falls_back_to_tool_use_when_output_config_refused(fake, make_provider,
                                                                      review):
    fake.fault("400", at=0, provider="anthropic",
               message="output_config: Extra inputs are not permitted")
    provider = make_provider("anthropic")
    resp = provider.complete(_request("anthropic"), review)
    assert resp.parsed == {"score": 1, "verdict": "fake", "issues": []}
    assert provider.structured == "tool"
    calls = fake.calls("anthropic")
    assert "output_config" in calls[0].body and "tools" in calls[1].body


def test_openai_json_mode_fallback_when_json_schema_refused(fake, make_provider, review):
    fake.openai_json_schema = False  # llama.cpp-style server
    provider = make_provider("openai")
    resp = provider.complete(_request("openai"), review)
    assert resp.parsed == {"score": 1, "verdict": "fake", "issues": []}
    assert provider.json_mode is True
    calls = fake.calls("openai")
    assert calls[0].body["response_format"]["type"] == "json_schema"
    assert calls[1].body["response_format"] == {"type": "json_object"}
    assert "JSON schema" in calls[1].body["messages"][0]["content"]
    provider.complete(_request("openai"), review)  # sticky: no second refusal
    assert len(fake.calls("openai")) == 3


def test_openai_compatible_server_gets_max_tokens(fake, make_provider):
    make_provider("openai").complete(_request("openai", max_tokens=77), None)
    body = fake.calls("openai")[0].body
    assert body["max_tokens"] == 77 and "max_completion_tokens" not in body


def test_gemini_falls_back_to_json_schema_for_refused_schema(fake, make_provider):
    from pydantic import BaseModel

    class Tagged(BaseModel):
        tags: dict[str, int]

    fake.responder = lambda provider, request: {"tags": {"a": 1}}
    resp = make_provider("gemini").complete(_request("gemini"), Tagged)
    assert resp.parsed == {"tags": {"a": 1}}
    calls = fake.calls("gemini")
    assert len(calls) == 1 and "responseJsonSchema" in calls[0].body["generationConfig"]


def test_gemini_api_version_and_google_api_key(fake, make_provider, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY")
    monkeypatch.setenv("GOOGLE_API_KEY", "fake-google-key-1234")
    monkeypatch.setenv("GOOGLE_GENAI_API_VERSION", "v1beta")
    make_provider("gemini").complete(_request("gemini"), None)
    assert fake.calls("gemini")[0].path == "/v1beta/models/gemini-test-model:generateContent"


@pytest.mark.parametrize("name,var", [("openai", "OPENAI_API_KEY"),
                                      ("anthropic", "ANTHROPIC_API_KEY"),
                                      ("gemini", "GEMINI_API_KEY")])
def test_missing_key_names_the_variable(fake, make_provider, monkeypatch, name, var):
    monkeypatch.delenv(var)
    with pytest.raises(MissingKeyError) as info:
        make_provider(name)
    assert var in str(info.value)
    assert not fake.requests
