"""bench/build_llm.py's reading of a build's calls: rounds, their fastest time, and the view
from the servers' side (the figure a different server measuring from outside would give)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from build_llm import round_times, rounds, server_calls, stage_of, sums  # noqa: E402


def call(provider: str, start: float, end: float, stage: str = "", task: str = "") -> dict:
    return {"provider": provider, "start": start, "end": end, "stage": stage, "task": task}


def test_server_log_rounds_end_whenever_nothing_is_in_flight(tmp_path: Path) -> None:
    log = tmp_path / "server-calls.log"
    # a one-wave round of three providers, then (its answers read) a dependent call
    log.write_text("10.00 10.30 openai\n10.01 10.31 anthropic\n10.03 10.33 gemini\n"
                   "10.34 10.64 openai\n")
    seen = server_calls(log)
    assert [r["provider"] for r in seen] == ["openai", "anthropic", "gemini", "openai"]
    split = rounds(seen, 0.0)
    assert [len(one) for one in split] == [3, 1]  # the later call never shares the wave
    first, second = (round_times(one, 32, 0.3, 0.0) for one in split)
    assert first[:2] == pytest.approx((0.3, 0.33))
    assert second[:2] == pytest.approx((0.3, 0.3))
    assert sums([first, second])["ratio_to_ideal"] == pytest.approx(0.6 / 0.63, abs=1e-3)
    # the ledger's view with its 0.1 s gap would count them as one round of one wave
    assert len(rounds(seen, 0.1)) == 1


def test_waves_count_calls_past_the_concurrency() -> None:
    one = [call("openai", 0.0, 0.3)] * 33 + [call("gemini", 0.0, 0.3)]
    assert round_times(one, 32, 0.3, 0.0)[0] == pytest.approx(0.6)  # 33 calls: two waves


def test_an_outside_round_takes_the_stage_of_the_ledger_calls_at_that_time() -> None:
    ledger = [call("openai", 0.0, 0.3, "review"), call("gemini", 0.0, 0.3, "review"),
              call("openai", 0.31, 0.6, "refine"), call("openai", 5.0, 5.3, "generate")]
    assert stage_of([call("openai", 0.01, 0.29)], ledger) == "review"
    assert stage_of([call("openai", 4.9, 5.4)], ledger) == "generate"
    assert stage_of([call("openai", 9.0, 9.3)], ledger) == "unknown"
