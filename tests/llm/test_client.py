"""LLMClient: cache, retries, concurrency, truncation, re-asks, ledger; scripted fake provider."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from pipeline.llm.base import (
    BatchItem,
    BatchResult,
    BatchStatus,
    LLMRequest,
    LLMResponse,
    Message,
    Usage,
)
from pipeline.llm.batch import run_batch_round
from pipeline.llm.cache import cache_key
from pipeline.llm.client import Call, LLMClient
from pipeline.llm.errors import ProviderError
from pipeline.llm.ledger import ledger_summary
from pipeline.llm.settings import LLMSettings, Price
from pipeline.store import Store

Script = Callable[[LLMRequest], LLMResponse | Exception]


class Answer(BaseModel):
    value: int = Field(ge=0, le=3)


def ok(value: int = 1, **usage: int) -> LLMResponse:
    return LLMResponse(text=json.dumps({"value": value}), parsed={"value": value},
                       finish="stop", usage=Usage(**usage), model="m")


def err(status: int, retryable: bool, retry_after: float | None = None,
        message: str = "boom") -> ProviderError:
    return ProviderError(message, provider="openai", retryable=retryable, status=status,
                         retry_after_s=retry_after)


class FakeProvider:
    """Scripted in-process provider: `script` is a list (one item per call) or a function."""

    def __init__(self, script: list | Script, name: str = "openai", delay: float = 0.0):
        self.name = name
        self.script = script
        self.delay = delay
        self.requests: list[LLMRequest] = []
        self.active = 0
        self.peak = 0
        self._lock = threading.Lock()
        self.batches: dict[str, dict] = {}
        self.submitted: list[str] = []
        self.polled: list[str] = []

    def complete(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        with self._lock:
            self.requests.append(request)
            self.active += 1
            self.peak = max(self.peak, self.active)
            index = len(self.requests) - 1
        try:
            time.sleep(self.delay)
            item = self.script(request) if callable(self.script) else self.script[index]
            if isinstance(item, Exception):
                raise item
            return item
        finally:
            with self._lock:
                self.active -= 1

    def submit_batch(self, items: list[BatchItem], schema: type[BaseModel] | None) -> str:
        batch_id = f"batch-{len(self.batches) + 1}"
        self.batches[batch_id] = {"items": items, "polls": 0}
        self.submitted.append(batch_id)
        return batch_id

    def poll_batch(self, batch_id: str, schema: type[BaseModel] | None) -> BatchStatus:
        self.polled.append(batch_id)
        batch = self.batches[batch_id]
        batch["polls"] += 1
        if batch["polls"] < 2:
            return BatchStatus(batch_id=batch_id, state="running")
        return BatchStatus(batch_id=batch_id, state="done", results=[
            BatchResult(custom_id=i.custom_id, response=ok(2, input_tokens=10, output_tokens=2))
            for i in batch["items"]])


def request(text: str = "hi", **kw: object) -> LLMRequest:
    fields = {"provider": "openai", "model": "m", "stage": "review",
              "messages": [Message(role="system", content="rubric", cache=True),
                           Message(role="user", content=text)], **kw}
    return LLMRequest(**fields)


@pytest.fixture
def store(tmp_path: Path):
    s = Store.open(tmp_path / "state.db")
    yield s
    s.close()


def settings(**kw: object) -> LLMSettings:
    base = {"prices": {"openai:m": Price(input=1.0, output=2.0, cached=0.1)},
            "concurrency": {"openai": 4}}
    return LLMSettings(**{**base, **kw})


def make(store: Store, script: list | Script, **kw: object) -> tuple[LLMClient, FakeProvider,
                                                                     list[float]]:
    provider = FakeProvider(script, delay=float(kw.pop("delay", 0.0)))  # type: ignore[arg-type]
    waits: list[float] = []
    client = LLMClient({"openai": provider}, store, settings(**kw), sleep=waits.append)
    return client, provider, waits


def outcomes(store: Store) -> list[str]:
    return [r[0] for r in store._conn.execute("SELECT outcome FROM llm_calls ORDER BY id")]


# --- cache ----------------------------------------------------------------------------------


def test_cache_hit_costs_zero_provider_calls_even_after_restart(tmp_path: Path) -> None:
    db = tmp_path / "state.db"
    with Store.open(db) as store:
        client, provider, _ = make(store, [ok(2)])
        first = client.complete(request(), Answer)
        second = client.complete(request(stage="other"), Answer)
        assert first.ok and first.value == Answer(value=2) and first.outcome == "ok"
        assert second.ok and second.cached and second.outcome == "cache_hit"
        assert len(provider.requests) == 1
    with Store.open(db) as store:  # a rerun: a new process, the same state file
        client, provider, _ = make(store, [])
        again = client.complete(request(), Answer)
        assert again.ok and again.value == Answer(value=2) and provider.requests == []
        assert outcomes(store) == ["ok", "cache_hit", "cache_hit"]


def test_cache_key_ignores_stage_and_cache_marks_but_not_output_settings() -> None:
    base = cache_key(request(), Answer)
    assert cache_key(request(stage="generate"), Answer) == base
    marks = request()
    marks.messages[0].cache = False
    assert cache_key(marks, Answer) == base
    for changed in (request(temperature=0.7), request(model="m2"), request(max_tokens=99),
                    request(text="other"), request(provider="anthropic")):
        assert cache_key(changed, Answer) != base
    assert cache_key(request(), None) != base


def test_cache_key_is_the_sha256_of_the_sorted_request_json() -> None:
    """Keys stored by earlier versions stay valid: the key assembled from its parts (the
    messages' text shared by a case's reviewers) is the hash of the plain JSON form."""
    import hashlib

    from pipeline.llm.cache import key_prefix

    req = request('quote " back\\slash é 中文\n', temperature=0.7)
    payload = {"provider": "openai", "model": "m", "temperature": 0.7, "max_tokens": 10,
               "messages": [{"role": m.role, "content": m.content} for m in req.messages],
               "schema": Answer.model_json_schema()}
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
    req = req.model_copy(update={"max_tokens": 10})
    assert cache_key(req, Answer) == expected
    shared = key_prefix(req)  # one prefix finished twice: each copy, the same key
    assert cache_key(req, Answer, shared) == cache_key(req, Answer, shared) == expected


def test_same_request_in_parallel_is_sent_once(store: Store) -> None:
    client, provider, _ = make(store, lambda r: ok(1), delay=0.05)
    calls = [Call(request(), Answer) for _ in range(4)]
    results = client.complete_all(calls)
    assert all(r.ok for r in results)
    assert len(provider.requests) == 1
    assert sorted(outcomes(store)) == ["cache_hit"] * 3 + ["ok"]


def test_calls_given_as_a_generator_are_sent_before_the_last_one_is_made(store: Store) -> None:
    """A round's prompts are rendered while its first requests are in flight: the generator
    waits for the provider to see a request before making the rest."""
    from pipeline.llm.client import DISPATCH_CHUNK

    client, provider, _ = make(store, lambda r: ok(1))
    seen_while_making: list[int] = []

    def calls():
        for i in range(DISPATCH_CHUNK + 5):
            if i == DISPATCH_CHUNK:  # the first chunk is made: it must be on its way
                deadline = time.monotonic() + 5
                while not provider.requests and time.monotonic() < deadline:
                    time.sleep(0.01)
                seen_while_making.append(len(provider.requests))
            yield Call(request(f"q{i}"), Answer)
    results = client.complete_all(calls())
    assert len(results) == DISPATCH_CHUNK + 5 and all(r.ok for r in results)
    assert seen_while_making and seen_while_making[0] > 0
    assert [r.value.value for r in results] == [1] * (DISPATCH_CHUNK + 5)  # in call order


def test_rounds_reuse_the_threads_of_the_first_round(store: Store) -> None:
    """Threads are made once per provider, not per round (starting dozens of threads a round
    spread its first requests over tens of milliseconds), and never more than the pool width."""
    from pipeline.llm.client import pool_width

    threads: list[set[threading.Thread]] = [set(), set()]  # the objects: an ident is reused
    current = [0]

    def answer(r: LLMRequest) -> LLMResponse:
        threads[current[0]].add(threading.current_thread())
        return ok(1)

    client, provider, _ = make(store, answer, delay=0.05)
    for i in range(2):
        current[0] = i
        done = client.complete_all([Call(request(f"round {i} call {n}"), Answer)
                                    for n in range(12)])
        assert all(d.ok for d in done)
    assert provider.peak == 4  # the limit, as before
    assert threads[1] <= threads[0] and len(threads[0]) <= pool_width(4)


def test_a_round_reads_the_cache_once_and_asks_only_for_the_misses(store: Store) -> None:
    client, provider, _ = make(store, lambda r: ok(1))
    assert client.complete(request("a"), Answer).ok and client.complete(request("b"), Answer).ok
    client.cache.put(cache_key(request("c"), Answer),  # a cached answer that no longer validates
                     LLMResponse(text='{"value": 9}', parsed={"value": 9}, finish="stop",
                                 model="m"), "openai", "m")
    reads: list[str] = []
    store._conn.set_trace_callback(
        lambda sql: reads.append(sql) if sql.lstrip().startswith("SELECT") and "llm_cache" in sql
        else None)
    try:
        results = client.complete_all([Call(request(t), Answer) for t in "abcde"])
    finally:
        store._conn.set_trace_callback(None)
    assert [r.outcome for r in results] == ["cache_hit", "cache_hit", "ok", "ok", "ok"]
    assert sorted(r.messages[-1].content for r in provider.requests[2:]) == ["c", "d", "e"]
    assert len(reads) == 1  # one query for the round, none per call


# --- retries --------------------------------------------------------------------------------


def test_retry_honours_retry_after_then_backs_off(store: Store) -> None:
    client, provider, waits = make(store, [err(429, True, 7.0), err(500, True), ok()])
    result = client.complete(request(), Answer)
    assert result.ok and len(provider.requests) == 3
    assert waits[0] == 7.0
    assert 0 <= waits[1] <= client.settings.backoff_max_s
    assert outcomes(store) == ["retry", "retry", "ok"]


def test_retry_after_is_capped(store: Store) -> None:
    client, _, waits = make(store, [err(429, True, 10_000.0), ok()], retry_after_max_s=30)
    assert client.complete(request(), Answer).ok
    assert waits == [30.0]


def test_no_retry_on_non_retryable(store: Store) -> None:
    client, provider, waits = make(store, [err(400, False, message="bad schema"), ok()])
    result = client.complete(request(), Answer)
    assert not result.ok and result.outcome == "error" and "bad schema" in (result.error or "")
    assert len(provider.requests) == 1 and waits == []
    assert outcomes(store) == ["error"]


def test_retries_are_bounded(store: Store) -> None:
    client, provider, waits = make(store, lambda r: err(529, True), max_attempts=3)
    result = client.complete(request(), Answer)
    assert not result.ok and len(provider.requests) == 3 and len(waits) == 2
    assert outcomes(store) == ["retry", "retry", "error"]
    assert client.complete(request(), Answer).ok is False  # a failure is never cached
    assert len(provider.requests) == 6


def test_unexpected_exception_is_classified_not_raised(store: Store) -> None:
    client, provider, _ = make(store, [RuntimeError("bug in adapter")])
    result = client.complete(request(), Answer)
    assert not result.ok and "bug in adapter" in (result.error or "")
    assert len(provider.requests) == 1


# --- concurrency ----------------------------------------------------------------------------


def test_concurrency_limit_per_provider(store: Store) -> None:
    client, provider, _ = make(store, lambda r: ok(), delay=0.03, concurrency={"openai": 2})
    calls = [Call(request(f"q{i}"), Answer) for i in range(10)]
    results = client.complete_all(calls)
    assert all(r.ok for r in results) and len(provider.requests) == 10
    assert provider.peak == 2


def test_a_slot_left_by_a_backing_off_call_goes_to_the_next_call(store: Store) -> None:
    """Workers outnumber slots: while a call waits to retry, another call uses its slot."""
    texts = ["q0", "q1"]
    seen: set[str] = set()
    all_sent = threading.Event()

    def script(r: LLMRequest) -> LLMResponse:
        text = r.messages[-1].content
        first = text not in seen
        seen.add(text)
        if seen == set(texts):
            all_sent.set()
        if first:
            raise err(503, True)
        return ok()

    provider = FakeProvider(script)
    woke: list[bool] = []
    client = LLMClient({"openai": provider}, store, settings(concurrency={"openai": 1}),
                       sleep=lambda s: woke.append(all_sent.wait(5)))
    results = client.complete_all([Call(request(t), Answer) for t in texts])
    assert all(r.ok for r in results) and len(provider.requests) == 4
    assert woke == [True, True]  # each backoff saw the other call sent meanwhile
    assert provider.peak == 1


def test_calls_run_sequentially_inside_a_store_transaction(store: Store) -> None:
    client, provider, _ = make(store, lambda r: ok(), delay=0.01)
    with store.transaction():
        results = client.complete_all([Call(request(f"q{i}"), Answer) for i in range(3)])
    assert all(r.ok for r in results) and provider.peak == 1


# --- truncation and invalid output ----------------------------------------------------------


def cut() -> LLMResponse:
    return LLMResponse(text='{"val', finish="length", model="m",
                       usage=Usage(input_tokens=5, output_tokens=100))


def test_truncated_output_retried_once_with_doubled_max_tokens(store: Store) -> None:
    client, provider, _ = make(store, [cut(), ok()])
    result = client.complete(request(max_tokens=1000), Answer)
    assert result.ok
    assert [r.max_tokens for r in provider.requests] == [1000, 2000]
    assert outcomes(store) == ["truncated", "ok"]
    # cached under the original request's key
    assert client.complete(request(max_tokens=1000), Answer).cached


def test_truncated_twice_is_a_bounded_failure(store: Store) -> None:
    client, provider, _ = make(store, lambda r: cut())
    result = client.complete(request(max_tokens=1000), Answer)
    assert not result.ok and result.outcome == "truncated"
    assert len(provider.requests) == 2
    client2, provider2, _ = make(store, lambda r: cut(), max_tokens_cap=1000)
    assert not client2.complete(request(max_tokens=1000, text="x"), Answer).ok
    assert len(provider2.requests) == 1  # already at the cap: not re-sent


def bad(text: str) -> LLMResponse:
    return LLMResponse(text=text, finish="stop", model="m", usage=Usage(input_tokens=3))


def test_invalid_answer_reasked_with_the_error_then_accepted(store: Store) -> None:
    client, provider, _ = make(store, [bad('{"value": 9}'), ok(3)])
    result = client.complete(request(), Answer)
    assert result.ok and result.value == Answer(value=3)
    reask = provider.requests[1].messages
    assert reask[-2].role == "assistant" and reask[-2].content == '{"value": 9}'
    assert reask[-1].role == "user" and "less than or equal to 3" in reask[-1].content
    assert outcomes(store) == ["invalid", "ok"]
    assert client.complete(request(), Answer).cached


def test_invalid_answer_is_a_failure_after_bounded_reasks(store: Store) -> None:
    client, provider, _ = make(store, lambda r: bad("not json at all"), invalid_retries=2)
    result = client.complete(request(), Answer)
    assert not result.ok and result.outcome == "invalid" and "JSON" in (result.error or "")
    assert len(provider.requests) == 3
    assert outcomes(store) == ["invalid"] * 3


def test_check_hook_failures_are_reasked(store: Store) -> None:
    def no_zero(value: BaseModel) -> None:
        if value.value == 0:  # type: ignore[attr-defined]
            raise ValueError("value must not be 0")

    client, provider, _ = make(store, [ok(0), ok(1)])
    result = client.complete(request(), Answer, check=no_zero)
    assert result.ok and result.value == Answer(value=1)
    assert "value must not be 0" in provider.requests[1].messages[-1].content


def test_text_answer_in_code_fence_is_parsed(store: Store) -> None:
    client, _, _ = make(store, [bad('Here:\n```json\n{"value": 2}\n```')])
    assert client.complete(request(), Answer).value == Answer(value=2)


# --- ledger ---------------------------------------------------------------------------------


def test_ledger_rows_tokens_and_cost(store: Store) -> None:
    client, _, _ = make(store, [ok(1, input_tokens=1000, output_tokens=200, cached_tokens=400)])
    client.complete(request(), Answer, task_id="t1", case_id="t1::test_a")
    client.complete(request(), Answer)
    row = store._conn.execute(
        "SELECT provider, model, stage, task_id, case_id, tokens_in, tokens_out, "
        "tokens_cached, cost, outcome, cache_key FROM llm_calls ORDER BY id").fetchall()
    assert row[0][:8] == ("openai", "m", "review", "t1", "t1::test_a", 1000, 200, 400)
    assert row[0][8] == pytest.approx((600 * 1.0 + 400 * 0.1 + 200 * 2.0) / 1e6)
    assert row[0][9] == "ok" and row[0][10] == cache_key(request(), Answer)
    assert row[1][5:10] == (0, 0, 0, 0.0, "cache_hit")
    summary = ledger_summary(store)
    assert summary["calls"] == 1 and summary["cache_hits"] == 1
    assert summary["total_cost"] == pytest.approx(0.00104)
    assert summary["by"][0]["input_tokens"] == 1000


def test_no_api_key_is_ever_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-fake-0123456789SECRETKEY"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    db = tmp_path / "state.db"
    with Store.open(db) as store:
        client, _, _ = make(store, [err(401, False, message=f"invalid key {secret}"),
                                    bad(f"echo {secret}"), ok()])
        failed = client.complete(request("a"), Answer)
        assert secret not in (failed.error or "")
        client.complete(request("b"), Answer)
    blob = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert secret.encode() not in blob


# --- batch ----------------------------------------------------------------------------------


def test_batch_round_fills_cache_and_resumes_the_same_ids_after_restart(tmp_path: Path) -> None:
    db = tmp_path / "state.db"
    calls = [Call(request(f"q{i}"), Answer, context={"case_id": f"c{i}"}) for i in range(3)]
    server_side = FakeProvider([])  # the provider's state survives the client's death
    with Store.open(db) as store:
        client = LLMClient({"openai": server_side}, store, settings(), sleep=lambda s: None)
        report = run_batch_round(client, calls, timeout_s=0)  # "killed" while running
        assert report.submitted == 3 and server_side.submitted == ["batch-1"]
        assert report.left == 3
    with Store.open(db) as store:  # restart
        client = LLMClient({"openai": server_side}, store, settings(), sleep=lambda s: None)
        report = run_batch_round(client, calls, poll_s=0)
        assert report.submitted == 0 and report.resumed == 3 and report.filled == 3
        assert server_side.submitted == ["batch-1"]
        assert set(server_side.polled) == {"batch-1"}
        results = [client.complete(c.request, c.schema) for c in calls]
        assert all(r.cached and r.value == Answer(value=2) for r in results)
        assert server_side.requests == []  # the normal path made no provider call
        again = run_batch_round(client, calls)
        assert again.cached == 3 and again.submitted == 0
        rows = store._conn.execute("SELECT batch_id, stage, cost FROM llm_calls "
                                   "WHERE outcome = 'ok'").fetchall()
        assert {r[0] for r in rows} == {"batch-1"} and {r[1] for r in rows} == {"review"}
        assert rows[0][2] == pytest.approx((10 * 1.0 + 2 * 2.0) / 1e6 * 0.5)
