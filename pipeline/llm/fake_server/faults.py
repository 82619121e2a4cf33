"""Scriptable faults for the fake provider server: by call index or by seeded probability."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

# kind: latency | 429 | 500 | 503 | 529 | malformed | truncate | spend_limit | 400 | 401
KINDS = (
    "latency", "429", "500", "503", "529", "malformed", "truncate", "spend_limit", "400", "401",
)


@dataclass(frozen=True)
class Fault:
    kind: str
    delay_s: float = 0.0
    retry_after: float | None = None  # `Retry-After` header, seconds
    retry_after_ms: float | None = None  # `retry-after-ms` header
    message: str = ""
    code: str | None = None  # error code in the body (anthropic details.error_code, openai code)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}; one of {KINDS}")

    @property
    def status(self) -> int | None:
        if self.kind in ("latency", "truncate", "malformed"):
            return None
        return {"spend_limit": 429}.get(self.kind, int(self.kind) if self.kind.isdigit() else 500)


@dataclass
class _Rule:
    faults: list[Fault]
    provider: str | None
    endpoint: str  # "call" (model calls), "batch" (batch endpoints), "any"
    at: set[int] | None
    rate: float
    rng: random.Random | None
    times: int | None = None
    fired: int = 0

    def matches(self, provider: str, endpoint: str) -> bool:
        if self.provider not in (None, provider):
            return False
        return self.endpoint in ("any", endpoint)


@dataclass
class FaultScript:
    """Decides, per incoming request, which fault (if any) applies.

    The call index is counted per provider over requests of the rule's endpoint class
    ("call": chat/messages/generateContent; "batch": batch and file endpoints), from 0.
    """

    rules: list[_Rule] = field(default_factory=list)
    _counts: dict[tuple[str, str], int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(
        self,
        fault: Fault,
        *,
        at: int | Iterable[int] | None = None,
        provider: str | None = None,
        endpoint: str = "call",
        times: int | None = None,
    ) -> None:
        """`at` None means every matching request (bounded by `times`)."""
        index = {at} if isinstance(at, int) else (set(at) if at is not None else None)
        with self._lock:
            self.rules.append(_Rule([fault], provider, endpoint, index, 1.0, None, times))

    def add_random(
        self,
        rate: float,
        faults: Iterable[Fault],
        *,
        seed: int = 0,
        provider: str | None = None,
        endpoint: str = "call",
    ) -> None:
        with self._lock:
            self.rules.append(
                _Rule(list(faults), provider, endpoint, None, rate, random.Random(seed))
            )

    def clear(self) -> None:
        with self._lock:
            self.rules.clear()
            self._counts.clear()

    def next_fault(self, provider: str, endpoint: str) -> Fault | None:
        with self._lock:
            key = (provider, endpoint)
            index = self._counts.get(key, 0)
            self._counts[key] = index + 1
            for rule in self.rules:
                if not rule.matches(provider, endpoint):
                    continue
                if rule.times is not None and rule.fired >= rule.times:
                    continue
                if rule.at is not None and index not in rule.at:
                    continue
                if rule.rng is not None:
                    draw = rule.rng.random()
                    pick = rule.rng.choice(rule.faults)
                    if draw >= rule.rate:
                        continue
                    rule.fired += 1
                    return pick
                rule.fired += 1
                return rule.faults[0]
            return None
