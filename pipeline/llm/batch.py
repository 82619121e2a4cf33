"""Batch rounds (`build --batch`): a round's requests go out as provider batch jobs, and the
results fill the response cache, so the normal `LLMClient.complete` path then hits the cache.

Public API:
- `run_batch_round(client, calls, *, poll_s=None, timeout_s=None, sleep=None) -> BatchReport`

Resume: every submitted batch is stored (tables `llm_batches`, `llm_batch_items`, migration
0003) in the same breath as its submission returns, keyed by provider batch id and the round's
content hash, with the cache key of every request in it. A request that is already cached is
not sent; a request that already went out in a stored batch is never submitted again: a
running batch is polled (so a build killed mid-round and restarted polls the same ids), a
finished one whose result was unusable leaves the request to the normal, synchronous path.
Results are matched by custom id (a prefix of the request's cache key). Ingesting a finished
batch (cache rows, ledger rows at the batch price, the batch's state) is one transaction.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

from pipeline.llm.base import BatchItem, BatchStatus, Provider
from pipeline.llm.cache import cache_key, now
from pipeline.llm.client import Call, LLMClient
from pipeline.llm.errors import ProviderError, classify

log = logging.getLogger("pipeline.llm.batch")
FINISHED = ("done", "failed", "cancelled", "expired")
MAX_POLL_FAILURES = 5


@dataclass
class BatchReport:
    cached: int = 0  # already in the cache: not sent
    submitted: int = 0  # requests sent in new batches
    resumed: int = 0  # requests found in batches submitted earlier (polled, not resent)
    filled: int = 0  # results written to the cache by this round
    left: int = 0  # requests the normal path must still answer (failed or unmatched)
    batch_ids: list[str] = field(default_factory=list)


@dataclass
class _Job:
    provider: str
    batch_id: str
    schema: type[BaseModel] | None
    failures: int = 0


@dataclass(frozen=True)
class _Polling:
    """How a round waits on its batches: tests pass a fake `sleep` and short times."""
    every_s: float
    timeout_s: float
    sleep: Callable[[float], None]


def custom_id(key: str) -> str:
    return "k" + key[:47]  # ^[a-zA-Z0-9_-]{1,64}$ (Anthropic), unique per request


def run_batch_round(client: LLMClient, calls: Sequence[Call], *, poll_s: float | None = None,
                    timeout_s: float | None = None,
                    sleep: Callable[[float], None] | None = None) -> BatchReport:
    settings = client.settings
    polling = _Polling(settings.batch_poll_s if poll_s is None else poll_s,
                       settings.batch_timeout_s if timeout_s is None else timeout_s,
                       sleep or time.sleep)
    by_key = {cache_key(c.request, c.schema): c for c in calls}
    report = BatchReport()
    round_hash = hashlib.sha256("\n".join(sorted(by_key)).encode()).hexdigest()[:32]
    pending = {}
    for key, call in by_key.items():
        if key in client.cache:
            report.cached += 1
        else:
            pending[key] = call
    jobs, sent = _known_jobs(client, pending, report)
    fresh = {k: c for k, c in pending.items() if k not in sent}
    jobs += _submit(client, fresh, round_hash, report)
    _poll(client, jobs, pending, polling, report)
    report.left = sum(1 for key in pending if key not in client.cache)
    report.batch_ids = [j.batch_id for j in jobs]
    return report


def _known_jobs(client: LLMClient, pending: dict[str, Call],
                report: BatchReport) -> tuple[list[_Job], set[str]]:
    """Batches that already hold some pending requests, and those requests' keys: running
    batches are polled again; none of these requests is ever submitted twice."""
    jobs: dict[tuple[str, str], _Job] = {}
    sent: set[str] = set()
    for key, call in pending.items():
        row = client.store.batch_holding(key)
        if row is None:
            continue
        sent.add(key)
        report.resumed += 1
        if row["state"] == "running":
            jobs.setdefault((row["provider"], row["batch_id"]),
                            _Job(row["provider"], row["batch_id"], call.schema))
    return list(jobs.values()), sent


def _submit(client: LLMClient, pending: dict[str, Call], round_hash: str,
            report: BatchReport) -> list[_Job]:
    groups: dict[tuple[str, str, str], list[tuple[str, Call]]] = {}
    for key, call in pending.items():
        schema_name = call.schema.__name__ if call.schema else ""
        groups.setdefault((call.request.provider, call.request.model, schema_name),
                          []).append((key, call))
    jobs = []
    for (provider_name, model, _), members in groups.items():
        provider: Provider | None = client.providers.get(provider_name)
        if provider is None:
            continue
        items = [BatchItem(custom_id=custom_id(k), request=c.request) for k, c in members]
        schema = members[0][1].schema
        try:
            batch_id = provider.submit_batch(items, schema)
        except Exception as exc:  # noqa: BLE001 - left to the synchronous path
            log.warning("batch submission to %s failed, answering synchronously: %s",
                        provider_name, classify(exc, provider_name).message)
            continue
        client.store.add_batch((batch_id, provider_name, model, round_hash, now()),
                               {custom_id(k): k for k, _ in members})
        report.submitted += len(members)
        jobs.append(_Job(provider_name, batch_id, schema))
    return jobs


def _poll(client: LLMClient, jobs: list[_Job], pending: dict[str, Call], polling: _Polling,
          report: BatchReport) -> None:
    deadline = time.monotonic() + polling.timeout_s
    waiting = list(jobs)
    while waiting:
        still = []
        for job in waiting:
            status = _poll_once(client, job)
            if status is None:
                still.append(job) if job.failures < MAX_POLL_FAILURES else \
                    _set_state(client, job, "failed")
            elif status.state in FINISHED:
                report.filled += _ingest(client, job, status, pending)
            else:
                still.append(job)
        waiting = still
        if waiting:
            if time.monotonic() >= deadline:
                log.warning("batch round timed out; %d batch(es) still running (polled again "
                            "on the next build)", len(waiting))
                return
            polling.sleep(polling.every_s)


def _poll_once(client: LLMClient, job: _Job) -> BatchStatus | None:
    try:
        status = client.providers[job.provider].poll_batch(job.batch_id, job.schema)
    except Exception as exc:  # noqa: BLE001 - a poll that fails is tried again
        err = exc if isinstance(exc, ProviderError) else classify(exc, job.provider)
        job.failures += 1 if err.retryable else MAX_POLL_FAILURES
        log.warning("polling batch %s (%s) failed: %s", job.batch_id, job.provider, err.message)
        return None
    job.failures = 0
    return status


def _ingest(client: LLMClient, job: _Job, status: BatchStatus,
            pending: dict[str, Call]) -> int:
    model, keys = client.store.batch_keys(job.provider, job.batch_id)
    filled = 0
    with client.store.transaction():
        for result in status.results:
            key = keys.get(result.custom_id)
            if key is None:
                continue
            call = pending.get(key)
            resp = result.response
            ok = resp is not None and resp.finish == "stop"
            outcome = "ok" if ok else ("truncated" if resp and resp.finish == "length"
                                       else "error")
            usage = resp.usage if resp is not None else None
            client.ledger.record(
                provider=job.provider, model=model,
                stage=call.request.stage if call else "batch", outcome=outcome,
                tokens_in=usage.input_tokens if usage else 0,
                tokens_out=usage.output_tokens if usage else 0,
                tokens_cached=usage.cached_tokens if usage else 0, cache_key=key,
                task_id=call.context.get("task_id") if call else None,
                case_id=call.context.get("case_id") if call else None,
                error=result.error or (None if ok else f"finish={resp.finish if resp else None}"),
                batch_id=job.batch_id)
            if ok and resp is not None:
                client.cache.put(key, resp, job.provider, model)
                filled += 1
        _set_state(client, job, status.state)
    return filled


def _set_state(client: LLMClient, job: _Job, state: str) -> None:
    client.store.set_batch_state(job.provider, job.batch_id, state, now())
