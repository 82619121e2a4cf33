"""The CPU budget: how many services (each with its pytest run) may run at once in this process.

Why one process-wide pool: `build --jobs N` runs several tasks in threads, and each task runs
its oracle twice per round and then a pool of mutants; without a shared limit N tasks with
`mutation_jobs` mutants each would start N × jobs services on a machine that has far fewer
cores, and time-outs (hence results) would start to depend on load. Every service started
through `start_service` holds one slot for as long as it runs (its tests run inside that), so
the oracle runs, the mutants and the offline generator's runs all draw from the same budget.

A thread that already holds a slot does not take a second one (a nested start would otherwise
deadlock a budget of one); model calls never take a slot, so they overlap freely.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class CpuBudget:
    """A counting semaphore with the figures a test needs (in use now, the most ever)."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"cpu budget is {slots}; set it to 1 or more")
        self.slots = slots
        self._cond = threading.Condition()
        self._in_use = 0
        self.peak = 0
        self.taken = 0
        self._local = threading.local()

    @property
    def in_use(self) -> int:
        return self._in_use

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one slot for the block (waiting for one if all are taken)."""
        if getattr(self._local, "held", 0):  # nested in this thread: already counted
            self._local.held += 1
            try:
                yield
            finally:
                self._local.held -= 1
            return
        with self._cond:
            self._cond.wait_for(lambda: self._in_use < self.slots)
            self._in_use += 1
            self.taken += 1
            self.peak = max(self.peak, self._in_use)
        self._local.held = 1
        try:
            yield
        finally:
            self._local.held = 0
            with self._cond:
                self._in_use -= 1
                self._cond.notify()


def default_slots() -> int:
    """The machine's cores (at least one)."""
    return max(1, os.cpu_count() or 1)


_BUDGET = CpuBudget(default_slots())
_SWAP = threading.Lock()


def cpu_budget() -> CpuBudget:
    """The process's budget (what `start_service` takes its slot from)."""
    return _BUDGET


def set_cpu_budget(slots: int | None) -> CpuBudget:
    """Replace the process's budget (None: the machine's cores) and return it; call it before
    any service starts (slots held in the old budget are released there)."""
    global _BUDGET
    with _SWAP:
        _BUDGET = CpuBudget(slots if slots is not None else default_slots())
        return _BUDGET


@contextmanager
def cpu_slot() -> Iterator[None]:
    """One slot of the current budget for the block."""
    with cpu_budget().slot():
        yield
