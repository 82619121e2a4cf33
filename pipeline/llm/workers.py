"""A provider's SDK calls in a child process of its own, when many are in flight at once.

Why: at dozens of calls in flight per provider and sub-second latencies, the SDKs' request
building and response parsing (2-3 ms of CPU a call, most of it inside the SDKs) saturate one
interpreter's GIL before the providers' limits are reached: on a 2-core machine one process
gets at most ~0.8 of the ideal rate. A child per provider runs that work on another core.

What stays in the parent, unchanged: the response cache, retries and backoff, the
per-provider semaphores, schema validation and the ledger (`pipeline.llm.client`): the child
only turns an `LLMRequest` into an `LLMResponse` or a classified `ProviderError`, exactly what
the in-process adapter does. `ProviderWorker` is itself a `Provider`, so nothing above knows.

Slots: the child runs at most `limit` calls at once and queues the rest (first come, first
served), so a call that ends hands its slot to the next queued one inside the child, without a
round trip through the parent (a parent-held slot freed only after the answer crossed back, the
waiting parent thread woke and its request crossed over: ~8 ms a call at 32 in flight). The
parent may therefore send more than `limit` (`limits_itself`); the provider still never sees more
than `limit` at once: a call the parent's own adapter answers takes a parent-side slot and, while
the child serves, holds one of the child's slots too; the child takes calls only after the
parent's adapter finished those it had started. The ledger's latency leaves out the queue wait
(`last_wait_ms`).

Lifecycle: the child is a fresh interpreter (`python -m pipeline.llm.workers`: no copy of the
parent's threads or store, and unlike multiprocessing's spawn it never re-runs the parent's
main script), talking pickled messages over a socket pair; it builds
its own adapter from the same environment, warms it, answers until its pipe closes (the parent
exited, was killed, or called `close`), then exits; it ignores SIGINT, so a Ctrl-C is handled
once, by the parent. A child that dies fails the calls it held with a retryable error and
later calls run in the parent's own adapter. Batch jobs and schemas that are not importable
by name always run in the parent's adapter.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from pydantic import BaseModel

from .base import BatchItem, BatchStatus, LLMRequest, LLMResponse, Provider
from .errors import ProviderError, classify

_READY_TIMEOUT_S = 120.0
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def schema_ref(schema: type[BaseModel] | None) -> str | None:
    """"module:QualName" when the class can be imported by that name in another process."""
    if schema is None:
        return ""
    module, name = schema.__module__, schema.__qualname__
    if "<locals>" in name or module == "__main__":
        return None
    target: Any = sys.modules.get(module)
    for part in name.split("."):
        target = getattr(target, part, None)
    return f"{module}:{name}" if target is schema else None


def _load_schema(ref: str) -> type[BaseModel] | None:
    if not ref:
        return None
    module, name = ref.split(":", 1)
    target: Any = importlib.import_module(module)
    for part in name.split("."):
        target = getattr(target, part)
    return target


def _adapter(name: str) -> Provider:
    from pipeline.llm.anthropic_provider import AnthropicProvider
    from pipeline.llm.gemini_provider import GeminiProvider
    from pipeline.llm.openai_provider import OpenAIProvider

    classes = {"openai": OpenAIProvider, "anthropic": AnthropicProvider,
               "gemini": GeminiProvider}
    return classes[name]()


def ready_adapter(name: str, options: dict[str, Any]) -> Provider:
    """The provider's adapter as a child runs it: the parent's options set, warmed, rehearsed
    (`bench/sdk_floor.py` times the SDKs in the same state)."""
    adapter = _adapter(name)
    for attr, value in options.items():
        setattr(adapter, attr, value)
    warm = getattr(adapter, "warm", None)
    if warm is not None:
        warm()
    from pipeline.llm.warmup import rehearse

    rehearse(adapter)
    return adapter


def _error_fields(err: ProviderError) -> tuple:
    return (err.message, err.provider, err.retryable, err.status, err.retry_after_s, err.kind,
            err.cause_type)


def _rebuild(fields: tuple) -> ProviderError:
    message, provider, retryable, status, retry_after_s, kind, cause = fields
    err = ProviderError(message, provider=provider, retryable=retryable, status=status,
                        retry_after_s=retry_after_s, kind=kind)
    err.cause_type = cause
    return err


def serve(conn: Any, name: str, limit: int, options: dict[str, Any]) -> None:
    """The child: answer (call id, request, schema ref) messages until the pipe closes, at most
    `limit` at once; a request of None holds a slot for a call the parent makes itself, until
    a ("release", call id) message."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        adapter = ready_adapter(name, options)
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which keeps its adapter
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", os.getpid()))
    send_lock = threading.Lock()
    held: dict[int, threading.Event] = {}

    def run(call_id: int, request: LLMRequest | None, ref: str, queued: float) -> None:
        waited = int((time.monotonic() - queued) * 1000)
        if request is None:  # the parent's call holds this slot (and this thread) until done
            with send_lock:
                conn.send((call_id, True, None, waited))
            held[call_id].wait()
            return
        try:
            out: tuple = (call_id, True, adapter.complete(request, _load_schema(ref)), waited)
        except BaseException as exc:  # noqa: BLE001 - every failure goes back, classified
            out = (call_id, False, _error_fields(classify(exc, name)), waited)
        with send_lock:
            conn.send(out)

    # `limit` threads are the slots: a call waits in the pool's queue until one is free
    with ThreadPoolExecutor(max_workers=limit, thread_name_prefix=f"sdk-{name}") as pool:
        _receive(conn, pool, held, run)
        for event in held.values():  # the parent is gone or done: nothing holds a slot now
            event.set()
    os._exit(0)  # the SDK clients' pools need no orderly close; the parent is gone or done


def _receive(conn: Any, pool: ThreadPoolExecutor, held: dict[int, threading.Event],
             run: Callable[..., None]) -> None:
    """Hand each call message to `run` in `pool` until the pipe closes (or says None); a
    call without a request gets an event in `held`, set by its "release" message."""
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message[0] == "release":
            held.pop(message[1]).set()
            continue
        if message[1] is None:
            held[message[0]] = threading.Event()
        pool.submit(run, *message, time.monotonic())


class ProviderWorker:
    """`Provider` whose `complete` runs in a child process; everything else in `local`.

    The child starts at once and warms up in the background: until it is ready (a second
    or two of imports), and after it failed or exited, calls run in `local`, so starting
    it never delays the first calls. At most `limit` calls are at the provider at once,
    wherever they run (see "Slots" above)."""

    limits_itself = True  # the client may send more than `limit`: the rest wait here

    def __init__(self, local: Provider, limit: int) -> None:
        self.local = local
        self.name = local.name
        self.limit = limit
        self.pid: int | None = None
        self._pending: dict[int, Future] = {}
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._switched = threading.Condition(self._lock)
        self._slots = threading.BoundedSemaphore(limit)  # calls made by `local`
        self._tls = threading.local()
        self._alive = False
        self._switching = False
        self._closing = False
        self._booted = threading.Event()
        options = {k: getattr(local, k) for k in ("json_mode", "structured")
                   if isinstance(getattr(local, k, None), (bool, str))}
        mine, theirs = socket.socketpair()
        self._conn = Connection(mine.detach())
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "pipeline.llm.workers", str(theirs.fileno()), self.name,
             str(limit), json.dumps(options)],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, cwd=os.getcwd(),
            env={**os.environ, "PYTHONPATH": os.pathsep.join(
                p for p in (_ROOT, os.environ.get("PYTHONPATH")) if p)})
        theirs.close()
        threading.Thread(target=self._boot, name=f"llm-{self.name}-worker",
                         daemon=True).start()

    def wait_ready(self, timeout: float | None = _READY_TIMEOUT_S) -> bool:
        """Wait for the child's warm-up; False when it failed (the parent's adapter answers)."""
        self._booted.wait(timeout)
        return self._alive

    @property
    def in_child(self) -> bool:
        """Whether calls currently go to the child (not before it is ready, nor after it
        failed or was closed)."""
        return self._alive

    def complete(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        self._tls.wait_ms = 0
        ref = schema_ref(schema)
        sent = self._send(request, ref) if ref is not None else None
        if sent is None:
            return self._complete_here(request, schema)
        return self._answer(sent[1])

    def last_wait_ms(self) -> int:
        """How long this thread's last call waited for a free slot (not the provider's time)."""
        return getattr(self._tls, "wait_ms", 0)

    def submit_batch(self, items: list[BatchItem], schema: type[BaseModel] | None) -> str:
        return self.local.submit_batch(items, schema)

    def poll_batch(self, batch_id: str, schema: type[BaseModel] | None) -> BatchStatus:
        return self.local.poll_batch(batch_id, schema)

    def warm(self) -> None:
        """The child warms itself; the parent's adapter was warmed when it was made."""

    def close(self) -> None:
        with self._lock:
            self._closing = True
            if self._alive:
                with contextlib.suppress(OSError, ValueError):
                    self._conn.send(None)  # the child finishes its calls, then exits
        try:
            self._proc.wait(timeout=5 if self._booted.is_set() else 0.1)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(timeout=5)
        self._conn.close()
        close = getattr(self.local, "close", None)
        if close is not None:
            close()

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.local, attr)

    # --- internals --------------------------------------------------------------------------

    def _send(self, request: LLMRequest | None, ref: str) -> tuple[int, Future] | None:
        """(call id, future) once the child has the call; None when the parent's adapter makes
        it. A request of None asks the child to hold a slot, only while the child serves."""
        with self._lock:
            while self._switching and request is not None:
                self._switched.wait()
            if not self._alive or self._switching:
                return None
            call_id = next(self._ids)
            future = self._pending[call_id] = Future()
            try:
                self._conn.send((call_id, request, ref))
            except (OSError, ValueError):
                self._pending.pop(call_id, None)
                self._alive = False
                return None
            return call_id, future

    def _answer(self, future: Future) -> Any:
        ok, payload, waited = future.result()
        self._tls.wait_ms = waited
        if not ok:
            raise _rebuild(payload)
        return payload

    def _complete_here(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        """The call in the parent's adapter: a parent-side slot, and one of the child's while
        it serves, so both together never exceed `limit`."""
        with self._slots:
            hold = self._send(None, "")
            if hold is not None:
                try:
                    self._answer(hold[1])
                except ProviderError:
                    hold = None  # the child died: its slots went with it
            try:
                return self.local.complete(request, schema)
            finally:
                if hold is not None:
                    with self._lock, contextlib.suppress(OSError, ValueError):
                        self._conn.send(("release", hold[0]))

    def _boot(self) -> None:
        try:
            ready = self._conn.poll(_READY_TIMEOUT_S)
            state, detail = self._conn.recv() if ready else ("failed", "no answer")
        except (EOFError, OSError, ValueError):
            state, detail = "failed", "exited"
        if state == "ready":
            with self._lock:
                self._switching = not self._closing
            if self._switching:
                # the child takes calls once the parent's adapter finished those it started
                for _ in range(self.limit):
                    self._slots.acquire()
                for _ in range(self.limit):
                    self._slots.release()
            with self._lock:
                if self._switching and not self._closing:
                    self.pid, self._alive = int(detail), True
                self._switching = False
                self._switched.notify_all()
        self._booted.set()
        if self._alive:
            self._read()
        elif self._proc.poll() is None and not self._closing:
            self._proc.kill()  # never answered: the parent's adapter takes the calls

    def _read(self) -> None:
        while True:
            try:
                call_id, ok, payload, waited = self._conn.recv()
            except (EOFError, OSError, ValueError):
                break
            with self._lock:
                future = self._pending.pop(call_id, None)
            if future is not None:
                future.set_result((ok, payload, waited))
        with self._lock:
            self._alive = False
            pending, self._pending = self._pending, {}
        for future in pending.values():
            future.set_exception(ProviderError(
                f"the {self.name} worker process exited during the call", provider=self.name,
                retryable=True, kind="connection"))


def use_workers(limit: int, threshold: int) -> bool:
    """Whether a provider allowed `limit` calls in flight gets a worker process."""
    return threshold > 0 and limit >= threshold


def main(argv: list[str]) -> int:
    fd, name, limit, options = argv
    serve(Connection(int(fd)), name, int(limit), json.loads(options))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
