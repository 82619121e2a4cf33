"""LLM providers behind one interface, and the wrapper that owns cache, retries, concurrency
and the cost ledger (see docs/design.md "Providers").

Entry points for the CLI:
- `settings.load_llm_settings()`, `settings.resolve_mode(...)`, `settings.mode_banner(...)`
- `make_providers(settings)`: the SDK adapters of every configured provider (keys and base
  URLs from each SDK's own environment variables); with `worker_process_from` set, a provider
  with that many calls in flight or more makes them in a child process (`workers.ProviderWorker`)
- `make_backend(store, settings, batch=False)`: an `LLMBackend` ready for `BuildOptions`
- `ledger.ledger_summary(store)`, `ledger.format_ledger(summary)` for `repogenesis ledger`
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.llm.backend import LLMBackend
    from pipeline.llm.base import Provider
    from pipeline.llm.settings import LLMSettings
    from pipeline.store import Store


def make_providers(settings: LLMSettings) -> dict[str, Provider]:
    from pipeline.llm.anthropic_provider import AnthropicProvider
    from pipeline.llm.gemini_provider import GeminiProvider
    from pipeline.llm.openai_provider import OpenAIProvider

    classes = {"openai": OpenAIProvider, "anthropic": AnthropicProvider,
               "gemini": GeminiProvider}
    providers = {name: classes[name]() for name in settings.providers()}
    from pipeline.llm.warmup import rehearse

    for provider in providers.values():
        provider.warm()  # type: ignore[attr-defined]
        rehearse(provider)
    from pipeline.llm.workers import ProviderWorker, use_workers

    # started here, warmed up in the background: calls run in this process until then
    workers = {name: ProviderWorker(provider, limit=settings.limit(name))
               for name, provider in providers.items()
               if use_workers(settings.limit(name), settings.worker_process_from)}
    return {**providers, **workers}


def make_backend(store: Store, settings: LLMSettings, *, batch: bool = False) -> LLMBackend:
    from pipeline.llm.backend import LLMBackend
    from pipeline.llm.client import LLMClient

    return LLMBackend(LLMClient(make_providers(settings), store, settings), settings,
                      batch=batch)
