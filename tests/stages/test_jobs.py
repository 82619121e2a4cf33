"""`run_jobs`: results in the given order, work really overlaps, the first error stops the
rest, and every started item is reported started and finished."""

from __future__ import annotations

import contextlib
import signal
import threading
from pathlib import Path

import pytest

from pipeline.stages.jobs import run_jobs, stopping


def test_results_in_item_order_whatever_finishes_first() -> None:
    first_may_finish = threading.Event()

    def work(n: int) -> int:
        if n == 0:
            assert first_may_finish.wait(30)  # item 0 finishes after every other one
        elif n == 4:
            first_may_finish.set()
        return n * n

    assert run_jobs(list(range(5)), work, 3) == [0, 1, 4, 9, 16]


def test_jobs_overlap_up_to_n() -> None:
    together = threading.Barrier(3, timeout=30)  # broken unless three run at once
    active = 0
    most = 0
    lock = threading.Lock()

    def work(n: int) -> int:
        nonlocal active, most
        with lock:
            active += 1
            most = max(most, active)
        if n < 3:
            together.wait()
        with lock:
            active -= 1
        return n

    assert run_jobs(list(range(6)), work, 3) == list(range(6))
    assert not together.broken
    assert most == 3


def test_serial_when_one_job() -> None:
    seen: list[str] = []
    assert run_jobs(["a", "b"], lambda s: seen.append(threading.current_thread().name) or s, 1) \
        == ["a", "b"]
    assert seen == [threading.main_thread().name] * 2


def test_first_error_raised_and_later_items_not_started() -> None:
    started: list[int] = []

    def work(n: int) -> int:
        started.append(n)
        if n == 0:
            raise ValueError("task 0 broke")
        return n

    with pytest.raises(ValueError, match="task 0 broke"):
        run_jobs(list(range(50)), work, 2)
    assert 0 in started and len(started) < 50


def test_running_hook_sees_start_and_end_of_each() -> None:
    events: list[tuple[str, bool]] = []
    lock = threading.Lock()

    def running(name: str, started: bool) -> None:
        with lock:
            events.append((name, started))

    run_jobs(["x", "y", "z"], str.upper, 2, running=running)
    assert sorted(events) == sorted([(n, s) for n in "xyz" for s in (True, False)])
    for name in "xyz":
        assert events.index((name, True)) < events.index((name, False))


def test_zero_jobs_refused() -> None:
    with pytest.raises(ValueError, match="--jobs is 0"):
        run_jobs([1], lambda n: n, 0)


def test_cli_refuses_zero_jobs_before_building(tmp_path) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(tmp_path),
                           "--jobs", "0"], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr == "error: --jobs is 0; give 1 or more\n"
    assert not (tmp_path / ".repogenesis").exists()  # nothing started


def test_progress_shows_a_line_per_running_task() -> None:
    import io

    from rich.console import Console

    from pipeline.build_ui import _Bars

    out = io.StringIO()
    bars = _Bars(Console(file=out, force_terminal=True, width=120))
    bars.running("alpha", True)
    bars.running("beta", True)
    bars.note("alpha", "round 0: 12 case(s)")
    bars.tick("execute", 0, 3)
    rows = {t.description: t.fields["note"] for t in bars.progress.tasks}
    assert rows["alpha"] == "round 0: 12 case(s)" and rows["beta"] == "starting"
    bars.running("alpha", False)
    assert [t.description for t in bars.progress.tasks].count("alpha") == 0
    assert "beta" in [t.description for t in bars.progress.tasks]
    bars.progress.refresh()  # renders with the note column without a missing-field error


def test_ctrl_c_marks_the_run_stopping_before_the_running_tasks_fail() -> None:
    """A task whose services Ctrl-C ended must see `stopping()` (and so stay interrupted,
    not be recorded as failed); a later run starts afresh."""
    import signal

    from pipeline.stages.jobs import stopping

    started = threading.Barrier(2, timeout=30)
    seen: list[bool] = []
    observed = threading.Event()

    def work(n: int) -> int:
        started.wait()
        if n == 0:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C: handled in the main thread
        else:
            deadline = threading.Event()
            for _ in range(600):
                if stopping():
                    break
                deadline.wait(0.05)
            seen.append(stopping())
            observed.set()
        return n

    with pytest.raises(KeyboardInterrupt):
        run_jobs([0, 1], work, 2)
    assert observed.wait(30) and seen == [True]
    assert run_jobs([2], lambda n: (stopping(), n), 2) == [(False, 2)]


def test_a_terminate_signal_whose_exception_was_swallowed_still_ends_the_run(monkeypatch) -> None:
    """Python may run the SIGTERM handler where exceptions are only logged (a finalizer): the
    run must still stop after the task in hand, and no new process may start."""
    from pipeline.execution import Launch, Terminated, process, spawn

    monkeypatch.setattr(process, "_TERMINATED_BY", None)
    monkeypatch.setattr(process, "kill_all", lambda *a, **k: None)
    done: list[int] = []

    def work(item: int) -> int:
        if item == 1:
            # the handler fires here and a finalizer eats its exception
            with contextlib.suppress(Terminated):
                process._on_terminate(signal.SIGTERM, None)
        done.append(item)
        return item

    with pytest.raises(Terminated) as raised:
        run_jobs([1, 2, 3], work, 1)
    assert raised.value.code == 128 + signal.SIGTERM and done == [1] and stopping()
    with pytest.raises(Terminated):
        spawn(Launch(argv=["true"], cwd=Path("."), log_path=Path("/dev/null")))
