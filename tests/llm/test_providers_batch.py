"""Batch submit / poll / results round trip per provider, through the real SDKs."""

from __future__ import annotations

import pytest

from pipeline.llm.base import BatchItem, LLMRequest, Message
from pipeline.llm.errors import ProviderError

PROVIDERS = ["openai", "anthropic", "gemini"]


def _items(provider: str, n: int = 3) -> list[BatchItem]:
    return [BatchItem(custom_id=f"t1-case_{i}", request=LLMRequest(
        provider=provider, model="m-batch", stage="review",
        messages=[Message(role="system", content="rubric", cache=True),
                  Message(role="user", content=f"review case {i}")]))
        for i in range(n)]


def _poll_until_done(provider, batch_id, schema, limit=5):
    states = []
    for _ in range(limit):
        status = provider.poll_batch(batch_id, schema)
        states.append(status.state)
        if status.state != "running":
            return status, states
    raise AssertionError(f"batch still running: {states}")


@pytest.mark.parametrize("name", PROVIDERS)
def test_batch_round_trip(fake, make_provider, name, review):
    provider = make_provider(name)
    items = _items(name)
    batch_id = provider.submit_batch(items, review)
    assert isinstance(batch_id, str) and batch_id
    status, states = _poll_until_done(provider, batch_id, review)
    assert states == ["running", "done"] and status.batch_id == batch_id
    assert sorted(r.custom_id for r in status.results) == sorted(i.custom_id for i in items)
    for result in status.results:
        assert result.error is None
        assert result.response.parsed == {"score": 1, "verdict": "fake", "issues": []}
        assert result.response.finish == "stop"
        assert result.response.usage.output_tokens > 0
    assert not fake.invalid
    submitted = [r for r in fake.requests if r.custom_ids]
    assert len(submitted) == 1 and sorted(submitted[0].custom_ids) == sorted(
        i.custom_id for i in items)
    assert not fake.calls(name)  # nothing went through the synchronous endpoint


@pytest.mark.parametrize("name", PROVIDERS)
def test_batch_resume_polls_same_id_without_resubmitting(fake, make_provider, name):
    batch_id = make_provider(name).submit_batch(_items(name), None)
    creates = len([r for r in fake.requests if r.method == "POST"])
    fresh = make_provider(name)  # a restarted build: new client, stored batch id
    status, _ = _poll_until_done(fresh, batch_id, None)
    assert status.state == "done" and len(status.results) == 3
    assert all(r.response.text.startswith(f"fake {name}") for r in status.results)
    assert len([r for r in fake.requests if r.method == "POST"]) == creates


@pytest.mark.parametrize("name", PROVIDERS)
def test_batch_item_errors_matched_by_custom_id(fake, make_provider, name):
    fake.fault("500", at=1, provider=name, endpoint="item")
    fake.fault("truncate", at=2, provider=name, endpoint="item")
    provider = make_provider(name)
    items = _items(name)
    status, _ = _poll_until_done(provider, provider.submit_batch(items, None), None)
    by_id = {r.custom_id: r for r in status.results}
    assert by_id["t1-case_0"].response.finish == "stop"
    assert by_id["t1-case_1"].response is None
    assert "fake 500 error" in by_id["t1-case_1"].error
    assert by_id["t1-case_2"].response.finish == "length"


def test_anthropic_batch_params_keep_cache_control(fake, make_provider):
    make_provider("anthropic").submit_batch(_items("anthropic", 1), None)
    params = fake.requests[-1].body["requests"][0]["params"]
    assert params["system"][0]["cache_control"] == {"type": "ephemeral"}


def test_anthropic_rejects_bad_custom_id_before_sending(fake, make_provider):
    items = _items("anthropic", 1)
    items[0].custom_id = "has spaces/slash"
    with pytest.raises(ValueError):
        make_provider("anthropic").submit_batch(items, None)
    assert not fake.requests


@pytest.mark.parametrize("name", ["openai", "gemini"])
def test_one_model_per_batch_job(fake, make_provider, name):
    items = _items(name, 2)
    items[1].request.model = "other-model"
    with pytest.raises(ValueError, match="one model"):
        make_provider(name).submit_batch(items, None)


@pytest.mark.parametrize("name", PROVIDERS)
def test_batch_endpoint_faults_are_classified(fake, make_provider, name):
    fake.fault("429", at=0, provider=name, endpoint="batch", retry_after=2)
    with pytest.raises(ProviderError) as info:
        make_provider(name).submit_batch(_items(name), None)
    assert info.value.retryable and info.value.retry_after_s == 2.0
