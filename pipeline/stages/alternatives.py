"""Cases on the task's independent correct implementations (`alternatives/<name>/`).

The oracle is one correct reading of the README; whatever it happens to do where the document
leaves a choice open (400 or 422, newest first, its own error words) can slip into an assertion
as if the document said it. Every case that passes on the oracle therefore also runs once on
each alternative, each group of the suite against a freshly started one, as on the oracle; a
case that fails there is over-specified (`Evidence.rejects_alternative`, routed by
`pipeline.routing`). Mutant kills keep counting on the oracle only.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.execution import ServiceError, ensure_task_env, scratch_prefix
from pipeline.execution.pytest_runner import TestRun
from pipeline.records import AlternativeRun, Evidence, TestCase
from pipeline.routing import OVER_SPECIFIED
from pipeline.stages.execute import outcome_of, run_group_on, run_result, write_suite
from pipeline.stages.limits import RunLimits
from pipeline.store import Store
from pipeline.suite_runs import merge_runs, run_groups
from pipeline.suites import SuiteSources
from pipeline.tasks import RawTask


@dataclass(frozen=True)
class Alternative:
    name: str
    dir: Path
    env_bin: Path | None
    suspect: bool = False  # model-written (`stages.suspects`): evidence, not a reference


def alternative_language(alt_dir: Path, default: str) -> str:
    """An alternative may use another language than its oracle: its build files say which."""
    if (alt_dir / "requirements.txt").is_file() or (alt_dir / "pyproject.toml").is_file():
        return "python"
    if (alt_dir / "pom.xml").is_file():
        return "java"
    return default


def prepare_alternatives(task: RawTask, cache_dir: Path | None) -> list[Alternative]:
    """Each alternative with its environment (its start.sh was checked by the static part of
    `check` before the build; one that does not start raises ServiceError when run)."""
    out = []
    for alt_dir in task.alternative_dirs:
        env = ensure_task_env(alt_dir, alternative_language(alt_dir, task.config.language),
                              root=cache_dir)
        out.append(Alternative(alt_dir.name, alt_dir, env.bin if env else None))
    return out


def run_on_alternative(alt: Alternative, suite: Path, limits: RunLimits) -> TestRun:
    """A written suite folder once against `alt` (each group on a fresh start)."""
    role = f"the alternative {alt.name!r}"
    return merge_runs(run_groups(suite, lambda group: run_group_on(
        alt.dir, alt.env_bin, suite, group, limits, role=role)))


def with_alternatives(evidence: list[Evidence], cases: list[TestCase],
                      alternatives: list[Alternative], sources: SuiteSources,
                      limits: RunLimits) -> list[Evidence]:
    """`evidence` with the runs on every alternative of the cases that passed on the oracle
    (the others keep none: they fail already)."""
    passing = {ev.case_id for ev in evidence if ev.passed}
    todo = [c for c in cases if c.case_id in passing]
    if not alternatives or not todo:
        return evidence
    runs: dict[str, list[AlternativeRun]] = {c.case_id: [] for c in todo}
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("alternatives")) as tmp:
        suite = Path(tmp)
        nodeids = write_suite(suite, todo, sources)
        for alt in alternatives:
            try:
                run = run_on_alternative(alt, suite, limits)
            except ServiceError as exc:
                if not alt.suspect:  # a bundled alternative must serve: the task fails
                    raise
                for case_id in nodeids.values():  # a model's code may not: it is a suspect
                    runs[case_id].append(AlternativeRun(name=alt.name, outcome="error",
                                                        output=str(exc), suspect=True))
                continue
            outcomes = run.by_id()
            for nodeid, case_id in nodeids.items():
                result = run_result(outcome_of(nodeid, outcomes), run.timed_out)
                runs[case_id].append(AlternativeRun(name=alt.name, outcome=result.outcome,
                                                    output=result.output, suspect=alt.suspect))
    return [ev.model_copy(update={"alternatives": runs[ev.case_id]})
            if ev.case_id in runs else ev for ev in evidence]


def over_specified_stops(store: Store, task_id: str) -> int:
    """Cases of a task that were stopped at least once because they failed on an alternative
    (refined, sent to the Area Chair or discarded for it)."""
    return sum(any(r.reason.startswith(OVER_SPECIFIED) for r in store.routes_for(c.case_id))
               for c in store.latest_cases(task_id))


def alternative_figures(store: Store, task_id: str, cases: list[TestCase]) -> dict[str, Any]:
    """What task.json, status and the card say about a task's alternatives: their names, on
    how many of them every published case passed, how many cases they stopped."""
    passed: list[set[str]] = []
    names: set[str] = set()
    suspects: set[str] = set()
    failing_on_suspects = 0
    for case in cases:
        ev = store.evidence_for(case.case_id, case.round)
        runs = ev.alternatives if ev is not None else []
        names |= {a.name for a in runs if not a.suspect}
        suspects |= {a.name for a in runs if a.suspect}
        passed.append({a.name for a in runs if a.outcome == "passed" and not a.suspect})
        failing_on_suspects += bool(ev is not None and ev.fails_on_suspects)
    figures: dict[str, Any] = {
        "names": sorted(names), "every_test_passes_on": min((len(p) for p in passed), default=0),
        "over_specified": over_specified_stops(store, task_id)}
    if suspects:  # `build --alternatives K` only: the offline outputs keep their shape
        figures["suspects"] = {"names": sorted(suspects),
                               "published_tests_failing_on_one": failing_on_suspects}
    return figures
