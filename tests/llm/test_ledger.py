"""Ledger summary per provider, model and stage; text table; key redaction."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.llm.ledger import Ledger, format_ledger, ledger_summary, redact
from pipeline.llm.settings import LLMSettings, Price
from pipeline.store import Store


@pytest.fixture
def store(tmp_path: Path):
    s = Store.open(tmp_path / "state.db")
    yield s
    s.close()


def test_summary_groups_calls_tokens_and_cost(store: Store) -> None:
    ledger = Ledger(store, LLMSettings(prices={"openai:m": Price(input=1.0, output=1.0)}))
    ledger.record(provider="openai", model="m", stage="review", outcome="retry")
    ledger.record(provider="openai", model="m", stage="review", outcome="ok",
                  tokens_in=1000, tokens_out=500)
    ledger.record(provider="openai", model="m", stage="review", outcome="cache_hit")
    ledger.record(provider="openai", model="m", stage="generate", outcome="invalid",
                  tokens_in=100, tokens_out=100)
    ledger.record(provider="gemini", model="free", stage="review", outcome="ok",
                  tokens_in=10, tokens_out=10)
    summary = ledger_summary(store)
    assert summary["calls"] == 4 and summary["cache_hits"] == 1
    assert summary["total_cost"] == pytest.approx(0.0017)
    assert summary["unpriced"] == ["gemini:free"]
    by = {(b["provider"], b["model"], b["stage"]): b for b in summary["by"]}
    assert by[("openai", "m", "review")] == {
        "provider": "openai", "model": "m", "stage": "review", "calls": 2, "cache_hits": 1,
        "retries": 1, "errors": 0, "input_tokens": 1000, "output_tokens": 500, "cached_tokens": 0,
        "cost": pytest.approx(0.0015)}
    assert by[("openai", "m", "generate")]["errors"] == 1
    text = format_ledger(summary)
    assert "openai" in text and "4 provider call(s), 1 cache hit(s)" in text
    assert "no price configured for gemini:free" in text


def test_empty_ledger(store: Store) -> None:
    assert ledger_summary(store) == {"calls": 0, "cache_hits": 0, "by": [], "total_cost": 0,
                                     "unpriced": []}


def test_redact_replaces_configured_keys() -> None:
    env = {"ANTHROPIC_API_KEY": "sk-ant-xyz123"}
    assert redact("bad key sk-ant-xyz123 given", env) == "bad key *** given"
    assert redact("nothing here", env) == "nothing here"
