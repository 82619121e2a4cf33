"""Provider worker processes: the same answers and errors as the in-process adapter, a child
that dies leaves the calls to the parent, and a child never outlives its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pydantic import BaseModel

from pipeline.llm import make_providers
from pipeline.llm.base import LLMRequest, Message
from pipeline.llm.client import Call, LLMClient
from pipeline.llm.errors import ProviderError
from pipeline.llm.schemas import ReviewOutput
from pipeline.llm.settings import PROVIDERS, LLMSettings
from pipeline.llm.workers import ProviderWorker, schema_ref
from pipeline.store import Store

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
    worker = ProviderWorker(make_provider(name), limit=4)
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
    worker = ProviderWorker(make_provider("gemini"), limit=2)
    try:
        assert worker.complete(request("gemini"), ReviewOutput).finish == "stop"
        assert not worker.wait_ready(timeout=30) and not worker.in_child
        assert worker.complete(request("gemini"), ReviewOutput).finish == "stop"
        assert len(fake.calls("gemini")) == 2
    finally:
        worker.close()


@pytest.mark.slow  # starts worker processes
def test_errors_cross_the_process_boundary_classified(fake, make_provider) -> None:
    worker = ProviderWorker(make_provider("anthropic"), limit=2)
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
    worker = ProviderWorker(make_provider("openai"), limit=2)
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


def _distinct(provider: str, n: int, tag: str) -> list[Call]:
    return [Call(request(provider, f"{tag} {i}"), ReviewOutput) for i in range(n)]


@pytest.mark.slow  # starts a worker process
def test_a_worker_queues_its_extra_calls_and_never_exceeds_its_limit(fake, make_provider,
                                                                     tmp_path) -> None:
    # the client sends a worker more than its limit (the next calls wait next to the SDK);
    # the provider still sees exactly `limit` at once, and the ledger's latency is the
    # provider's time, not the wait for a slot (the last calls waited two latencies)
    limit, latency = 3, 0.3
    worker = ProviderWorker(make_provider("openai"), limit=limit)
    store = Store.open(tmp_path / "state.db")
    try:
        assert worker.wait_ready()
        client = LLMClient({"openai": worker}, store,
                           LLMSettings(concurrency={"openai": limit}))
        fake.latency_s = latency
        done = client.complete_all(_distinct("openai", 3 * limit, "queued"))
        assert all(c.ok for c in done)
        assert fake.max_in_flight == {"openai": limit}
        latencies = [r["latency_ms"] for r in store.llm_calls(outcome="ok")]
        assert len(latencies) == 3 * limit
        assert max(latencies) < 1000 * latency * 1.8, latencies
    finally:
        worker.close()
        store.close()


@pytest.mark.slow  # starts a worker process
def test_calls_made_in_this_process_count_against_the_same_limit(fake, make_provider) -> None:
    # a schema the child cannot import runs in the parent's adapter: while the child serves,
    # such a call holds one of the child's slots, so the two together stay within the limit
    class Local(BaseModel):
        verdict: str = ""

    limit = 3
    worker = ProviderWorker(make_provider("anthropic"), limit=limit)
    try:
        assert worker.wait_ready()
        fake.latency_s = 0.3
        jobs = [(request("anthropic", f"child {i}"), ReviewOutput) for i in range(2 * limit)]
        jobs += [(request("anthropic", f"here {i}"), Local) for i in range(2 * limit)]
        with ThreadPoolExecutor(4 * limit) as pool:
            answers = list(pool.map(lambda job: worker.complete(*job), jobs))
        assert all(a.finish == "stop" for a in answers)
        assert fake.max_in_flight == {"anthropic": limit}
        assert worker.in_child  # the hold/release exchange left the child serving
    finally:
        worker.close()


@pytest.mark.slow  # starts a worker process
def test_the_switch_to_a_ready_worker_waits_for_the_calls_made_here(fake, make_provider) -> None:
    # calls start at once, in the parent's adapter, while the child warms up; when it is
    # ready it takes calls only after those finished, never `limit` more beside them
    limit = 4
    fake.latency_s = 0.3
    worker = ProviderWorker(make_provider("gemini"), limit=limit)
    stop = time.monotonic() + 60
    served: list[bool] = []

    def keep_calling(i: int) -> None:
        time.sleep(i * 0.3 / (2 * limit))  # calls end at different times, not in waves
        n = 0
        while time.monotonic() < stop and not (served and all(served[-limit:])):
            assert worker.complete(request("gemini", f"{i} {n}"), ReviewOutput).finish == "stop"
            served.append(worker.in_child)
            n += 1

    try:
        with ThreadPoolExecutor(2 * limit) as pool:
            list(pool.map(keep_calling, range(2 * limit)))
        assert served[0] is False and served[-1] is True  # it switched during the calls
        assert fake.max_in_flight == {"gemini": limit}
    finally:
        worker.close()
