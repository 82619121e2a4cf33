"""Typed records shared by every stage.

Records are plain pydantic models with no I/O so the pure core (routing, alpha,
difficulty, matching) can be tested with hand-built values.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

TASK_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
TASK_ID_RE = re.compile(TASK_ID_PATTERN)
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")

Language = Literal["python", "java"]
SplitName = Literal["verified", "train", "auto"]
Level = Literal["Easy", "Medium", "Hard"]


class Upstream(BaseModel):
    """Where an imported task came from (collect fills it)."""

    model_config = ConfigDict(extra="forbid")
    url: str | None = None
    commit: str | None = None
    license: str | None = None


class TaskConfig(BaseModel):
    """The contents of `data/raw/<id>/task.toml` (contract)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=TASK_ID_PATTERN)
    language: Language
    framework: str = Field(min_length=1)
    domain: str = Field(min_length=1)
    source: Literal["github", "expert"]
    port: int = Field(ge=1024, le=65535)
    split: SplitName = "auto"
    upstream: Upstream | None = None


class Param(BaseModel):
    """A documented parameter (path, query, header or body field)."""

    name: str
    location: Literal["path", "query", "header", "body"] = "query"
    type: str | None = None
    required: bool | None = None
    description: str = ""


class Endpoint(BaseModel):
    """One documented operation of a service, as a human expert reads it from the README."""

    method: str
    path: str
    summary: str = ""
    params: list[Param] = Field(default_factory=list)
    request_schema: dict[str, Any] | None = None
    request_example: Any = None
    response_schema: dict[str, Any] | None = None
    response_example: Any = None
    status_codes: dict[int, str] = Field(default_factory=dict)
    auth_required: bool | None = None

    @field_validator("method")
    @classmethod
    def _upper(cls, v: str) -> str:
        v = v.upper()
        if v not in HTTP_METHODS:
            raise ValueError(f"unknown HTTP method {v!r}")
        return v

    @property
    def key(self) -> tuple[str, str]:
        return (self.method, self.path)

    @property
    def path_params(self) -> list[str]:
        return re.findall(r"\{([^{}]+)\}", self.path)


class AuthSpec(BaseModel):
    """How the service authenticates callers, when the README says so."""

    scheme: str = "bearer"  # bearer | api-key | basic | token
    header: str = "Authorization"
    login_method: str | None = None
    login_path: str | None = None
    description: str = ""


class Spec(BaseModel):
    """Everything the generator needs from a requirement document."""

    title: str = ""
    port: int | None = None
    base_path: str = ""
    language: str = "en"
    auth: AuthSpec | None = None
    error_format: Any = None
    endpoints: list[Endpoint] = Field(default_factory=list)


class DifficultyMetrics(BaseModel):
    loc: int = 0
    cyclomatic_complexity: int = 0
    files: int = 0
    endpoints: int = 0
    functions_classes: int = 0


class DifficultyPoints(BaseModel):
    loc: float = 0.0
    cyclomatic_complexity: float = 0.0
    files: float = 0.0
    endpoints: float = 0.0
    functions_classes: float = 0.0


class Difficulty(BaseModel):
    score: float
    level: Level
    metrics: DifficultyMetrics
    points: DifficultyPoints
