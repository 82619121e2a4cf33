"""Applying split membership: the lock at build time, a task moved between splits, `resplit`.

Why moving a task redoes so little: of the whole life cycle only the route of a case the
reviewers could not agree on (conflict, or too few valid reviews) and that of a human-written
test (`routing.keep_human`) depend on the split -- Area Chair on verified, discarded or
accepted on train. Generation, oracle runs, mutants and reviews do not, so a moved task keeps
them and only those routes are decided again from the stored evidence and reviews.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.offline.strength import shape_only_code
from pipeline.routing import CaseFacts, Panel, decide
from pipeline.rubric import Routing
from pipeline.stages.difficulty import task_difficulty
from pipeline.stages.human import beyond_generated, generated_kills, is_human
from pipeline.stages.splitlock import (
    LOCK_NAME,
    AutoTask,
    Entry,
    assign,
    moves,
    read_lock,
    write_lock,
)
from pipeline.store import Store
from pipeline.tasks import TaskError, discover_tasks, load_task

SPLIT_DEPENDENT = {"conflict", "invalid"}


def lock_path(data_dir: Path) -> Path:
    return data_dir / LOCK_NAME


def locked_splits(data_dir: Path, auto: list[AutoTask], seed: str, share: float,
                  prefer_expert: bool) -> dict[str, str]:
    """The split of each given `auto` task: its lock entry, or a new one that is recorded
    now (counting every locked task of its level, selected or not)."""
    path = lock_path(data_dir)
    locked = read_lock(path)
    added = assign(auto, locked, seed, share, prefer_expert=prefer_expert)
    if added:
        write_lock(path, {**locked, **added})
    entries = {**locked, **added}
    return {t.id: entries[t.id].split for t in auto}


def move_task(store: Store, task_id: str, split: str, rules: Routing, reviewers: int) -> int:
    """Give a built task its new split, deciding again only the split-dependent routes;
    returns how many cases were routed anew."""
    changed = 0
    with store.transaction():
        store.upsert_task(task_id, split=split)  # type: ignore[arg-type]
        generated: set[str] | None = None  # a move changes no accepted generated case
        for case in store.latest_cases(task_id):
            last = store.latest_route(case.case_id)
            human = is_human(case)
            if last is None or last.round != case.round or not (human or _split_dependent(last)):
                continue  # a human test's every route may depend on the split (keep_human)
            evidence = store.evidence_for(case.case_id, case.round)
            reviews = store.reviews_for(case.case_id, case.round, as_given=True)
            if human and generated is None:
                generated = generated_kills(store, task_id, ())
            # decided at this round although a refine was left: the refiner could not change
            # it, and no build would refine it now
            facts = CaseFacts(
                human=human, refine_unchanged=last.route != "refine",
                beyond=beyond_generated(case, evidence, generated) if human else (),
                shape_only=human and shape_only_code(case.code, case.name))
            decision = decide(evidence, reviews, case.round, split, panel=Panel(rules, reviewers),
                              facts=facts)
            if (decision.route, decision.discard_reason) != (last.route, last.discard_reason):
                store.save_route(decision)
                changed += 1
    return changed


def _split_dependent(route) -> bool:
    return route.route == "area_chair" or (
        route.route == "discarded" and route.discard_reason in SPLIT_DEPENDENT)


def auto_tasks(data_dir: Path, store: Store | None) -> list[AutoTask]:
    """Every loadable `auto` task in data/raw with its level (the stored one when built)."""
    out = []
    for task_dir in discover_tasks(data_dir / "raw"):
        try:
            task = load_task(task_dir)
        except TaskError:
            continue
        if task.config.split != "auto":
            continue
        row = store.get_task(task.id) if store is not None else None
        level = (row.difficulty.level if row is not None and row.difficulty is not None
                 else task_difficulty(task_dir).level)
        out.append(AutoTask(task.id, level, task.config.source))
    return out


def resplit(data_dir: Path, store: Store | None, seed: str, share: float,
            prefer_expert: bool) -> list[tuple[str, str, str]]:
    """Reassign every `auto` task from scratch, write the lock, return what moved. The
    store follows at the next build (only split-dependent routes are decided again)."""
    path = lock_path(data_dir)
    before = read_lock(path)
    after: dict[str, Entry] = assign(auto_tasks(data_dir, store), {}, seed, share,
                                     prefer_expert=prefer_expert)
    write_lock(path, after)
    return moves(before, after)
