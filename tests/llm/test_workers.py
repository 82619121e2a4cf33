"""Provider worker processes: the same answers and errors as the in-process adapter, a child
that dies leaves the calls to the parent, and a child never outlives its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from pydantic import BaseModel

from pipeline.llm import make_providers
from pipeline.llm.base import LLMRequest, Message
from pipeline.llm.errors import ProviderError
from pipeline.llm.schemas import ReviewOutput
from pipeline.llm.settings import PROVIDERS, LLMSettings
from pipeline.llm.workers import ProviderWorker, schema_ref

ROOT = Path(__file__).resolve().parents[2]


def request(provider: str, text: str = "review this") -> LLMRequest:
    return LLMRequest(provider=provider, model="m-1", stage="review", max_tokens=256,
                      messages=[Message(role="system", content="rubric", cache=True),
                                Message(role="user", content=text)])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by its parent) no longer runs
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def test_schema_ref_names_importable_classes_only() -> None:
    class Local(BaseModel):
        x: int

    assert schema_ref(ReviewOutput) == "pipeline.llm.schemas:ReviewOutput"
    assert schema_ref(None) == ""
    assert schema_ref(Local) is None  # defined in a function: the parent's adapter answers


@pytest.mark.slow  # starts worker processes
def test_only_providers_with_many_calls_in_flight_get_a_worker(fake) -> None:
    few = make_providers(LLMSettings())
    assert not any(isinstance(p, ProviderWorker) for p in few.values())
    assert LLMSettings().worker_process_from == 16  # from 16 in flight, not at the default 4
    many = make_providers(LLMSettings(concurrency=dict.fromkeys(PROVIDERS, 16),
                                      worker_process_from=16))
    try:
        assert {n for n, p in many.items() if isinstance(p, ProviderWorker)} == set(many)
        assert all(p.wait_ready() and p.pid != os.getpid() for p in many.values())
    finally:
        for p in many.values():
            p.close()
    off = make_providers(LLMSettings(concurrency=dict.fromkeys(PROVIDERS, 16),
                                     worker_process_from=0))
    assert not any(isinstance(p, ProviderWorker) for p in off.values())


@pytest.mark.slow  # starts worker processes
@pytest.mark.parametrize("name", PROVIDERS)
def test_a_worker_answers_like_the_adapter_in_this_process(fake, make_provider, name) -> None:
    local = make_provider(name)
    expected = local.complete(request(name), ReviewOutput)
    worker = ProviderWorker(make_provider(name), threads=4)
    try:
        assert worker.wait_ready() and worker.in_child
        before = len(fake.calls(name))
        got = worker.complete(request(name), ReviewOutput)
        assert len(fake.calls(name)) == before + 1  # the child made the call
        # the same answer; only the prompt cache differs (the prefix was sent before)
        assert got.model_dump(exclude={"response_id", "usage"}) == \
            expected.model_dump(exclude={"response_id", "usage"})
        assert got.usage.input_tokens == expected.usage.input_tokens
        assert got.usage.cached_tokens > expected.usage.cached_tokens == 0
        assert ReviewOutput.model_validate(got.parsed).correctness == \
            ReviewOutput.model_validate(expected.parsed).correctness
    finally:
        worker.close()
    assert not alive(worker.pid)
    assert not fake.invalid


@pytest.mark.slow  # starts worker processes
def test_calls_before_the_worker_is_ready_run_in_this_process(fake, make_provider,
                                                             monkeypatch) -> None:
    # a child that never gets ready (its interpreter cannot even start): every call is
    # answered by the parent's adapter, none is lost or delayed by the worker
    monkeypatch.setattr(sys, "executable", "/bin/false")
    worker = ProviderWorker(make_provider("gemini"), threads=2)
    try:
        assert worker.complete(request("gemini"), ReviewOutput).finish == "stop"
        assert not worker.wait_ready(timeout=30) and not worker.in_child
        assert worker.complete(request("gemini"), ReviewOutput).finish == "stop"
        assert len(fake.calls("gemini")) == 2
    finally:
        worker.close()


@pytest.mark.slow  # starts worker processes
def test_errors_cross_the_process_boundary_classified(fake, make_provider) -> None:
    worker = ProviderWorker(make_provider("anthropic"), threads=2)
    try:
        assert worker.wait_ready()
        fake.fault("429", at=0, provider="anthropic", retry_after=7)
        with pytest.raises(ProviderError) as err:
            worker.complete(request("anthropic"), ReviewOutput)
        assert err.value.retryable and err.value.status == 429
        assert err.value.retry_after_s == 7
        assert err.value.provider == "anthropic" and err.value.cause_type
        fake.fault("400", at=1, provider="anthropic")
        with pytest.raises(ProviderError) as bad:
            worker.complete(request("anthropic"), ReviewOutput)
        assert not bad.value.retryable and bad.value.status == 400
        assert worker.complete(request("anthropic"), ReviewOutput).finish == "stop"
    finally:
        worker.close()


@pytest.mark.slow  # starts worker processes
def test_a_dead_worker_leaves_the_calls_to_this_process(fake, make_provider) -> None:
    worker = ProviderWorker(make_provider("openai"), threads=2)
    try:
        assert worker.wait_ready()
        assert worker.complete(request("openai"), ReviewOutput).finish == "stop"
        os.kill(worker.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while worker.in_child and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not worker.in_child
        before = len(fake.calls("openai"))
        assert worker.complete(request("openai"), ReviewOutput).finish == "stop"
        assert len(fake.calls("openai")) == before + 1
    finally:
        worker.close()


@pytest.mark.slow  # starts worker processes
def test_a_worker_exits_when_its_parent_is_killed(fake) -> None:
    script = textwrap.dedent("""
        import sys, time
        from pipeline.llm import make_providers
        from pipeline.llm.settings import LLMSettings
        providers = make_providers(LLMSettings(concurrency={"openai": 32, "anthropic": 32,
                                                             "gemini": 32},
                                               worker_process_from=16))
        assert all(p.wait_ready() for p in providers.values())
        print(" ".join(str(p.pid) for p in providers.values()), flush=True)
        time.sleep(600)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == 3 and all(alive(p) for p in pids)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 15
        while any(alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(p) for p in pids)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
