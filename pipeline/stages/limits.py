"""`RunLimits`: how much running a stage may do (runs, time-outs, mutants), in one object.

The execution gate and the mutation round take it instead of a row of loose keyword
arguments, so a new limit is added in one place and every caller passes the same values.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RunLimits:
    runs: int = 2  # executions of each case on fresh oracles (every other one reversed)
    startup_timeout_s: float = 90.0  # a service must answer within this
    test_timeout_s: float = 300.0  # one pytest run, wall clock
    case_timeout_s: float = 30.0  # one test case
    mutation_cap: int = 16  # mutants per task (0: none)
    mutation_jobs: int | None = None  # mutants run at once (None: the runner decides)
    mutation_selection: str = "all"  # "reaching": only the tests that can reach a mutant

    def __post_init__(self) -> None:
        if self.runs < 1:
            raise ValueError(f"runs is {self.runs}; set oracle_runs to 1 or more")
        for name in ("startup_timeout_s", "test_timeout_s", "case_timeout_s"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} is {getattr(self, name)}; set it above 0 seconds")
