"""One settings model, read from `repogenesis.toml` (current folder) and `REPOGENESIS_*`.

Environment variables win over the file, so CI can tighten a timeout without editing it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

CONFIG_FILE = "repogenesis.toml"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="REPOGENESIS_", toml_file=CONFIG_FILE, extra="ignore"
    )

    cache_dir: Path = Field(
        default_factory=lambda: Path.home() / ".cache" / "repogenesis",
        description="Per-task environments and other caches that can be rebuilt.",
    )
    startup_timeout_s: float = Field(90.0, gt=0, description="Deadline for an oracle to answer.")
    test_timeout_s: float = Field(300.0, gt=0, description="Wall limit for one pytest run.")
    case_timeout_s: float = Field(30.0, gt=0, description="Limit for one test case.")
    mutation_cap: int = Field(16, ge=0, description="Mutants per task (0: no mutant runs).")
    mutation_jobs: int | None = Field(None, ge=1, description="Mutants run at once (cores).")
    mutation_selection: Literal["all", "reaching"] = Field(
        "all", description="Tests run against each mutant: every test, or only those whose "
        "requests can reach its line (the same kill matrix for less CPU).")
    cpu_budget: int | None = Field(None, ge=1, description="Services (with their tests) run "
                                   "at once across all tasks of a build (cores).")
    max_rounds: int | None = Field(None, ge=0, le=20, description="Refine rounds before a "
                                   "discard; default: the rubric's routing.max_refine_rounds.")
    oracle_runs: int = Field(2, ge=1, le=10, description="Runs on fresh oracles per round.")
    split_seed: str = Field("repogenesis", description="Seed of the auto split choice.")
    verified_share: float = Field(0.28, ge=0, le=1, description="Share of new auto tasks "
                                  "verified, per difficulty level (the paper: 30 of 106).")
    split_prefer_expert: bool = Field(True, description="Expert-written auto tasks go to "
                                      "verified first, as in the paper.")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))


def load_settings(**overrides: object) -> Settings:
    return Settings(**overrides)
