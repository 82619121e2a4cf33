"""Warm-up rehearsals: every adapter's twin answers from memory, for every output schema,
and creating the providers sends nothing to the (fake) provider server."""

from __future__ import annotations

import pytest

from pipeline.llm import make_providers
from pipeline.llm.base import LLMRequest, Message
from pipeline.llm.schemas import OUTPUT_SCHEMAS, ReviewOutput
from pipeline.llm.settings import PROVIDERS, LLMSettings
from pipeline.llm.warmup import rehearse, twin


@pytest.mark.parametrize("name", PROVIDERS)
def test_twin_answers_from_memory_for_every_schema(fake, make_provider, name) -> None:
    provider = make_provider(name)
    double = twin(provider)
    assert type(double) is type(provider) and double.client is not provider.client
    resp = double.complete(LLMRequest(
        provider=name, model="m", max_tokens=8, temperature=0.0, stage="review",
        messages=[Message(role="user", content="hi")]), ReviewOutput)
    assert resp.finish == "stop" and resp.parsed is not None
    assert rehearse(provider) == len(OUTPUT_SCHEMAS)
    assert fake.calls(name) == []  # nothing reached the server


def test_make_providers_warms_without_calling_the_server(fake) -> None:
    providers = make_providers(LLMSettings())
    assert set(providers) == set(LLMSettings().providers())
    for name in providers:
        assert fake.calls(name) == []
    openai = providers.get("openai")
    if openai is not None:
        assert openai.json_mode is False  # the twin's state is its own
