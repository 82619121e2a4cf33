"""The `[llm]` table of `repogenesis.toml`: which models write, review and refine, at what price.

Public API:
- `LLMSettings` (pydantic): `generator`, `reviewers` (three), `refiner` as "provider:model";
  sampling (`temperature`, not sent to `default_temperature_models`; `max_tokens`), bounds
  (`max_tokens_cap`, `max_attempts`, `invalid_retries`, `length_retries`), `concurrency` per
  provider, `prices` per model.
- `load_llm_settings(path="repogenesis.toml", **overrides) -> LLMSettings`
- `resolve_mode(settings, env, offline_flag, allow_fallback) -> "offline" | "llm"`
- `ModeError`: a configured provider lacks its key (the message names the variable).
- `KEY_VARS`: provider -> the environment variables that carry its key (first one set wins).

Keys and base URLs are never part of the settings: each SDK reads its own variables
(`OPENAI_API_KEY`/`OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`/`ANTHROPIC_BASE_URL`,
`GEMINI_API_KEY` or `GOOGLE_API_KEY`/`GOOGLE_GEMINI_BASE_URL`).

Example:

    [llm]
    generator = "gemini:gemini-2.5-pro"
    reviewers = ["openai:gpt-5", "anthropic:claude-sonnet-4-5", "gemini:gemini-2.5-pro"]
    refiner = "gemini:gemini-2.5-pro"
    temperature = 0.0
    max_tokens = 4096
    fallback_offline = false
    worker_process_from = 16   # providers with 16+ calls in flight use a child process (0: never)
    [llm.concurrency]
    openai = 8
    [llm.prices."openai:gpt-5"]
    input = 1.25
    output = 10.0
    cached = 0.125
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

CONFIG_FILE = "repogenesis.toml"
PROVIDERS = ("openai", "anthropic", "gemini")
KEY_VARS: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
}
Mode = Literal["offline", "llm"]


class Price(BaseModel):
    """US dollars per million tokens; `cached` (prompt-cache reads) defaults to `input`."""

    model_config = ConfigDict(extra="forbid")
    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached: float | None = Field(default=None, ge=0)

    def cost(self, tokens_in: int, tokens_out: int, tokens_cached: int) -> float:
        """`tokens_in` includes the cached tokens (they are billed at the cached rate)."""
        cached = min(tokens_cached, tokens_in)
        rate_cached = self.input if self.cached is None else self.cached
        return ((tokens_in - cached) * self.input + cached * rate_cached
                + tokens_out * self.output) / 1_000_000


# List prices (USD per million tokens, standard tier) as published when this was written;
# override them in repogenesis.toml, which wins key by key.
DEFAULT_PRICES: dict[str, Price] = {
    "openai:gpt-5": Price(input=1.25, output=10.0, cached=0.125),
    "openai:gpt-5-mini": Price(input=0.25, output=2.0, cached=0.025),
    "anthropic:claude-sonnet-4-5": Price(input=3.0, output=15.0, cached=0.30),
    "anthropic:claude-haiku-4-5": Price(input=1.0, output=5.0, cached=0.10),
    "gemini:gemini-2.5-pro": Price(input=1.25, output=10.0, cached=0.31),
    "gemini:gemini-2.5-flash": Price(input=0.30, output=2.50, cached=0.075),
}


def split_ref(ref: str) -> tuple[str, str]:
    """"provider:model" -> (provider, model)."""
    provider, _, model = ref.partition(":")
    return provider, model


class LLMSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    generator: str = "gemini:gemini-2.5-pro"
    reviewers: list[str] = Field(default_factory=lambda: [
        "openai:gpt-5", "anthropic:claude-sonnet-4-5", "gemini:gemini-2.5-pro"])
    refiner: str = "gemini:gemini-2.5-pro"
    temperature: float | None = Field(0.0, ge=0, le=2)
    # Reasoning models that refuse any temperature but their default: sent without one.
    default_temperature_models: list[str] = Field(
        default_factory=lambda: ["openai:gpt-5", "openai:o1", "openai:o3", "openai:o4"],
        description="provider:model prefixes called without a temperature.")
    # Thinking tokens count against the limit; unused room costs nothing.
    max_tokens: int = Field(8192, ge=64)
    max_tokens_cap: int = Field(32768, ge=64, description="Bound of the doubled retry.")
    length_retries: int = Field(1, ge=0, le=3, description="Retries of a cut-off output.")
    invalid_retries: int = Field(2, ge=0, le=5, description="Re-asks of an invalid output.")
    max_attempts: int = Field(6, ge=1, le=20, description="Attempts on retryable errors.")
    backoff_max_s: float = Field(60.0, gt=0, description="Cap of one backoff wait.")
    retry_after_max_s: float = Field(300.0, gt=0, description="Cap of an honoured Retry-After.")
    concurrency: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(PROVIDERS, 4))
    default_concurrency: int = Field(4, ge=1)
    # One interpreter's GIL caps a fast provider's throughput at a few hundred calls a second
    # (the SDKs' CPU per call): from this many calls in flight, its SDK can run in a child
    # process. On from 16 (BENCHMARKS.md: at 32 in flight per provider, 300 ms, on 2 cores,
    # 0.85-0.87 of the ideal rate against 0.74-0.83 in one process); the default of 4 calls
    # in flight per provider stays in one process.
    worker_process_from: int = Field(16, ge=0, description=(
        "A provider allowed this many calls in flight or more makes its SDK calls in a "
        "child process of its own (0: never)."))
    tests_per_prompt: int = Field(2, ge=1, le=10)
    fallback_offline: bool = False
    batch_poll_s: float = Field(30.0, gt=0)
    batch_timeout_s: float = Field(86_400.0, gt=0)
    batch_discount: float = Field(0.5, ge=0, le=1, description="Price factor of batch calls.")
    prices: dict[str, Price] = Field(default_factory=dict)

    @field_validator("generator", "refiner")
    @classmethod
    def _ref(cls, v: str) -> str:
        return _check_ref(v)

    @field_validator("reviewers")
    @classmethod
    def _reviewers(cls, v: list[str]) -> list[str]:
        refs = [_check_ref(r) for r in v]
        if len(refs) != 3 or len(set(refs)) != 3:
            raise ValueError(f"reviewers must be three distinct provider:model, got {refs}")
        return refs

    @model_validator(mode="after")
    def _merge_prices(self) -> LLMSettings:
        self.prices = {**DEFAULT_PRICES, **self.prices}
        return self

    def roles(self) -> list[tuple[str, str]]:
        """(role, "provider:model") for every configured call."""
        return [("generator", self.generator), *(("reviewer", r) for r in self.reviewers),
                ("refiner", self.refiner)]

    def providers(self) -> list[str]:
        return sorted({split_ref(ref)[0] for _, ref in self.roles()})

    def limit(self, provider: str) -> int:
        return max(1, self.concurrency.get(provider, self.default_concurrency))

    def temperature_for(self, ref: str) -> float | None:
        fixed = any(ref.startswith(prefix) for prefix in self.default_temperature_models)
        return None if fixed else self.temperature

    def price(self, provider: str, model: str) -> Price | None:
        return self.prices.get(f"{provider}:{model}") or self.prices.get(model)

    def cost(self, provider: str, model: str, tokens_in: int, tokens_out: int,
             tokens_cached: int, batch: bool = False) -> float:
        price = self.price(provider, model)
        if price is None:
            return 0.0
        factor = self.batch_discount if batch else 1.0
        return round(price.cost(tokens_in, tokens_out, tokens_cached) * factor, 8)


def _check_ref(ref: str) -> str:
    provider, model = split_ref(ref)
    if provider not in PROVIDERS or not model:
        raise ValueError(f"{ref!r}: expected provider:model with provider one of {PROVIDERS}")
    return ref


def load_llm_settings(path: str | Path = CONFIG_FILE, **overrides: object) -> LLMSettings:
    """The `[llm]` table of the config file (absent file or table: the defaults)."""
    data: dict[str, object] = {}
    p = Path(path)
    if p.is_file():
        with p.open("rb") as fh:
            data = dict(tomllib.load(fh).get("llm", {}))
    return LLMSettings.model_validate({**data, **overrides})


class ModeError(RuntimeError):
    """A configured provider cannot be used (its key variable is not set)."""


def key_var_set(provider: str, env: Mapping[str, str]) -> bool:
    return any(env.get(var, "").strip() for var in KEY_VARS.get(provider, ()))


def resolve_mode(settings: LLMSettings, env: Mapping[str, str], offline_flag: bool,
                 allow_fallback: bool = False) -> Mode:
    """`offline` or `llm` for the whole run, never a mix.

    `--offline` forces offline; no key of any configured provider set: offline; some set but
    one missing: `ModeError` naming the variable, unless offline fallback was allowed (the
    flag, or `fallback_offline = true`), which then makes the whole run offline.
    """
    if offline_flag:
        return "offline"
    needed = settings.providers()
    present = [p for p in needed if key_var_set(p, env)]
    if not present:
        return "offline"
    missing = [(role, ref) for role, ref in settings.roles()
               if not key_var_set(split_ref(ref)[0], env)]
    if not missing:
        return "llm"
    if allow_fallback or settings.fallback_offline:
        return "offline"
    raise ModeError("; ".join(
        f"{role} {ref} needs {' or '.join(KEY_VARS[split_ref(ref)[0]])}"
        for role, ref in dict.fromkeys(missing)
    ) + "; set it, or pass --offline")


def mode_banner(settings: LLMSettings, mode: Mode) -> str:
    """The line `build` prints so every output says which backend wrote it."""
    if mode == "offline":
        return ("mode: offline (no provider keys used): spec-driven generator, "
                "execution/static/spec reviewers")
    return (f"mode: llm: generator {settings.generator}; reviewers "
            f"{', '.join(settings.reviewers)}; refiner {settings.refiner}")
