"""Mutation evidence: each round's passing cases against the task's fixed mutant set.

Every round, the cases that passed the execution gate run together (the same files and order
as the gate) against a fresh service per mutant of the oracle; the mutant set is the same every
round (same sources, cap and seed), so kills add up across rounds. What each case killed is
stored with its evidence before any reviewer sees it; the mutant statuses of each round are
stored per task input, and the suite's report (for task.json) is their merge over the accepted
cases (`suite_mutation`), so an Area Chair accept needs no rerun.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.execution import scratch_prefix
from pipeline.mutation import merge_rounds, mutation_report
from pipeline.mutation.handlers import oracle_mutant_endpoints, own_mutants
from pipeline.mutation.runner import read_oracle_sources
from pipeline.records import Evidence, MutationEvidence, TestCase
from pipeline.stages.execute import REQUEST_LOG, write_suite
from pipeline.stages.limits import RunLimits
from pipeline.store import Store
from pipeline.suites import SuiteSources
from pipeline.tasks import RawTask

# Timing-dependent parts of the runner's report stay out of stored (and published) output.
VOLATILE = ("baseline", "jobs", "duration_s", "per_test", "selection")


def round_reports(store: Store, task_id: str, input_hash: str) -> list[dict[str, Any]]:
    return [json.loads(r) for r in store.mutation_round_reports(task_id, input_hash)]


def awaits_mutants(evidence: Evidence | None) -> bool:
    """A version that passed the execution gate and has not met the mutants yet."""
    return evidence is not None and evidence.passed and evidence.mutation is None


@dataclass(frozen=True)
class RoundLedger:
    """Where a round's kills are kept: `store`, under the task's `input_hash` (the statuses
    of a round run on other inputs are not this build's)."""

    store: Store
    input_hash: str


def mutate_round(
    task: RawTask,
    evidence: list[tuple[TestCase, Evidence]],
    sources: SuiteSources,
    limits: RunLimits,
    *,
    ledger: RoundLedger,
    env_bin: Path | None,
) -> list[Evidence]:
    """Run the passing cases of one round against the mutants; store and return their evidence
    with the kills (the evidence and the round's mutant statuses land in one transaction).

    Raises ServiceError if the unmutated oracle does not start."""
    store, input_hash = ledger.store, ledger.input_hash
    passing = [(c, ev) for c, ev in evidence if awaits_mutants(ev)]
    if limits.mutation_cap <= 0 or not passing:
        return []
    rnd = passing[0][0].round
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("mutation")) as tmp:
        nodeids = write_suite(Path(tmp), [c for c, _ in passing], sources)
        report = mutation_report(
            task.dir, Path(tmp), nodeids, cap=limits.mutation_cap, jobs=limits.mutation_jobs,
            env_bin=env_bin, startup_timeout_s=limits.startup_timeout_s,
            test_timeout_s=limits.test_timeout_s, selection=limits.mutation_selection,
            request_log=REQUEST_LOG,
        )
    by_mutant = oracle_mutant_endpoints(
        task.oracle_dir, read_oracle_sources(task.oracle_dir, task.config.language),
        sorted({e for c, _ in passing for e in c.endpoints}), report["mutants_detail"])
    updated = [ev.model_copy(update={"mutation": _case_evidence(c, report, by_mutant)})
               for c, ev in passing]
    stored = {k: v for k, v in report.items() if k not in VOLATILE}
    # A stillborn mutant's detail names temp folders, ports and seconds: keep its status only.
    stored["mutants_detail"] = [{k: v for k, v in m.items() if k != "detail"}
                                for m in report["mutants_detail"]]
    with store.transaction():
        for ev in updated:
            store.save_evidence(ev)
        store.save_mutation_round(task.id, input_hash, rnd, json.dumps(stored, sort_keys=True))
    return updated


def _case_evidence(case: TestCase, report: dict[str, Any],
                   by_mutant: dict[str, list[str]]) -> MutationEvidence:
    case_id = case.case_id
    entry = report["per_test"].get(case_id)
    valid, together = int(report["valid"]), int(report["killed"])
    if entry is None or (entry.get("score") is None and entry.get("excluded")):
        why = (entry or {}).get("excluded") or "not run against the mutants"
        return MutationEvidence(valid=valid, excluded=why, round_killed=together)
    alone = sorted(m["id"] for m in report["mutants_detail"] if m["killed_by"] == [case_id])
    own = own_mutants(case_id, case.endpoints, by_mutant, report["mutants_detail"])
    return MutationEvidence(valid=valid, killed=list(entry["killed"]), unique=alone,
                            round_killed=together, endpoint_mutants=own.mutants,
                            endpoint_killed_by_others=own.killed_by_others)


def suite_mutation(store: Store, task_id: str, input_hash: str,
                   cases: list[TestCase]) -> dict[str, Any] | None:
    """The accepted suite's mutation report: the rounds' mutant statuses, each case's kills."""
    kills: dict[str, list[str] | None] = {}
    for case in cases:
        ev = store.evidence_for(case.case_id, case.round)
        mutation = ev.mutation if ev is not None else None
        kills[case.case_id] = (list(mutation.killed)
                               if mutation is not None and mutation.excluded is None else None)
    return merge_rounds(round_reports(store, task_id, input_hash), kills)
