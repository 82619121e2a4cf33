"""The shared CPU budget: never more holders than slots, nested takes do not deadlock, and the
port picker hands distinct ports to threads picking at once."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from pipeline.execution.budget import CpuBudget, cpu_budget, cpu_slot, set_cpu_budget
from pipeline.execution.ports import free_port
from pipeline.mutation.runner import _claimed_port


def test_budget_never_exceeded_by_many_threads() -> None:
    budget = CpuBudget(3)
    inside = 0
    most = 0
    lock = threading.Lock()
    go = threading.Event()

    def worker() -> None:
        nonlocal inside, most
        go.wait()
        for _ in range(50):
            with budget.slot():
                with lock:
                    inside += 1
                    most = max(most, inside)
                with lock:
                    inside -= 1

    threads = [threading.Thread(target=worker) for _ in range(12)]
    for t in threads:
        t.start()
    go.set()
    for t in threads:
        t.join()
    assert most <= 3
    assert budget.peak <= 3
    assert budget.taken == 12 * 50
    assert budget.in_use == 0


def test_budget_lets_holders_overlap_up_to_its_size() -> None:
    budget = CpuBudget(2)
    both = threading.Barrier(2, timeout=30)  # breaks (fails the test) if only one gets in

    def worker() -> None:
        with budget.slot():
            both.wait()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not both.broken
    assert budget.peak == 2


def test_nested_slot_in_one_thread_takes_one() -> None:
    budget = CpuBudget(1)
    with budget.slot(), budget.slot():  # would wait forever if it took a second slot
        assert budget.in_use == 1
    assert budget.in_use == 0 and budget.taken == 1


def test_slot_released_on_error() -> None:
    budget = CpuBudget(1)
    with pytest.raises(RuntimeError), budget.slot():
        raise RuntimeError("boom")
    assert budget.in_use == 0
    with budget.slot():
        assert budget.in_use == 1


def test_set_cpu_budget_replaces_the_process_budget() -> None:
    old = cpu_budget().slots
    try:
        assert set_cpu_budget(1).slots == 1
        with cpu_slot():
            assert cpu_budget().in_use == 1
        assert cpu_budget().taken == 1
    finally:
        set_cpu_budget(old)
    with pytest.raises(ValueError, match="cpu budget is 0"):
        CpuBudget(0)


def _pick_in_threads(pick, threads: int = 8, each: int = 25) -> list[int]:
    got: list[int] = []
    lock = threading.Lock()
    go = threading.Barrier(threads, timeout=30)

    def worker() -> None:
        go.wait()
        mine = [pick() for _ in range(each)]
        with lock:
            got.extend(mine)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert len(got) == threads * each
    return got


def test_free_port_distinct_across_threads() -> None:
    got = _pick_in_threads(free_port)
    assert [p for p, n in Counter(got).items() if n > 1] == []


def test_claimed_ports_distinct_while_held_across_threads() -> None:
    held: list[int] = []
    lock = threading.Lock()
    release = threading.Barrier(8, timeout=30)

    def worker() -> None:
        with _claimed_port() as port:
            with lock:
                held.append(port)
            release.wait()  # every thread holds its port at once here

    pool = [threading.Thread(target=worker) for _ in range(8)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert len(held) == 8 and len(set(held)) == 8
