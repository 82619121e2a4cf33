"""bench/plain_server.py, the CPU-light provider stand-in of `bench/providers.py --server
plain`: its replayed answers must stay answers the SDKs parse and the client accepts, or the
bench measures failures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.llm import make_providers
from pipeline.llm.base import LLMRequest, Message
from pipeline.llm.schemas import ReviewOutput
from pipeline.llm.settings import PROVIDERS, LLMSettings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    log = tmp_path / "calls.log"
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "plain_server.py"),
                             "--latency-ms", "50", "--log", str(log)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        for key, value in json.loads(line)["env"].items():
            monkeypatch.setenv(key, value)
        yield log
    finally:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # never leave it behind
            proc.kill()
            proc.wait()


def test_replayed_answers_parse_in_every_sdk(plain: Path) -> None:
    providers = make_providers(LLMSettings(concurrency=dict.fromkeys(PROVIDERS, 4)))
    assert set(providers) == set(PROVIDERS)
    before = len(plain.read_text().splitlines()) if plain.exists() else 0
    for name, provider in providers.items():
        for text in ("first: the fake server answers", "second: replayed"):
            request = LLMRequest(provider=name, model="m-1", stage="review", max_tokens=256,
                                 messages=[Message(role="system", content="rubric"),
                                           Message(role="user", content=text)])
            answer = provider.complete(request, ReviewOutput)
            assert answer.finish == "stop", (name, text, answer)
            ReviewOutput.model_validate(answer.parsed)  # what the client accepts
    calls = [tuple(map(float, line.split())) for line in plain.read_text().splitlines()]
    assert len(calls) - before == 2 * len(PROVIDERS)
    assert all(sent - arrived >= 0.05 for arrived, sent in calls[before:])  # the latency


@pytest.mark.slow
def test_sdk_floor_bench_times_real_calls_in_both_kinds() -> None:
    """bench/sdk_floor.py's floor and pipeline rounds go through the SDKs to the server: no
    failed call, no round shorter than the latency, each round's requests seen arriving."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "sdk_floor.py"), "--cases", "2",
                          "--rounds", "3", "--latency-ms", "80"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["failed_calls"] == 0
    for kind in ("floor", "pipeline"):
        assert figures[kind]["median_ms"] >= 80, figures
        assert figures[kind]["last_arrival_ms"] is not None, figures
    assert figures["pipeline_of_floor"] == pytest.approx(
        figures["pipeline"]["ratio_to_ideal"] / figures["floor"]["ratio_to_ideal"], abs=0.002)
