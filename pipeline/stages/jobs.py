"""`build --jobs N`: up to N tasks at once, each in a thread of its own.

Why threads: a task spends its time waiting, on model calls (which should overlap freely) and
on services and pytest runs in child processes (which the shared CPU budget in
`execution.budget` limits across all tasks). The store is one SQLite connection whose
transactions are serialised by its lock, so tasks share it safely; each task writes only its
own rows and every task reads only its own, so a task's output does not depend on what runs
beside it. Results come back in the order the tasks were given, whatever order they finish in.

The workers are daemon threads: on Ctrl-C or SIGTERM the main thread stops handing out tasks,
marks the run as stopping (`stopping()`), ends every service still running (their tasks then
stop at their next step: a service error while stopping is the interruption, not the task's
failure, so the task stays `running` with a dead runner and shows as interrupted) and leaves;
an interrupted task resumes on the next build like a serial one.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from pipeline.execution import Terminated, kill_all, terminated

T = TypeVar("T")
R = TypeVar("R")

Running = Callable[[str, bool], None]  # (task id, started: True / finished: False)


_STOPPING = threading.Event()


def stopping() -> bool:
    """Whether the running `run_jobs` was interrupted (Ctrl-C / SIGTERM in the main thread)."""
    return _STOPPING.is_set() or terminated() is not None


def no_running(task_id: str, started: bool) -> None:
    return None


def run_jobs(items: Sequence[T], work: Callable[[T], R], jobs: int, *,
             name: Callable[[T], str] = str, running: Running = no_running) -> list[R]:
    """`work(item)` for every item, `jobs` at a time; results in the items' order.

    The first exception a worker raises stops new items from starting and is raised here once
    the items already running have finished (as a serial loop would stop at it).
    """
    if jobs < 1:
        raise ValueError(f"--jobs is {jobs}; give 1 or more")
    _STOPPING.clear()
    if jobs == 1 or len(items) <= 1:
        return _serial(items, work, name, running)
    return _threaded(items, work, jobs, name, running)


def _serial(items: Sequence[T], work: Callable[[T], R], name: Callable[[T], str],
            running: Running) -> list[R]:
    done = []
    for item in items:
        done.append(_one(item, work, name, running))
        _end_if_terminated()
    return done


def _threaded(items: Sequence[T], work: Callable[[T], R], jobs: int, name: Callable[[T], str],
              running: Running) -> list[R]:
    todo: queue.SimpleQueue[int] = queue.SimpleQueue()
    for index in range(len(items)):
        todo.put(index)
    results: dict[int, R] = {}
    errors: list[BaseException] = []
    stop = threading.Event()

    def worker() -> None:
        while not stop.is_set():
            try:
                index = todo.get_nowait()
            except queue.Empty:
                return
            try:
                results[index] = _one(items[index], work, name, running)
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread
                errors.append(exc)
                stop.set()

    threads = [threading.Thread(target=worker, name=f"build-job-{i}", daemon=True)
               for i in range(min(jobs, len(items)))]
    _run_threads(threads, stop)
    _end_if_terminated()
    if errors:
        raise errors[0]
    return [results[index] for index in range(len(items))]


def _run_threads(threads: list[threading.Thread], stop: threading.Event) -> None:
    """Start the workers and wait for them; on Ctrl-C, stop handing out work and end the
    running tasks' services before leaving."""
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(timeout=0.5)  # short joins keep Ctrl-C responsive
    except BaseException:
        stop.set()
        _STOPPING.set()  # before the services end: their tasks must see why
        kill_all()  # the running tasks' services; their threads die with the process
        raise


def _end_if_terminated() -> None:
    """Leave as the signal asked even if its `Terminated` was swallowed on the way."""
    code = terminated()
    if code is not None:
        _STOPPING.set()
        raise Terminated(code)


def _one(item: T, work: Callable[[T], R], name: Callable[[T], str], running: Running) -> R:
    running(name(item), True)
    try:
        return work(item)
    finally:
        running(name(item), False)
