"""LLM settings: defaults, the [llm] table, prices, and the offline/llm mode decision."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from pipeline.llm.settings import (
    LLMSettings,
    ModeError,
    Price,
    load_llm_settings,
    mode_banner,
    resolve_mode,
)

ALL_KEYS = {"OPENAI_API_KEY": "k1", "ANTHROPIC_API_KEY": "k2", "GEMINI_API_KEY": "k3"}


def test_defaults_are_one_model_per_family_and_gemini_generates() -> None:
    s = LLMSettings()
    assert s.generator.startswith("gemini:")
    assert [r.split(":")[0] for r in s.reviewers] == ["openai", "anthropic", "gemini"]
    assert s.providers() == ["anthropic", "gemini", "openai"]
    for ref in s.reviewers:
        assert s.price(*ref.split(":", 1)) is not None


def test_offline_flag_wins() -> None:
    assert resolve_mode(LLMSettings(), ALL_KEYS, offline_flag=True) == "offline"


def test_no_keys_at_all_is_offline() -> None:
    assert resolve_mode(LLMSettings(), {}, offline_flag=False) == "offline"
    assert resolve_mode(LLMSettings(), {"OPENAI_API_KEY": "  "}, offline_flag=False) == "offline"


def test_every_key_set_is_llm_and_google_key_serves_gemini() -> None:
    assert resolve_mode(LLMSettings(), ALL_KEYS, offline_flag=False) == "llm"
    env = {"OPENAI_API_KEY": "a", "ANTHROPIC_API_KEY": "b", "GOOGLE_API_KEY": "c"}
    assert resolve_mode(LLMSettings(), env, offline_flag=False) == "llm"


def test_missing_key_is_an_error_naming_the_variable() -> None:
    env = {"OPENAI_API_KEY": "a", "GEMINI_API_KEY": "c"}
    with pytest.raises(ModeError) as info:
        resolve_mode(LLMSettings(), env, offline_flag=False)
    assert str(info.value) == ("reviewer anthropic:claude-sonnet-4-5 needs ANTHROPIC_API_KEY; "
                               "set it, or pass --offline")


def test_missing_gemini_key_names_both_variables_and_every_role() -> None:
    env = {"OPENAI_API_KEY": "a", "ANTHROPIC_API_KEY": "b"}
    with pytest.raises(ModeError) as info:
        resolve_mode(LLMSettings(), env, offline_flag=False)
    text = str(info.value)
    assert "generator gemini:gemini-2.5-pro needs GEMINI_API_KEY or GOOGLE_API_KEY" in text
    assert "reviewer gemini:" in text and "refiner gemini:" in text


def test_fallback_makes_the_whole_run_offline_never_a_mix() -> None:
    env = {"OPENAI_API_KEY": "a"}
    assert resolve_mode(LLMSettings(), env, offline_flag=False, allow_fallback=True) == "offline"
    s = LLMSettings(fallback_offline=True)
    assert resolve_mode(s, env, offline_flag=False) == "offline"


def test_only_configured_providers_need_keys() -> None:
    s = LLMSettings(generator="openai:gpt-5", refiner="openai:gpt-5",
                    reviewers=["openai:gpt-5", "openai:gpt-5-mini", "openai:o4"])
    assert resolve_mode(s, {"OPENAI_API_KEY": "a"}, offline_flag=False) == "llm"


def test_reviewers_must_be_three_distinct_known_refs() -> None:
    with pytest.raises(ValidationError):
        LLMSettings(reviewers=["openai:gpt-5", "openai:gpt-5", "gemini:x"])
    with pytest.raises(ValidationError):
        LLMSettings(reviewers=["openai:gpt-5", "anthropic:c"])
    with pytest.raises(ValidationError):
        LLMSettings(generator="mistral:large")


def test_toml_table_is_loaded_and_prices_merge(tmp_path: Path) -> None:
    path = tmp_path / "repogenesis.toml"
    path.write_text(
        'max_rounds = 3\n[llm]\ngenerator = "openai:gpt-5"\ntemperature = 0.2\n'
        '[llm.concurrency]\nopenai = 9\n'
        '[llm.prices."openai:gpt-5"]\ninput = 2.0\noutput = 8.0\n', encoding="utf-8")
    s = load_llm_settings(path)
    assert s.generator == "openai:gpt-5" and s.temperature == 0.2 and s.limit("openai") == 9
    assert s.limit("unknown") == s.default_concurrency
    assert s.price("openai", "gpt-5") == Price(input=2.0, output=8.0)
    assert s.price("anthropic", "claude-sonnet-4-5") is not None  # defaults kept
    assert load_llm_settings(tmp_path / "absent.toml") == LLMSettings()


def test_price_cost_bills_cached_tokens_at_the_cached_rate() -> None:
    p = Price(input=3.0, output=15.0, cached=0.3)
    assert p.cost(1_000_000, 0, 0) == pytest.approx(3.0)
    assert p.cost(1_000_000, 1_000_000, 500_000) == pytest.approx(1.5 + 0.15 + 15.0)
    assert Price(input=1.0, output=1.0).cost(10, 0, 10) == pytest.approx(10 / 1e6)
    s = LLMSettings()
    assert s.cost("openai", "unpriced-model", 100, 100, 0) == 0.0
    full = s.cost("openai", "gpt-5", 1000, 1000, 0)
    assert s.cost("openai", "gpt-5", 1000, 1000, 0, batch=True) == pytest.approx(full / 2)


def test_banner_says_which_backend_runs() -> None:
    assert mode_banner(LLMSettings(), "offline").startswith("mode: offline")
    assert "anthropic:claude-sonnet-4-5" in mode_banner(LLMSettings(), "llm")


def test_reasoning_models_are_called_without_a_temperature() -> None:
    s = LLMSettings(temperature=0.2)
    assert s.temperature_for("openai:gpt-5") is None
    assert s.temperature_for("openai:o3-mini") is None
    assert s.temperature_for("anthropic:claude-sonnet-4-5") == 0.2
    assert LLMSettings(default_temperature_models=[]).temperature_for("openai:gpt-5") == 0.0
