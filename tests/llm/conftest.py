"""Fixtures: a fake provider server on 127.0.0.1 and the three adapters pointed at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import BaseModel, Field

from pipeline.llm.fake_server import FakeProviderServer

_ENV = (
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
    "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_GENAI_API_VERSION",
    "ANTHROPIC_AUTH_TOKEN", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID",
)


class Review(BaseModel):
    """A rubric-like schema: ranges must survive every provider's schema handling."""

    score: int = Field(ge=1, le=5)
    verdict: str
    issues: list[str] = Field(default_factory=list)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeProviderServer]:
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    with FakeProviderServer() as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        yield server


@pytest.fixture
def make_provider(fake: FakeProviderServer):
    from pipeline.llm.anthropic_provider import AnthropicProvider
    from pipeline.llm.gemini_provider import GeminiProvider
    from pipeline.llm.openai_provider import OpenAIProvider

    classes = {"openai": OpenAIProvider, "anthropic": AnthropicProvider, "gemini": GeminiProvider}

    def make(name: str, **kw):
        return classes[name](**kw)

    return make


@pytest.fixture
def review() -> type[Review]:
    return Review
