"""The one wrapper every model call goes through: cache, retries, concurrency, ledger.

Public API:
- `LLMClient(providers, store, settings, sleep=time.sleep)`
- `client.complete(request, schema=None, *, check=None, task_id=None, case_id=None)
  -> Completion`: never raises for a provider or output problem; `Completion.ok` is False
  and `.error` says why (the caller records it, e.g. as a failed review).
- `client.complete_all(calls) -> list[Completion]`: several calls (a list or a generator) in
  threads, as many at once as the per-provider limits allow, the cache read in one query per
  chunk of calls (sequential when the calling thread holds a store transaction, so ledger
  writes cannot deadlock; another thread's transaction does not count).
- `Completion(ok, value, response, error, outcome, cached)`.

What `complete` does, in order:
1. cache: key = `cache.cache_key(request, schema)`; a hit whose content still validates is
   returned without calling the provider (ledger outcome `cache_hit`, zero tokens);
2. call with tenacity: retryable `ProviderError`s (429, 5xx, overloaded, connection,
   malformed) are retried up to `max_attempts`, waiting `retry_after_s` when the provider sent
   one (capped), else exponential backoff with jitter; non-retryable ones fail at once. Each
   failed attempt is a ledger row (`retry`, or `error` for the last). The SDKs' own retries
   must be off (the adapters construct them with max_retries=0) so retries do not stack;
3. per-provider `BoundedSemaphore` around each provider request (not around backoff waits); a
   provider that `limits_itself` (a worker process) queues its excess calls itself;
4. `finish == "length"`: ledger `truncated`, then up to `length_retries` retries with doubled
   max_tokens (bounded by `max_tokens_cap`); never the same request again;
5. schema validation (pydantic, plus `check`): an invalid answer (ledger `invalid`) is re-asked
   up to `invalid_retries` times with the validation error appended, then a failure;
6. a valid answer: ledger `ok` (tokens, cost, latency) and stored in the cache under the key
   of the *original* request.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from pydantic import BaseModel
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt
from tenacity.wait import wait_random_exponential

from pipeline.llm.base import LLMRequest, LLMResponse, Message, Provider
from pipeline.llm.cache import ResponseCache, cache_key, key_prefix
from pipeline.llm.errors import ProviderError, classify, redact
from pipeline.llm.ledger import Ledger, LedgerEntry, Outcome
from pipeline.llm.schemas import parse_output
from pipeline.llm.settings import LLMSettings
from pipeline.store import Store

Check = Callable[[BaseModel], None]


@dataclass
class Completion:
    ok: bool
    value: BaseModel | None = None
    response: LLMResponse | None = None
    error: str | None = None
    outcome: str = "ok"  # ok | cache_hit | error | invalid | truncated
    cached: bool = False


@dataclass
class Call:
    """One `complete` call for `complete_all`."""

    request: LLMRequest
    schema: type[BaseModel] | None = None
    check: Check | None = None
    context: dict[str, Any] = field(default_factory=dict)  # task_id, case_id
    meta: dict[str, Any] = field(default_factory=dict)  # the caller's own labels


@dataclass(frozen=True)
class _Attempt:
    """What a ledger row tells of one attempt besides its request, outcome and context."""

    key: str
    latency: int = 0
    response: LLMResponse | None = None


POOL_FACTOR = 2  # worker threads per in-flight slot
LOOK = object()  # `_complete`: the cache entry is not known yet, read it
DISPATCH_CHUNK = 32  # calls whose keys are made and read from the cache at once


def pool_width(limit: int) -> int:
    """Worker threads for a provider allowed `limit` requests in flight (see `complete_all`)."""
    return POOL_FACTOR * limit


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, ProviderError) and exc.retryable


def reask_message(error: str) -> Message:
    return Message(role="user", content=(
        f"Your answer was not accepted: {error}. Answer again with exactly one JSON object "
        "that matches the requested schema, every value within its allowed range."))


class LLMClient:
    def __init__(self, providers: dict[str, Provider], store: Store, settings: LLMSettings,
                 *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.providers = providers
        self.store = store
        self.settings = settings
        self.cache = ResponseCache(store)
        self.ledger = Ledger(store, settings)
        self._sleep = sleep
        # A provider that keeps its own limit (a worker process, which queues calls next to
        # the SDK) is sent up to the pool's width: its next call is already waiting there.
        self._sems = {name: threading.BoundedSemaphore(
            pool_width(settings.limit(name)) if getattr(provider, "limits_itself", False)
            else settings.limit(name)) for name, provider in providers.items()}
        self._guard = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}
        self._pools: dict[str, ThreadPoolExecutor] = {}
        self._backoff = wait_random_exponential(multiplier=0.5, max=settings.backoff_max_s)

    # --- public -----------------------------------------------------------------------------

    def complete(self, request: LLMRequest, schema: type[BaseModel] | None = None, *,
                 check: Check | None = None, task_id: str | None = None,
                 case_id: str | None = None) -> Completion:
        call = Call(request, schema, check, {"task_id": task_id, "case_id": case_id})
        return self._start(call, None, LOOK)

    def complete_all(self, calls: Iterable[Call]) -> list[Completion]:
        """`calls` may be a generator: each chunk is sent as soon as it is made, so the first
        requests are in flight while the caller still renders the later prompts."""
        if self._in_transaction():
            return [self.complete(c.request, c.schema, check=c.check, **c.context)
                    for c in calls]

        futures: list[Future] = []
        try:
            seen: set[str] = set()
            prefixes: dict[tuple[int, ...], Any] = {}  # per prompt, shared by its reviewers
            pending = iter(calls)
            while chunk := list(islice(pending, DISPATCH_CHUNK)):
                # The cache is read a chunk at a time, in one query: per call, the lookup would
                # take the store's lock once more, and with dozens of calls in flight its waits
                # add up; by chunks, the first calls are sent while the next keys are made.
                keys = []
                for call in chunk:
                    memo = (call.request.max_tokens, *map(id, call.request.messages))
                    prefix = prefixes.get(memo)
                    if prefix is None:
                        prefix = prefixes[memo] = key_prefix(call.request)
                    keys.append(cache_key(call.request, call.schema, prefix))
                found = self.cache.get_many(set(keys) - seen)
                for call, key in zip(chunk, keys, strict=True):
                    # a key met again is read after the first call finished (its key lock)
                    known = LOOK if key in seen else found.get(key)
                    seen.add(key)
                    futures.append(self._pool(call.request.provider).submit(
                        self._start, call, key, known))
            return [f.result() for f in futures]
        except BaseException:
            # e.g. Ctrl-C: the calls not started are dropped, those in flight finish (their
            # ledger rows written) before the interruption goes on
            for future in futures:
                future.cancel()
            wait(futures)
            raise

    def _pool(self, provider: str) -> ThreadPoolExecutor:
        """The provider's threads, made once and kept for every later round.

        One pool per provider: with one shared pool, threads queued on a busy provider's
        semaphore would leave another provider's free slots idle. Each pool is twice as wide as
        its limit: a thread holds a slot only while its request is in flight, and the spare
        threads, already past the cache lookup and waiting on the semaphore, take a slot the
        moment it frees, while the others write ledger rows or back off. The semaphore alone
        bounds what is in flight. Kept, not made per round: starting 64 threads a round, each
        waiting for the interpreter's lock to say it started, spread a round's first requests
        over ~70 ms."""
        with self._guard:
            pool = self._pools.get(provider)
            if pool is None:
                pool = self._pools[provider] = ThreadPoolExecutor(
                    max_workers=pool_width(self.settings.limit(provider)),
                    thread_name_prefix=f"llm-{provider}")
            return pool

    def validate(self, response: LLMResponse, schema: type[BaseModel] | None,
                 check: Check | None) -> BaseModel | None:
        """The validated output (None without a schema); ValueError when invalid."""
        if schema is None:
            return None
        value = parse_output(response.text, response.parsed, schema)
        if check is not None:
            check(value)
        return value

    def _in_transaction(self) -> bool:
        """Whether *this* thread holds a store transaction (its worker threads would wait on
        the store lock for their ledger rows); another thread's transaction does not count."""
        return self.store.owned_by_this_thread()

    # --- steps ------------------------------------------------------------------------------

    def _start(self, call: Call, key: str | None,
               known: LLMResponse | None | object) -> Completion:
        """`complete`, with the cache key and entry when `complete_all` already has them."""
        request, schema = call.request, call.schema
        if request.provider not in self.providers:
            return Completion(False, error=f"no provider {request.provider!r} configured",
                              outcome="error")
        ctx = {"stage": request.stage, "task_id": call.context.get("task_id"),
               "case_id": call.context.get("case_id")}
        return self._complete(request, schema, call.check, ctx,
                              key if key is not None else cache_key(request, schema), known)

    def _complete(self, request: LLMRequest, schema: type[BaseModel] | None,
                  check: Check | None, ctx: dict[str, Any], key: str,
                  known: LLMResponse | None | object) -> Completion:
        """`complete` with the cache entry already read (`known`: the entry or None), or
        `LOOK` to read it here."""
        with self._key_lock(key):  # the same request twice at once: one call, one hit
            hit = self._from_cache(key, request, schema, check, ctx, known)
            if hit is not None:
                return hit
            return self._fresh(request, schema, check, key, ctx)

    @contextmanager
    def _key_lock(self, key: str):
        with self._guard:
            lock = self._key_locks.setdefault(key, threading.Lock())
        with lock:
            yield

    def _from_cache(self, key: str, request: LLMRequest, schema: type[BaseModel] | None,
                    check: Check | None, ctx: dict[str, Any],
                    known: LLMResponse | None | object) -> Completion | None:
        cached = self.cache.get(key) if known is LOOK else known
        if cached is None:
            return None
        try:
            value = self.validate(cached, schema, check)
        except ValueError:
            self.cache.delete(key)  # e.g. an invalid batch result: ask again
            return None
        self._row(request, "cache_hit", ctx, _Attempt(key))
        return Completion(True, value, cached, outcome="cache_hit", cached=True)

    def _fresh(self, request: LLMRequest, schema: type[BaseModel] | None, check: Check | None,
               key: str, ctx: dict[str, Any]) -> Completion:
        current = request
        lengths_left, reasks_left = self.settings.length_retries, self.settings.invalid_retries
        while True:
            try:
                response, latency = self._call(current, schema, key, ctx)
            except ProviderError as exc:
                return Completion(False, error=exc.message, outcome="error")
            attempt = _Attempt(key, latency, response)
            if response.finish == "length":
                self._row(current, "truncated", ctx, attempt)
                bigger = min(self.settings.max_tokens_cap, current.max_tokens * 2)
                if lengths_left and bigger > current.max_tokens:
                    lengths_left -= 1
                    current = current.model_copy(update={"max_tokens": bigger})
                    continue
                return Completion(False, response=response, outcome="truncated", error=(
                    f"output cut by the token limit at max_tokens={current.max_tokens}"))
            if response.finish in ("refused", "error"):
                self._row(current, "error", ctx, attempt, error=f"finish={response.finish}")
                return Completion(False, response=response, outcome="error",
                                  error=redact(f"{response.finish}: {response.text[:300]}"))
            try:
                value = self.validate(response, schema, check)
            except ValueError as exc:
                self._row(current, "invalid", ctx, attempt, error=str(exc))
                if reasks_left:
                    reasks_left -= 1
                    answer = response.text or (str(response.parsed) if response.parsed else "")
                    current = current.model_copy(update={"messages": [
                        *current.messages, Message(role="assistant", content=answer or "(empty)"),
                        reask_message(str(exc))]})
                    continue
                return Completion(False, response=response, outcome="invalid",
                                  error=f"invalid answer after re-asking: {exc}")
            paid = self._values(current, "ok", ctx, attempt)
            kept = self.cache.row(key, response, request.provider, request.model)
            self.store.save_llm_call(paid, kept)  # paid for and kept, or neither
            return Completion(True, value, response, outcome="ok")

    def _call(self, request: LLMRequest, schema: type[BaseModel] | None, key: str,
              ctx: dict[str, Any]) -> tuple[LLMResponse, int]:
        """One request with retries: (response, latency in ms); failed attempts are rows."""
        attempts = self.settings.max_attempts
        retrying = Retrying(stop=stop_after_attempt(attempts), wait=self._wait,
                            retry=retry_if_exception(_retryable), sleep=self._sleep,
                            reraise=True)
        for attempt in retrying:
            with attempt:
                last = attempt.retry_state.attempt_number >= attempts
                return self._once(request, schema, key, ctx, last)
        raise AssertionError("unreachable")  # pragma: no cover

    def _once(self, request: LLMRequest, schema: type[BaseModel] | None, key: str,
              ctx: dict[str, Any], last: bool) -> tuple[LLMResponse, int]:
        provider = self.providers[request.provider]
        with self._sems[request.provider]:
            started = time.monotonic()
            try:
                response = provider.complete(request, schema)
            except Exception as exc:  # noqa: BLE001 - every failure becomes a ProviderError
                failed = exc
            else:
                return response, _ms(started, provider)
        err = classify(failed, request.provider)
        outcome: Outcome = "retry" if err.retryable and not last else "error"
        self._row(request, outcome, ctx, _Attempt(key, _ms(started, provider)),
                  error=err.message)
        raise err from failed

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, ProviderError) and exc.retry_after_s is not None:
            return min(max(exc.retry_after_s, 0.0), self.settings.retry_after_max_s)
        return float(self._backoff(state))

    def _row(self, request: LLMRequest, outcome: Outcome, ctx: dict[str, Any],
             attempt: _Attempt, *, error: str | None = None) -> None:
        values = self._values(request, outcome, ctx, attempt, error=error)
        self.store.save_llm_call(call=values)

    def _values(self, request: LLMRequest, outcome: Outcome, ctx: dict[str, Any],
                attempt: _Attempt, *, error: str | None = None) -> tuple[Any, ...]:
        response = attempt.response
        usage = response.usage if response is not None else None
        return self.ledger.row(LedgerEntry(
            provider=request.provider, model=request.model, stage=ctx.get("stage") or "",
            outcome=outcome, tokens_in=usage.input_tokens if usage else 0,
            tokens_out=usage.output_tokens if usage else 0,
            tokens_cached=usage.cached_tokens if usage else 0, latency_ms=attempt.latency,
            cache_key=attempt.key, task_id=ctx.get("task_id"), case_id=ctx.get("case_id"),
            error=error))


def _ms(started: float, provider: Provider) -> int:
    """The call's latency: since `started`, less any wait for a slot inside the provider."""
    waited = getattr(provider, "last_wait_ms", None)
    return max(0, int((time.monotonic() - started) * 1000) - (waited() if waited else 0))
