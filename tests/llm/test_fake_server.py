"""The fake provider server itself: protocol validation, recording, faults, schema answers."""

from __future__ import annotations

import json
from typing import Literal

import httpx2
import openai
import pytest
from pydantic import BaseModel, Field

from pipeline.llm.fake_server import FakeProviderServer, Fault, FaultScript, example


def _post(fake, path, body, headers):
    with httpx2.Client(base_url=fake.base_url, timeout=5) as client:
        return client.post(path, json=body, headers=headers)


OPENAI_OK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
ANTHROPIC_OK = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
GEMINI_OK = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
AUTH = {
    "openai": {"authorization": "Bearer k"},
    "anthropic": {"x-api-key": "k", "anthropic-version": "2023-06-01"},
    "gemini": {"x-goog-api-key": "k"},
}
PATHS = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages",
         "gemini": "/v1/models/m:generateContent"}


@pytest.mark.parametrize("provider,body", [("openai", OPENAI_OK), ("anthropic", ANTHROPIC_OK),
                                           ("gemini", GEMINI_OK)])
def test_valid_raw_requests_accepted(fake, provider, body):
    resp = _post(fake, PATHS[provider], body, AUTH[provider])
    assert resp.status_code == 200, resp.text
    assert fake.requests[0].valid and fake.requests[0].provider == provider
    assert fake.requests[0].headers.get("x-api-key", "<present>") == "<present>"


@pytest.mark.parametrize("provider,body,headers,problem", [
    ("openai", OPENAI_OK, {}, "Authorization"),
    ("openai", {"model": "m"}, AUTH["openai"], "messages"),
    ("openai", {**OPENAI_OK, "messages": [{"role": "robot", "content": "x"}]}, AUTH["openai"],
     "role"),
    ("openai", {**OPENAI_OK, "response_format": {"type": "json_schema", "json_schema": {}}},
     AUTH["openai"], "json_schema"),
    ("anthropic", ANTHROPIC_OK, {"x-api-key": "k"}, "anthropic-version"),
    ("anthropic", {k: v for k, v in ANTHROPIC_OK.items() if k != "max_tokens"},
     AUTH["anthropic"], "max_tokens"),
    ("anthropic", {**ANTHROPIC_OK, "temperature": 0.5}, AUTH["anthropic"], "unknown fields"),
    ("anthropic", {**ANTHROPIC_OK, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "x", "cache_control": {"type": "forever"}}]}]},
     AUTH["anthropic"], "cache_control"),
    ("gemini", GEMINI_OK, {}, "x-goog-api-key"),
    ("gemini", {"contents": [{"role": "user", "parts": []}]}, AUTH["gemini"], "parts"),
    ("gemini", {**GEMINI_OK, "generationConfig": {"responseSchema": {"type": "OBJECT"}}},
     AUTH["gemini"], "application/json"),
    ("gemini", {**GEMINI_OK, "generationConfig": {"max_output_tokens": 5}}, AUTH["gemini"],
     "unknown generationConfig"),
])
def test_invalid_requests_rejected_and_recorded(fake, provider, body, headers, problem):
    resp = _post(fake, PATHS[provider], body, headers)
    assert resp.status_code == 400
    assert fake.invalid and problem in " ".join(fake.invalid[0].problems)


def test_unknown_route_is_404(fake):
    assert _post(fake, "/v2/nothing", {}, {}).status_code == 404


def test_responder_sees_provider_and_request(fake):
    seen = []

    def responder(provider, request):
        seen.append((provider, request["model"]))
        return {"answer": 42}

    fake.responder = responder
    resp = _post(fake, PATHS["openai"], OPENAI_OK, AUTH["openai"])
    assert json.loads(resp.json()["choices"][0]["message"]["content"]) == {"answer": 42}
    assert seen == [("openai", "m")]


def test_fault_by_index_and_times(fake):
    fake.fault("500", at=[1, 2], provider="anthropic")
    codes = [_post(fake, PATHS["anthropic"], ANTHROPIC_OK, AUTH["anthropic"]).status_code
             for _ in range(4)]
    assert codes == [200, 500, 500, 200]
    assert [r.fault for r in fake.requests] == [None, "500", "500", None]
    fake.reset()
    fake.fault("529", times=1)
    codes = [_post(fake, PATHS["anthropic"], ANTHROPIC_OK, AUTH["anthropic"]).status_code
             for _ in range(2)]
    assert codes == [529, 200]


def test_random_faults_are_seeded():
    def run(seed):
        script = FaultScript()
        script.add_random(0.3, [Fault("429"), Fault("500"), Fault("malformed")], seed=seed)
        return [getattr(script.next_fault("openai", "call"), "kind", None) for _ in range(200)]

    first = run(7)
    assert first == run(7) and first != run(8)
    rate = sum(k is not None for k in first) / len(first)
    assert 0.2 < rate < 0.4 and {"429", "500", "malformed"} <= set(first)


def test_fault_headers_and_gemini_retry_info(fake):
    fake.fault("429", retry_after=2, retry_after_ms=2500)
    resp = _post(fake, PATHS["gemini"], GEMINI_OK, AUTH["gemini"])
    assert resp.status_code == 429
    assert resp.headers["retry-after"] == "2" and resp.headers["retry-after-ms"] == "2500"
    assert resp.json()["error"]["details"][0]["retryDelay"] == "2s"


def test_openai_responses_endpoint_through_sdk(fake):
    class Answer(BaseModel):
        ok: bool

    client = openai.OpenAI(max_retries=0)
    resp = client.responses.parse(model="m", input="hi", text_format=Answer)
    assert resp.output_parsed == Answer(ok=False)
    assert fake.requests[0].path == "/v1/responses" and not fake.invalid


def test_schema_example_respects_constraints():
    class Inner(BaseModel):
        tag: Literal["a", "b"]

    class Outer(BaseModel):
        score: int = Field(ge=2, le=4)
        ratio: float = Field(gt=0, lt=1)
        name: str = Field(min_length=6)
        items: list[Inner] = Field(min_length=2)
        note: str | None = None

    schema = Outer.model_json_schema()
    for choice in ("min", "mid", "max"):
        Outer.model_validate(example(schema, choice=choice))
    assert example(schema, choice="max")["score"] == 4
    # anthropic moves ranges into the description; gemini upper-cases types
    assert example({"type": "integer", "description": "x\n\n{minimum: 3, maximum: 9}"}) == 3
    assert example({"type": "OBJECT", "properties": {"n": {"type": "INTEGER",
                                                           "minimum": 1.0}}}) == {"n": 1}


def test_server_binds_loopback_only():
    with FakeProviderServer() as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        assert server.env()["OPENAI_BASE_URL"].endswith("/v1")
    with pytest.raises(AssertionError):
        _ = server.port


def test_a_request_cut_short_by_a_vanished_client_is_not_a_protocol_error() -> None:
    import socket
    import time

    with FakeProviderServer() as fake:
        with socket.create_connection(("127.0.0.1", fake.port)) as sock:
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                         b"content-type: application/json\r\ncontent-length: 100\r\n\r\n"
                         b'{"model": ')
        deadline = time.monotonic() + 10
        while not fake.cut and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [r.problems for r in fake.cut] == [["body cut short: 10 of 100 bytes"]]
        assert fake.invalid == [] and fake.calls() == []


def test_call_log_has_one_line_per_model_call_after_the_latency(tmp_path):
    """`call_log` (the `--log` of `python -m pipeline.llm.fake_server`, read by
    bench/build_llm.py as the servers' own view): model calls only, each with its provider,
    its reply no sooner than the latency after its arrival."""
    log = tmp_path / "calls.log"
    with FakeProviderServer(latency_s=0.05, call_log=str(log)) as fake:
        for provider, body in (("openai", OPENAI_OK), ("anthropic", ANTHROPIC_OK),
                               ("gemini", GEMINI_OK)):
            assert _post(fake, PATHS[provider], body, AUTH[provider]).status_code == 200
        assert _post(fake, "/no/such/route", {}, {}).status_code == 404
    lines = [line.split() for line in log.read_text().splitlines()]
    assert [provider for _, _, provider in lines] == ["openai", "anthropic", "gemini"]
    assert all(float(sent) - float(arrived) >= 0.05 for arrived, sent, _ in lines)
