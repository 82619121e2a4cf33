"""Faults from the fake server, through the real SDKs, classified by `errors.classify`."""

from __future__ import annotations

import os

import httpx2
import pytest

from pipeline.llm.base import LLMRequest, Message
from pipeline.llm.errors import ProviderError, classify, parse_retry_after, redact

PROVIDERS = ["openai", "anthropic", "gemini"]


def _request(provider: str) -> LLMRequest:
    return LLMRequest(provider=provider, model="m-1",
                      messages=[Message(role="user", content="hello")])


def _fail(fake, make_provider, name: str, kind: str, **kw) -> ProviderError:
    fake.fault(kind, at=0, provider=name, **kw)
    provider = make_provider(name)
    with pytest.raises(ProviderError) as info:
        provider.complete(_request(name), None)
    assert len(fake.calls(name)) == 1  # the adapter never retries by itself
    assert info.value.__cause__ is None  # SDK error text (may echo a key) is not chained
    return info.value


STATUS_FAULTS = {  # fault kind: (status, retryable, the error's kind)
    "429": (429, True, "rate_limit"),
    "500": (500, True, "server"),
    "503": (503, True, "server"),
    "529": (529, True, "overloaded"),
    "400": (400, False, "bad_request"),
    "401": (401, False, "auth"),
}


@pytest.mark.parametrize("name", PROVIDERS)
@pytest.mark.parametrize("kind", list(STATUS_FAULTS))
def test_status_faults_classified(fake, make_provider, name, kind):
    status, retryable, label = STATUS_FAULTS[kind]
    err = _fail(fake, make_provider, name, kind)
    assert (err.status, err.retryable, err.kind, err.provider) == (status, retryable, label, name)
    assert err.retry_after_s is None


@pytest.mark.parametrize("name", PROVIDERS)
def test_retry_after_seconds_and_ms(fake, make_provider, name):
    err = _fail(fake, make_provider, name, "429", retry_after=3)
    assert err.retryable and err.retry_after_s == 3.0
    fake.reset()
    err = _fail(fake, make_provider, name, "429", retry_after_ms=1500)
    assert err.retryable and err.retry_after_s == 1.5


@pytest.mark.parametrize("name", PROVIDERS)
def test_malformed_body_is_retryable(fake, make_provider, name):
    err = _fail(fake, make_provider, name, "malformed")
    assert err.retryable and err.kind == "malformed"


@pytest.mark.parametrize("name", PROVIDERS)
def test_timeout_is_retryable(fake, make_provider, name):
    fake.fault("latency", at=0, delay_s=1.5)
    provider = make_provider(name, timeout_s=0.3)
    with pytest.raises(ProviderError) as info:
        provider.complete(_request(name), None)
    assert info.value.retryable and info.value.kind == "timeout"


@pytest.mark.parametrize("code", ["contract_spend_limit_reached", "enforced_spend_limit_reached",
                                  "ramp_limit_exceeded"])
def test_anthropic_spend_limits_not_retried(fake, make_provider, code):
    err = _fail(fake, make_provider, "anthropic", "spend_limit", code=code, retry_after=5)
    assert err.status == 429 and not err.retryable and err.kind == "spend_limit"
    assert err.cause_type in ("ContractSpendLimitReachedError", "EnforcedSpendLimitReachedError",
                              "RampLimitExceededError")


def test_openai_insufficient_quota_not_retried(fake, make_provider):
    err = _fail(fake, make_provider, "openai", "spend_limit")
    assert err.status == 429 and not err.retryable and err.kind == "spend_limit"


@pytest.mark.parametrize("name", PROVIDERS)
def test_keys_never_in_error_strings(fake, make_provider, name):
    keys = [os.environ[k] for k in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY")]
    echo = "Incorrect API key provided: " + " ".join(keys)
    err = _fail(fake, make_provider, name, "401", message=echo)
    for text in (str(err), repr(err), err.message):
        assert not any(key in text for key in keys)
    assert "***" in str(err)


def test_connection_refused_is_retryable(fake, make_provider, monkeypatch):
    port = fake.port
    fake.stop()  # nothing listens on the port any more
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    with pytest.raises(ProviderError) as info:
        make_provider("openai").complete(_request("openai"), None)
    assert info.value.retryable and info.value.kind == "connection"


def test_classify_raw_transport_errors():
    req = httpx2.Request("GET", "http://127.0.0.1:9")
    assert classify(httpx2.ConnectError("refused", request=req), "gemini").retryable
    timeout = classify(httpx2.ReadTimeout("slow", request=req), "gemini")
    assert timeout.retryable and timeout.kind == "timeout"
    other = classify(RuntimeError("boom"), "openai")
    assert not other.retryable and other.kind == "unknown"


def test_parse_retry_after_forms():
    assert parse_retry_after({"retry-after-ms": "250"}) == 0.25
    assert parse_retry_after({"retry-after": "7"}) == 7.0
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert parse_retry_after({}) is None


def test_redact_key_shapes(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "plain-secret-value")
    text = redact("k=plain-secret-value sk-abcdef123456 AIzaSyABCDEFGHIJKLMNOP "
                  "Bearer abc.def-ghi123 https://x/?key=zzz")
    assert "plain-secret-value" not in text and "sk-abcdef" not in text
    assert "AIza" not in text and "abc.def" not in text and "zzz" not in text
