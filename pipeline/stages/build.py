"""`build`: every stage, per task, resumable.

Each task is built from its own inputs alone; its input hash (task files, rubric, pipeline
version) decides whether stored work still stands. The split is not part of it: it comes from
task.toml or `data/splits.lock` (see `stages.resplit`), and a moved task only has its
split-dependent routes decided again. Within a task, every step
is stored before the next starts (cases, then evidence, then reviews, then the route and any
refined version in one transaction), so a build killed at any point resumes where it stood.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.backend import Backend, OfflineBackend
from pipeline.chair.apply import apply_refines, pending_refines
from pipeline.config import Settings
from pipeline.execution import EnvError, ServiceError, ensure_task_env
from pipeline.execution.budget import cpu_slot
from pipeline.offline.strength import shape_only_code
from pipeline.records import (
    TASK_ID_RE,
    Difficulty,
    Endpoint,
    Evidence,
    Review,
    RouteDecision,
    Spec,
    TestCase,
)
from pipeline.routing import CaseFacts, decide
from pipeline.rubric import Routing, Rubric, load_rubric, rubric_hash
from pipeline.spec import task_spec
from pipeline.stages.alternatives import prepare_alternatives, with_alternatives
from pipeline.stages.coverage import no_accepted_reason
from pipeline.stages.difficulty import task_difficulty
from pipeline.stages.execute import execute_cases
from pipeline.stages.existing import existing_cases, existing_conftest, existing_order
from pipeline.stages.human import beyond_generated, generated_kills, is_human
from pipeline.stages.jobs import Running, no_running, run_jobs, stopping
from pipeline.stages.limits import RunLimits
from pipeline.stages.mutate import RoundLedger, awaits_mutants, mutate_round
from pipeline.stages.observe import observe_task
from pipeline.stages.published_check import (
    SuiteRunners,
    alternative_runners,
    check_published_suite,
    oracle_runner,
)
from pipeline.stages.resplit import locked_splits, move_task
from pipeline.stages.round_calls import RoundContext, refine_round, review_round
from pipeline.stages.selection import confirm_routes, select_tasks, static_check
from pipeline.stages.splitlock import AutoTask
from pipeline.stages.suspects import (
    SuspectPlan,
    accepted_evidence,
    prepare_suspects,
    suspects_root,
)
from pipeline.stages.taskstate import current_runner
from pipeline.store import Store
from pipeline.suites import SuiteSources, conftest_source
from pipeline.tasks import RawTask, TaskError, load_task

SKIP_PARTS = {"__pycache__", ".pytest_cache", ".DS_Store"}
PACKAGE_DIR = Path(__file__).resolve().parent.parent
# The code whose change can change what a build writes; a change redoes every task.
OUTPUT_CODE = ("offline", "spec", "stages", "records.py", "templates", "execution", "mutation",
               "suites.py", "languages")


Report = Callable[[str, str], None]  # (task_id, message)
Tick = Callable[[str, int, int], None]  # (stage, done now, more to do)


def _no_tick(stage: str, done: int, more: int) -> None:
    return None


def _default(name: str) -> Any:
    """A setting's default as `config.Settings` declares it: the one home of each default."""
    return Settings.model_fields[name].default


@dataclass
class BuildOptions:
    data_dir: Path
    seed: str = _default("split_seed")
    verified_share: float = _default("verified_share")
    prefer_expert: bool = _default("split_prefer_expert")
    max_rounds: int | None = _default("max_rounds")  # None: the rubric's max_refine_rounds
    runs: int = _default("oracle_runs")
    startup_timeout_s: float = _default("startup_timeout_s")
    test_timeout_s: float = _default("test_timeout_s")
    case_timeout_s: float = _default("case_timeout_s")
    mutation_cap: int = _default("mutation_cap")
    mutation_jobs: int | None = _default("mutation_jobs")
    mutation_selection: str = _default("mutation_selection")
    suspects: int = 0  # `--alternatives K`: implementations the generator model writes
    cache_dir: Path | None = None
    only: list[str] | None = None
    backend: Backend = field(default_factory=OfflineBackend)
    tick: Tick = _no_tick  # progress counts per stage, for a terminal's bars
    jobs: int = 1  # tasks built at once (see `stages.jobs`)
    running: Running = no_running  # a task started / finished, for a terminal's task lines

    @property
    def limits(self) -> RunLimits:
        """The running limits the execution gate and the mutants take."""
        return RunLimits(runs=self.runs, startup_timeout_s=self.startup_timeout_s,
                         test_timeout_s=self.test_timeout_s, case_timeout_s=self.case_timeout_s,
                         mutation_cap=self.mutation_cap, mutation_jobs=self.mutation_jobs,
                         mutation_selection=self.mutation_selection)


@dataclass(frozen=True)
class BuildRun:
    """What every task of one build shares: how to build it, where its work is stored, whom
    to tell, the rubric, and the build-wide part of each task's input hash."""

    options: BuildOptions
    store: Store
    report: Report
    rubric: Rubric
    extra: str = ""


@dataclass
class TaskResult:
    task_id: str
    state: str  # done | failed | reused
    split: str | None = None
    reason: str = ""
    counts: dict[str, int] = field(default_factory=dict)




def tree_hash(root: Path, digest: hashlib._Hash | None = None) -> str:
    digest = digest or hashlib.sha256()
    paths = [root] if root.is_file() else sorted(root.rglob("*"))
    for path in paths:
        rel = path.relative_to(root.parent)
        if path.is_file() and not SKIP_PARTS.intersection(rel.parts):
            digest.update(str(rel).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def code_fingerprint() -> str:
    digest = hashlib.sha256()
    for name in OUTPUT_CODE:
        tree_hash(PACKAGE_DIR / name, digest)
    return digest.hexdigest()[:16]


def input_hash(task_dir: Path, extra: str) -> str:
    return tree_hash(task_dir, hashlib.sha256(extra.encode()))


@dataclass
class Prepared:
    task: RawTask
    spec: Spec
    difficulty: Difficulty
    unconfirmed: list[Endpoint] = field(default_factory=list)  # the running oracle decides


def prepare(task_dirs: list[Path], store: Store, report: Report,
            failed: list[TaskResult] | None = None) -> list[Prepared]:
    """Load each task, its spec and difficulty; a task that cannot be loaded, or fails the
    static part of `check` (e.g. a documented endpoint the oracle does not route), is failed
    (and appended to `failed`)."""
    ready: list[Prepared] = []
    for task_dir in task_dirs:
        try:
            task = load_task(task_dir)
            spec = task_spec(task) if task.readme.is_file() else None
            if spec is None or not spec.endpoints:
                raise TaskError(f"{task.readme}: no endpoints found; run `repogenesis check "
                                f"{task_dir}` for what to fix")
            unconfirmed = static_check(task_dir)
            ready.append(Prepared(task, spec, task_difficulty(task_dir), unconfirmed))
        except TaskError as exc:
            if _storable_id(task_dir.name):
                store.upsert_task(task_dir.name, state="failed", error=str(exc))
            report(task_dir.name, f"failed: {exc}")
            if failed is not None:
                failed.append(TaskResult(task_dir.name, "failed", reason=str(exc)))
    return ready


def _storable_id(name: str) -> bool:
    return TASK_ID_RE.match(name) is not None


def resolve_splits(prepared: list[Prepared], options: BuildOptions) -> dict[str, str]:
    """task.toml's split, or for `auto` tasks the locked one (recorded now if new)."""
    auto = [AutoTask(p.task.id, p.difficulty.level, p.task.config.source)
            for p in prepared if p.task.config.split == "auto"]
    chosen = locked_splits(options.data_dir, auto, options.seed, options.verified_share,
                           options.prefer_expert)
    return {p.task.id: chosen.get(p.task.id, p.task.config.split) for p in prepared}


def routing_rules(rubric: Rubric, options: BuildOptions) -> Routing:
    """The rubric's routing block; a configured `max_rounds` overrides its refine budget."""
    if options.max_rounds is None:
        return rubric.routing
    return rubric.routing.model_copy(update={"max_refine_rounds": options.max_rounds})


def build(options: BuildOptions, store: Store, report: Report) -> list[TaskResult]:
    if options.suspects and not options.backend.writes_implementations:
        raise TaskError(f"--alternatives {options.suspects} asks the generator model to write "
                        "implementations from each README: it needs the llm mode (provider keys "
                        "set, no --offline); the offline mode writes none, so leave it out")
    dirs = select_tasks(options.data_dir / "raw", options.only)  # unknown ids: TaskError
    failed: list[TaskResult] = []
    prepared = prepare(dirs, store, report, failed)
    splits = resolve_splits(prepared, options)
    rubric = load_rubric()
    rules = routing_rules(rubric, options)
    extra = (f"{code_fingerprint()}:{rubric_hash()}:{rules.max_refine_rounds}:{options.runs}:"
             f"{options.backend.name}:mutants={options.mutation_cap}"
             + (f":suspects={options.suspects}" if options.suspects else ""))
    options.tick("tasks", 0, len(prepared))
    run = BuildRun(options, store, report, rubric, extra)

    def one(item: Prepared) -> TaskResult:
        result = build_task(item, splits[item.task.id], run)
        options.tick("tasks", 1, 0)
        return result

    return failed + run_jobs(prepared, one, options.jobs, name=lambda p: p.task.id,
                             running=options.running)


def build_task(item: Prepared, split: str, run: BuildRun) -> TaskResult:
    task, rubric, options, store, report = item.task, run.rubric, run.options, run.store, run.report
    digest = input_hash(task.dir, run.extra)
    row = store.get_task(task.id)
    if row is not None and row.input_hash == digest and row.split not in (None, split):
        rerouted = move_task(store, task.id, split, routing_rules(rubric, options),
                             options.backend.reviewer_count)
        report(task.id, f"moved from {row.split} to {split}: {rerouted} case(s) routed anew, "
               "nothing else redone")
    if row is not None and row.input_hash == digest and row.state == "done" \
            and not pending_refines(store, row):  # a chair's refine is new work
        return TaskResult(task.id, "reused", split)
    if row is not None and row.input_hash != digest:
        store.reset_task(task.id)  # inputs changed: derived work goes, AC decisions stay
    store.upsert_task(task.id, input_hash=digest, split=split, state="running", error=None,
                      runner=current_runner(),  # a dead runner shows as interrupted
                      spec=item.spec, difficulty=item.difficulty,
                      content_hash=tree_hash(task.dir))  # what Area Chair decisions name
    try:
        if item.unconfirmed:
            with cpu_slot():
                confirm_routes(task, item.unconfirmed, options.startup_timeout_s,
                               options.cache_dir)
        counts = run_loop(task, item.spec, split, digest, run)
    except TaskError as exc:  # the running oracle does not route a documented endpoint
        store.upsert_task(task.id, state="failed", error=str(exc))
        report(task.id, f"failed: {exc}")
        return TaskResult(task.id, "failed", split, str(exc))
    except (ServiceError, EnvError) as exc:
        if stopping():  # Ctrl-C ended its services: interrupted (state stays), not failed
            raise
        store.upsert_task(task.id, state="failed", error=str(exc))
        report(task.id, f"failed: {exc}")
        return TaskResult(task.id, "failed", split, str(exc))
    reason = no_accepted_reason(item.spec, counts)
    if reason is not None:  # never an empty suite: reported, not published
        store.upsert_task(task.id, state="failed", error=reason)
        report(task.id, f"failed: {reason}")
        return TaskResult(task.id, "failed", split, reason, counts=counts)
    store.upsert_task(task.id, state="done", error=None)
    return TaskResult(task.id, "done", split, counts=counts)


def seed_cases(task: RawTask, spec: Spec, readme: str, backend: Backend, store: Store) -> None:
    if store.cases_for_round(task.id, 0):
        return
    cases = backend.generate(task.id, spec, readme) + existing_cases(task.id, task.tests_dir)
    with store.transaction():
        for case in cases:
            store.save_case(case)


def run_loop(task: RawTask, spec: Spec, split: str, digest: str,
             run: BuildRun) -> dict[str, int]:
    rubric, options, store, report = run.rubric, run.options, run.store, run.report
    readme = task.readme.read_text(encoding="utf-8")
    # the generator and the refiner see where the oracle puts things (on a resume too)
    spec.observed = observe_task(task, spec, options.startup_timeout_s, options.cache_dir)
    seed_cases(task, spec, readme, options.backend, store)
    row = store.get_task(task.id)

    def chair_refine(case: TestCase, ev: Evidence | None, rv: list[Review], note: str):
        return options.backend.refine(case, ev, rv, spec, readme, note=note)

    if row is not None and apply_refines(store, row, chair_refine):
        report(task.id, "refined the case(s) the Area Chair sent back")
    env = ensure_task_env(task.oracle_dir, task.config.language, root=options.cache_dir)
    alternatives = prepare_alternatives(task, options.cache_dir)
    suspects = prepare_suspects(task, spec, readme, SuspectPlan(
        options.backend, options.suspects, suspects_root(options.data_dir, task.id, digest),
        options.cache_dir, options.startup_timeout_s), report) if options.suspects else []
    sources = SuiteSources(conftest_source(spec, task.config.port),
                           existing_conftest(task.tests_dir), existing_order(task.tests_dir))
    last = max((c.round for c in store.latest_cases(task.id)), default=0)
    max_rounds = routing_rules(rubric, options).max_refine_rounds
    for rnd in range(max(max_rounds, last) + 1):  # a chair's refine may go past it
        pending = [c for c in store.cases_for_round(task.id, rnd) if not _routed(store, c)]
        if not pending:
            continue
        report(task.id, f"round {rnd}: {len(pending)} case(s)")
        # the round's evidence is read once and kept up to date here as each stage stores it
        held = {c.case_id: store.evidence_for(c.case_id, rnd) for c in pending}
        to_run = [c for c in pending if held[c.case_id] is None]
        options.tick("execute", 0, len(to_run))
        options.tick("review", 0, len(pending))
        evidence = execute_cases(task.oracle_dir, env.bin if env else None, to_run, sources,
                                 options.limits)
        evidence = with_alternatives(evidence, to_run, alternatives + suspects, sources,
                                     options.limits)
        with store.transaction():
            for ev in evidence:
                store.save_evidence(ev)
        held.update((ev.case_id, ev) for ev in evidence)
        options.tick("execute", len(to_run), 0)
        held.update((ev.case_id, ev) for ev in mutate(
            task, [(c, held[c.case_id]) for c in pending], digest, sources,
            env.bin if env else None, run))
        round_evidence = [held[c.case_id] for c in pending]
        options.backend.prefetch_reviews(list(zip(pending, round_evidence, strict=True)), spec,
                                         readme, rubric)
        ctx = RoundContext(spec, readme, split, rubric, routing_rules(rubric, options),
                           options.backend.reviewer_count)
        decided = review_round(pending, ctx, options.backend, store,  # one batch of calls
                               round_evidence)
        accepted = accepted_evidence(decided, store, task.id) if suspects else None
        refining = [d for d in decided if d[3].route == "refine"]
        if refining:
            options.backend.prefetch_refines([(c, ev, rv, None) for c, ev, rv, _ in refining],
                                             spec, readme)
        refines = refine_round(decided, ctx, options.backend)  # then the refines together
        generated = generated_kills(store, task.id, decided)
        outcomes = []
        for (case, evidence, reviews, _), refined in zip(decided, refines, strict=True):
            unchanged = refined is not None \
                and (refined.code, refined.prelude) == (case.code, case.prelude)
            human = is_human(case)
            facts = CaseFacts(
                human=human, refine_unchanged=unchanged,
                beyond=beyond_generated(case, evidence, generated) if human else (),
                shape_only=human and shape_only_code(case.code, case.name),
                suspect_others=None if accepted is None else
                [ev for cid, ev in accepted.items() if cid != case.case_id])
            decision = decide(evidence, reviews, case.round, split,
                              panel=ctx.panel, facts=facts)
            outcomes.append((case, reviews, decision, None if unchanged else refined))
        save_outcomes(outcomes, store)  # the round's reviews, routes and refines: one write
        options.tick("review", len(outcomes), 0)
    # the files publish writes, run once: a case failing only there is not published
    runners = SuiteRunners(oracle_runner(task.oracle_dir, env.bin if env else None,
                                         options.limits),
                           alternative_runners(alternatives, options.limits))
    check_published_suite(store, task.id, sources, runners, report, split=split)
    return _counts(store, task.id)


def mutate(task: RawTask, pending: list[tuple[TestCase, Evidence | None]], digest: str,
           sources: SuiteSources, env_bin: Path | None, run: BuildRun) -> list[Evidence]:
    """Mutant kills of the round's passing cases (each with its evidence), stored with their
    evidence and returned (see `stages.mutate`)."""
    options, store = run.options, run.store
    todo = [(c, ev) for c, ev in pending if ev is not None and awaits_mutants(ev)]
    if options.mutation_cap <= 0 or not todo:
        return []
    run.report(task.id, f"mutants: {len(todo)} case(s) against up to {options.mutation_cap}")
    options.tick("mutate", 0, len(todo))
    updated = mutate_round(task, todo, sources, options.limits,
                           ledger=RoundLedger(store, digest), env_bin=env_bin)
    options.tick("mutate", len(todo), 0)
    return updated


def _routed(store: Store, case: TestCase) -> bool:
    latest = store.latest_route(case.case_id)
    return latest is not None and latest.round >= case.round


def review_and_route(
    case: TestCase, spec: Spec, readme: str, split: str, run: BuildRun,
) -> tuple[TestCase, Evidence | None, list[Review], RouteDecision]:
    """One case's reviews (model calls, outside any transaction) and routing decision."""
    options = run.options
    ctx = RoundContext(spec, readme, split, run.rubric, routing_rules(run.rubric, options),
                       options.backend.reviewer_count)
    return review_round([case], ctx, options.backend, run.store)[0]


Outcome = tuple[TestCase, list[Review], RouteDecision, TestCase | None]


def save_outcomes(outcomes: list[Outcome], store: Store) -> None:
    """A round's reviews, routes and refined versions, in case order, land together or not
    at all (a build killed before this write loses no paid call: the answers are cached)."""
    with store.transaction():
        for case, reviews, decision, refined in outcomes:
            for review in reviews:
                store.save_review(review)
            store.save_route(decision)
            if refined is not None:
                store.save_case(refined.model_copy(update={"round": case.round + 1}))


def _counts(store: Store, task_id: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for case in store.latest_cases(task_id):
        route = store.latest_route(case.case_id)
        key = route.route if route is None or route.route != "discarded" else \
            f"discarded:{route.discard_reason}"
        counts[str(key)] = counts.get(str(key), 0) + 1
    return counts
