"""The published suite, run once against the oracle before a task is published.

The build runs every case twice in its own execution suite (one module per generated case,
forward and reversed). The suite `publish` writes is different: only the accepted cases,
grouped by category into a few modules, in another order. A case that depends on state or on
its neighbours (an upstream test asserting an empty list for a token an earlier test already
used) can pass in the build runs and fail there, where users run it. This stage runs exactly
the files publish writes (`suites.shipped_files`) against a fresh oracle; a case that fails is
routed as failing on the oracle with the reason, and the suite is run again without it, until
it passes whole. The same files run once on every alternative of the task: a case that fails
there (and not on the oracle) is over-specified (`pipeline.routing`).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.execution import run_pytest, scratch_prefix, start_service
from pipeline.execution.ports import free_port
from pipeline.execution.pytest_runner import TestRun
from pipeline.records import TestCase
from pipeline.routing import published_route
from pipeline.stages.alternatives import Alternative, run_on_alternative
from pipeline.stages.execute import outcome_of
from pipeline.stages.limits import RunLimits
from pipeline.stages.publish import accepted_cases
from pipeline.store import Store
from pipeline.suite_runs import Group, merge_runs, run_groups
from pipeline.suites import SuiteSources, case_file, is_human_module, shipped_files, write_files

MAX_PASSES = 3  # each pass drops the failing cases; state chains rarely go deeper
Runner = Callable[[Path], TestRun]  # runs a written suite folder against a fresh oracle


def shipped_nodeid(case: TestCase) -> str:
    """The pytest node id of `case` inside the published tests/ folder."""
    return f"{case_file(case)}::{case.node_name if is_human_module(case) else case.name}"


def accepted_now(store: Store, task_id: str) -> list[TestCase]:
    """The cases publish writes: the reviewers' accepts and the Area Chair's."""
    return [case for case, _ in accepted_cases(store, task_id)]


def _by_reviewers(store: Store, case: TestCase) -> bool:
    """Accepted by the reviewers on this version (not only by an Area Chair decision, which
    this check never overrides: human work is kept)."""
    route = store.latest_route(case.case_id)
    return route is not None and route.route == "accepted" and route.round == case.round


def failing_cases(cases: list[TestCase], sources: SuiteSources, run: Runner) -> dict[str, str]:
    """case_id -> first line of its failure, for one run of the published suite."""
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("published")) as tmp:
        suite = Path(tmp)
        write_files(suite, shipped_files(cases, sources))
        result = run(suite)
    outcomes = result.by_id()
    failing = {}
    for case in cases:
        outcome = outcome_of(shipped_nodeid(case), outcomes)
        if outcome is None or outcome.outcome != "passed":
            failing[case.case_id] = _first_error(outcome.output if outcome else "not run")
    return failing


def _first_error(output: str) -> str:
    """The assertion or exception line of a pytest failure report ("E   AssertionError: ...")."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    marked = [ln[1:].strip() for ln in lines if re.match(r"E\s", ln)]
    plain = [ln for ln in lines if not re.fullmatch(r"[-=_ ]*\w*[ \w]*[-=_]{3,}", ln)]
    return ((marked or plain or [""])[0])[:200]


@dataclass(frozen=True)
class SuiteRunners:
    """Where the published suite runs: the oracle, and each alternative by name."""

    oracle: Runner
    alternatives: dict[str, Runner] = field(default_factory=dict)


def check_published_suite(store: Store, task_id: str, sources: SuiteSources,
                          runners: SuiteRunners,
                          report: Callable[[str, str], None] | None = None,
                          split: str = "train") -> list[str]:
    """Route the accepted cases that fail in the published suite, on the oracle or on an
    alternative; returns their ids."""
    dropped: list[str] = []
    for _ in range(MAX_PASSES):
        cases = accepted_now(store, task_id)
        if not cases:
            break
        ours = {c.case_id for c in cases if _by_reviewers(store, c)}
        failing = {cid: why for cid, why in failing_cases(cases, sources, runners.oracle).items()
                   if cid in ours}
        over: dict[str, str] = {}
        for name, alt_run in runners.alternatives.items():
            for cid, why in failing_cases(cases, sources, alt_run).items():
                if cid in ours and cid not in failing and cid not in over:
                    over[cid] = f"fails on the alternative {name!r}: {why}"
        if not failing and not over:
            break
        with store.transaction():
            for case in cases:
                if case.case_id in failing or case.case_id in over:
                    store.save_route(published_route(
                        case.case_id, case.round, split, human=is_human_module(case),
                        oracle_failure=failing.get(case.case_id),
                        alternative_failure=over.get(case.case_id)))
        dropped += sorted({*failing, *over})
        if report is not None:
            alt = f" and {len(over)} on an alternative" if over else ""
            report(task_id, f"published suite: {len(failing)} case(s) fail on the oracle{alt} "
                            "there and are not published")
    return dropped


def alternative_runners(alternatives: list[Alternative], limits: RunLimits) -> dict[str, Runner]:
    """Each alternative's runner for the published suite (as on the oracle, once)."""
    return {alt.name: (lambda suite, alt=alt: run_on_alternative(alt, suite, limits))
            for alt in alternatives}


def oracle_runner(oracle_dir: Path, env_bin: Path | None, limits: RunLimits) -> Runner:
    """Run a suite folder once against a freshly started oracle (each human file against one
    of its own, as `evaluate` runs the published suite: see `suite_runs`)."""

    def run_group(suite: Path, group: Group) -> TestRun:
        with start_service(oracle_dir, free_port(), env_bin,
                           startup_timeout_s=limits.startup_timeout_s) as service:
            return run_pytest(suite, service.base_url, limits.test_timeout_s,
                              extra_args=(f"--timeout={limits.case_timeout_s:g}", *group))

    def run(suite: Path) -> TestRun:
        return merge_runs(run_groups(suite, lambda group: run_group(suite, group)))

    return run
