"""The review rubric: `rubrics/rubric.yaml` loaded, validated, hashed and rendered for prompts.

Public API:
- `load_rubric(path=None) -> Rubric` (validated against the `Scores` ranges in records.py)
- `rubric_hash(path=None) -> str`: sha256 of the file's canonical content, first 16 hex digits
- `Rubric.render_text()` / `render_text(rubric)`: the rubric as plain text for a reviewer prompt

The hash is taken over the *parsed* YAML dumped as sorted, compact JSON, so comments, key order
and layout do not change it, while any change to a key, a number or an anchor text does.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from pipeline.paths import RUBRICS_DIR
from pipeline.records import RUBRIC_DIMENSIONS, Scores

DEFAULT_RUBRIC_PATH = RUBRICS_DIR / "rubric.yaml"
HASH_LENGTH = 16


class Dimension(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str
    name: str
    min: int = 0
    max: int
    question: str
    anchors: dict[int, str]

    @model_validator(mode="after")
    def _anchors_cover_range(self) -> Dimension:
        want = set(range(self.min, self.max + 1))
        if set(self.anchors) != want:
            raise ValueError(f"{self.key}: anchors must be exactly {sorted(want)}, "
                             f"got {sorted(self.anchors)}")
        if any(not text.strip() for text in self.anchors.values()):
            raise ValueError(f"{self.key}: empty anchor text")
        return self


class Routing(BaseModel):
    """The router's thresholds; required here so the YAML is their only home."""

    model_config = ConfigDict(extra="forbid")
    accept_mean: float = Field(ge=0)
    conflict_spread: int = Field(ge=0)
    max_refine_rounds: int = Field(ge=0, le=20)
    failing_is_rejected: bool


class Range(BaseModel):
    min: int = 0
    max: int = 10


class Rubric(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int
    name: str
    total: Range = Field(default_factory=Range)
    routing: Routing
    terms: dict[str, str] = Field(default_factory=dict)
    dimensions: list[Dimension]
    hash: str = ""  # filled by load_rubric / from_text; not part of the hashed content

    @model_validator(mode="after")
    def _matches_scores(self) -> Rubric:
        keys = tuple(d.key for d in self.dimensions)
        if keys != RUBRIC_DIMENSIONS:
            raise ValueError(f"dimensions must be {RUBRIC_DIMENSIONS} in order, got {keys}")
        for d in self.dimensions:
            lo, hi = _score_range(d.key)
            if (d.min, d.max) != (lo, hi):
                raise ValueError(f"{d.key}: range {d.min}-{d.max} differs from Scores {lo}-{hi}")
        if sum(d.max for d in self.dimensions) != self.total.max:
            raise ValueError("dimension maxima do not add up to the total maximum")
        return self

    def dimension(self, key: str) -> Dimension:
        for d in self.dimensions:
            if d.key == key:
                return d
        raise KeyError(key)

    def max_of(self, key: str) -> int:
        return self.dimension(key).max

    def clamp(self, key: str, value: int) -> int:
        d = self.dimension(key)
        return max(d.min, min(d.max, int(value)))

    def accepts(self, mean: float) -> bool:
        return mean >= self.routing.accept_mean

    def conflicts(self, totals: list[int]) -> bool:
        return bool(totals) and max(totals) - min(totals) > self.routing.conflict_spread

    def render_text(self) -> str:
        """Made once per rubric content (its hash): every review prompt of a round shows it."""
        if not self.hash:
            return render_text(self)
        text = _TEXTS.get(self.hash)
        if text is None:
            text = _TEXTS[self.hash] = render_text(self)
        return text


_TEXTS: dict[str, str] = {}  # rubric hash -> its prompt text


def _score_range(key: str) -> tuple[int, int]:
    lo, hi = 0, 0
    for m in Scores.model_fields[key].metadata:
        lo = getattr(m, "ge", lo)
        hi = getattr(m, "le", hi)
    return lo, hi


def canonical_content(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def hash_text(text: str) -> str:
    """The content hash of rubric YAML text (short sha256 hex of its canonical form)."""
    data = yaml.safe_load(text)
    digest = hashlib.sha256(canonical_content(data).encode("utf-8")).hexdigest()
    return digest[:HASH_LENGTH]


def from_text(text: str) -> Rubric:
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        raise ValueError("rubric YAML must be a mapping")
    rubric = Rubric.model_validate(data)
    rubric.hash = hash_text(text)
    return rubric


def load_rubric(path: str | Path | None = None) -> Rubric:
    """The rubric as the file reads now (an edit applies at once), parsed once per text: the
    YAML parse took 40 ms, and the Area Chair's queue asks for the routing block per case."""
    return _parsed(Path(path or DEFAULT_RUBRIC_PATH).read_text(encoding="utf-8")) \
        .model_copy(deep=True)


@lru_cache(maxsize=8)
def _parsed(text: str) -> Rubric:
    return from_text(text)


def rubric_hash(path: str | Path | None = None) -> str:
    return hash_text(Path(path or DEFAULT_RUBRIC_PATH).read_text(encoding="utf-8"))


def render_text(rubric: Rubric) -> str:
    """Plain-text rubric for a reviewer prompt: dimensions, anchors, terms and routing."""
    r = rubric.routing
    lines = [
        f"Rubric {rubric.name} v{rubric.version} (hash {rubric.hash or 'unhashed'}); "
        f"total {rubric.total.min}-{rubric.total.max}.",
        "Score every dimension with the highest level whose anchor the test fully meets "
        "(between two anchors, take the lower).",
        "",
    ]
    for d in rubric.dimensions:
        lines.append(f"{d.name} [{d.key}] ({d.min}-{d.max}): {d.question}")
        for level in sorted(d.anchors, reverse=True):
            lines.append(f"  {level}: {' '.join(d.anchors[level].split())}")
        lines.append("")
    if rubric.terms:
        lines.append("Terms:")
        lines += [f"  - {k}: {' '.join(v.split())}" for k, v in rubric.terms.items()]
        lines.append("")
    lines.append(
        f"Routing: accepted when the reviewers' mean total >= {r.accept_mean:g}; totals spread "
        f"> {r.conflict_spread} goes to an Area Chair; at most {r.max_refine_rounds} refine rounds."
    )
    return "\n".join(lines)
