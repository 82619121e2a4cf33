"""Run generated cases against a task's oracle (used by the bench and the slow tests)."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.execution import ensure_task_env, free_port, run_pytest, scratch_prefix, start_service
from pipeline.execution.budget import cpu_slot
from pipeline.offline.generate import generate_cases
from pipeline.records import TestCase
from pipeline.spec import task_spec
from pipeline.stages.observe import observe_task
from pipeline.suites import conftest_source, module_source
from pipeline.tasks import load_task


@dataclass
class GeneratedRun:
    task_id: str
    cases: list[TestCase]
    outcomes: list[dict[str, str]] = field(default_factory=list)  # per run: name -> outcome
    outputs: dict[str, str] = field(default_factory=dict)  # name -> first failing output

    def passed(self, run: int) -> int:
        return sum(o == "passed" for o in self.outcomes[run].values()) if self.outcomes else 0

    def failing(self) -> list[str]:
        return sorted({n for run in self.outcomes for n, o in run.items() if o != "passed"})

    def categories_passing(self) -> set[str]:
        ok = {n for n in self.outcomes[0] if all(r.get(n) == "passed" for r in self.outcomes)}
        return {c.category for c in self.cases if c.name in ok}


def first_error(output: str) -> str:
    """The most telling line of a pytest failure (the `E ...` line, else the last line)."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    for line in lines:
        if line.startswith("E "):
            return line[:200]
    return lines[-1][:200] if lines else "(no output)"


def run_generated(task_dir: Path, runs: int = 2, cache_dir: Path | None = None,
                  timeout_s: float = 180.0) -> GeneratedRun:
    """Generate the task's cases, start its oracle on a free port, run the suite `runs` times.

    Every other run writes the module in reverse order, so order dependence shows up too.
    """
    task = load_task(task_dir)
    spec = task_spec(task)
    spec.observed = observe_task(task, spec, 60.0, cache_dir)  # as the build does
    cases = generate_cases(task.id, spec)
    result = GeneratedRun(task.id, cases)
    if not cases:
        return result
    work = Path(tempfile.mkdtemp(prefix=scratch_prefix("offline")))
    try:
        tests = work / "tests"
        tests.mkdir()
        (tests / "conftest.py").write_text(conftest_source(spec, task.config.port), "utf-8")
        env = ensure_task_env(task.oracle_dir, task.config.language, root=cache_dir)
        with cpu_slot(), start_service(task.oracle_dir, free_port(),  # slot, then port
                                       env.bin if env else None) as service:
            for i in range(runs):
                ordered = cases if i % 2 == 0 else cases[::-1]
                (tests / "test_generated.py").write_text(module_source(ordered), "utf-8")
                run = run_pytest(tests, service.base_url, timeout_s)
                outcome = {}
                for t in run.tests:
                    name = t.nodeid.rsplit("::", 1)[-1]
                    outcome[name] = t.outcome
                    if t.outcome != "passed":
                        result.outputs.setdefault(name, t.output)
                result.outcomes.append(outcome)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result
