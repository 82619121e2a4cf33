"""What `build` and `status` show: a live line per task on a terminal, plain lines otherwise,
and a summary table at the end."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pipeline.config import Settings, load_settings
from pipeline.llm import make_backend
from pipeline.llm.settings import ModeError, load_llm_settings, mode_banner, resolve_mode
from pipeline.stages.splitlock import LOCK_NAME

if TYPE_CHECKING:
    from pipeline.stages.build import BuildOptions
    from pipeline.store import Store


def _console() -> Console:
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 140
    return console


@dataclass(frozen=True)
class BuildRequest:
    """What `repogenesis build` was asked for: its data folder, state database and options."""

    data: Path
    db: Path
    only: list[str] | None = None
    offline: bool = False
    fallback: bool = False
    batch: bool = False
    check: bool = False
    jobs: int = 1
    cpu_budget: int | None = None
    suspects: int = 0


def run_build(request: BuildRequest) -> None:
    """Build, then publish (or with `check`, compare the committed outputs instead)."""
    from pipeline.execution import install_signal_handlers
    from pipeline.execution.budget import set_cpu_budget
    from pipeline.stages.build import build
    from pipeline.stages.taskstate import raw_ids
    from pipeline.store import Store

    settings = load_settings()
    install_signal_handlers()
    budget = set_cpu_budget(request.cpu_budget or settings.cpu_budget)
    console = _console()
    _prepare(request, console)
    llm_settings = load_llm_settings()
    try:
        mode = resolve_mode(llm_settings, os.environ, request.offline, request.fallback)
    except ModeError as exc:
        _fail(str(exc))
    console.print(mode_banner(llm_settings, mode))
    if request.jobs > 1:
        console.print(f"{request.jobs} tasks at once; at most {budget.slots} service(s) "
                      "running at once")
    started = time.monotonic()
    bars = _Bars(console) if console.is_terminal else None
    options = _options(settings, request, bars)
    lock_before = _read_bytes(request.data / LOCK_NAME)
    with Store.open(request.db) as store:
        _sync_decisions(request.data, store)
        if mode == "llm":
            options.backend = make_backend(store, llm_settings, batch=request.batch)
        report = _reporter(console, bars, started)
        if bars is not None:
            with bars.progress:
                results = build(options, store, report)
        else:
            results = build(options, store, report)
        if request.check:
            stale = _check_after_build(request.data, store, lock_before, request.only)
        else:
            written = _publish(request.data, store)
        status = task_status(store, raw_ids(request.data))
    print_status(status, console, {r.task_id: r for r in results})
    if request.check:
        _report_check(stale, request.data, console)
    else:
        console.print(f"wrote {written['verified']} verified and {written['train']} train "
                      f"task(s) in {time.monotonic() - started:.1f}s; state in {request.db}")
    _exit_if_failed(results)


def _fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(1) from None


def _prepare(request: BuildRequest, console: Console) -> None:
    """End what a killed build left running; refuse an empty data/raw; make the state folder."""
    from pipeline.execution.reaper import reap_orphans

    reaped = reap_orphans()
    if reaped:
        console.print(f"ended {reaped} process(es) left running by an earlier, killed build")
    raw = request.data / "raw"
    if not any(raw.iterdir() if raw.is_dir() else []):
        _fail(f"no tasks in {raw}; add one with `repogenesis new-task`")
    request.db.parent.mkdir(parents=True, exist_ok=True)


def _options(settings: Settings, request: BuildRequest, bars: _Bars | None) -> BuildOptions:
    from pipeline.stages.build import BuildOptions

    options = BuildOptions(
        data_dir=request.data, seed=settings.split_seed,
        verified_share=settings.verified_share, prefer_expert=settings.split_prefer_expert,
        max_rounds=settings.max_rounds, runs=settings.oracle_runs,
        startup_timeout_s=settings.startup_timeout_s, test_timeout_s=settings.test_timeout_s,
        case_timeout_s=settings.case_timeout_s, mutation_cap=settings.mutation_cap,
        mutation_jobs=settings.mutation_jobs, mutation_selection=settings.mutation_selection,
        cache_dir=settings.cache_dir, only=request.only, jobs=request.jobs,
        suspects=request.suspects,
    )
    if bars is not None:
        options.tick = bars.tick
        options.running = bars.running
    return options


def _reporter(console: Console, bars: _Bars | None,
              started: float) -> Callable[[str, str], None]:
    """A task's progress line: on the live display with a terminal, plain lines otherwise."""
    def report(task_id: str, message: str) -> None:
        stamp = f"[{time.monotonic() - started:6.1f}s]"
        if bars is not None:
            console.print(f"{stamp} [bold]{task_id}[/bold] {message}")
            bars.note(task_id, message)
        else:
            print(f"{stamp} {task_id}: {message}", flush=True)

    return report


def _sync_decisions(data: Path, store: Store) -> None:
    """The committed Area Chair decisions apply to this build."""
    from pipeline.chair.core import ChairError
    from pipeline.chair.files import sync_decisions

    try:
        sync_decisions(data, store)
    except ChairError as exc:
        _fail(str(exc))


def _publish(data: Path, store: Store) -> dict[str, int]:
    from pipeline.reports.release import publish_data
    from pipeline.stages.committed import CommittedError

    try:
        return publish_data(data, store)
    except CommittedError as exc:
        _fail(str(exc))


def _exit_if_failed(results: list[Any]) -> None:
    failed = sorted(r.task_id for r in results if r.state == "failed")
    if failed:
        print(f"error: {len(failed)} of {len(results)} selected task(s) failed: "
              f"{', '.join(failed)}; the reasons are above and in `repogenesis status`",
              file=sys.stderr)
        sys.exit(1)


def _read_bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def _check_after_build(data: Path, store: Any, lock_before: bytes | None,
                       only: list[str] | None) -> tuple[list[str], str | None]:
    """`build --check`: what the build would change among the committed files (the split
    lock, written while building, counts too), narrowed to the built tasks with --task."""
    from pipeline.shipped import SHIPPED, check_outputs, check_verdict

    extra = []
    if _read_bytes(data / LOCK_NAME) != lock_before:
        extra.append(f"{data}/{LOCK_NAME}: changed by this build (a new auto task recorded)")
    return check_verdict(check_outputs(data, store, only), f"`repogenesis build --data {data}`",
                         str(data), (*SHIPPED, LOCK_NAME), extra)


def _report_check(verdict: tuple[list[str], str | None], data: Path, console: Console) -> None:
    lines, error = verdict
    for line in lines:
        print(line, file=sys.stderr)
    if error is None:
        console.print(f"committed outputs in {data} are up to date")
        return
    print(f"error: {error}", file=sys.stderr)
    raise SystemExit(1)


class _Bars:
    """One bar per stage (tasks; cases executed on the oracle, then against its mutants; cases
    reviewed and routed)."""

    LABELS = {"tasks": "tasks", "execute": "execute on oracle", "mutate": "mutants (cases)",
              "review": "review + route"}

    def __init__(self, console: Console) -> None:
        self.progress = Progress(
            TextColumn("{task.description:>18}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), TextColumn("{task.fields[note]}"), console=console,
        )
        self.ids = {key: self.progress.add_task(label, total=0, note="")
                    for key, label in self.LABELS.items()}
        self.tasks: dict[str, Any] = {}  # a line per running task (several with --jobs)

    def running(self, task_id: str, started: bool) -> None:
        if started:
            self.tasks[task_id] = self.progress.add_task(task_id[:18], total=None,
                                                         note="starting")
        elif task_id in self.tasks:
            self.progress.remove_task(self.tasks.pop(task_id))

    def note(self, task_id: str, message: str) -> None:
        """The running task's line shows what it does now (its latest report)."""
        if task_id in self.tasks:
            self.progress.update(self.tasks[task_id], note=message[:60])

    def tick(self, stage: str, done: int, more: int) -> None:
        task_id = self.ids[stage]
        if more:
            total = self.progress.tasks[task_id].total or 0
            self.progress.update(task_id, total=total + more)
        if done:
            self.progress.advance(task_id, done)


def task_status(store: Any, present: set[str] | None = None) -> dict[str, Any]:
    """The store's counts per task, with its state, its error and the accepted suite's
    mutation score (killed / valid mutants; None when no mutant ran). With `present` (the
    folders in data/raw) a task outside it shows as `removed`; a running task whose build is
    gone shows as `interrupted` (see `stages.taskstate`)."""
    from pipeline.chair.apply import task_counts
    from pipeline.stages.alternatives import alternative_figures
    from pipeline.stages.coverage import endpoints_without_accepted, endpoints_without_behaviour
    from pipeline.stages.mutate import suite_mutation
    from pipeline.stages.publish import accepted_cases
    from pipeline.stages.taskstate import shown_state

    result: dict[str, Any] = {"tasks": {}}
    for row in store.tasks():
        entry = result["tasks"][row.id] = {"split": row.split, **task_counts(store, row)}
        entry["state"] = shown_state(row.state, row.runner,
                                     present is None or row.id in present)
        if entry["state"] == "removed":
            entry["error"] = (f"removed from data/raw; left out of the outputs, "
                              f"`repogenesis forget {row.id}` drops its state")
        elif entry["state"] == "interrupted":
            entry["error"] = "its build was interrupted; the next `repogenesis build` resumes it"
        elif row.error:
            entry["error"] = row.error
        cases = [c for c, _ in accepted_cases(store, row.id)] if row.state == "done" else []
        report = suite_mutation(store, row.id, row.input_hash or "", cases) if cases else None
        entry["mutation_score"] = report["score"] if report else None
        entry["alternatives"] = alternative_figures(store, row.id, cases)
        if row.spec is not None and entry["state"] in ("done", "failed"):
            sent = {c.case_id: ev.requests for c in cases
                    if (ev := store.evidence_for(c.case_id, c.round)) is not None}
            entry["endpoints_without_accepted"] = endpoints_without_accepted(row.spec, cases,
                                                                             sent)
            entry["endpoints_without_behaviour"] = endpoints_without_behaviour(row.spec, cases)
    return result


def unbuilt_status(data: Path, result: dict[str, Any]) -> dict[str, Any]:
    """`result` with an entry for every task of data/raw the store has no row for: `not built`,
    with the counts of its committed output (kept as it is by a publish), if it has one."""
    from pipeline.stages.committed import committed_folder, read_task_json
    from pipeline.stages.taskstate import raw_ids

    for task_id in sorted(raw_ids(data) - set(result["tasks"])):
        found = committed_folder(data, task_id)
        tj = read_task_json(found[1]) if found else {}
        counts = (tj.get("area_chair") or {}) if found else {}
        result["tasks"][task_id] = {
            "split": found[0] if found else None, "state": "not built",
            "accepted": len(tj.get("test_cases") or []),
            "chair_accepted": counts.get("accepted", 0),
            "chair_rejected": counts.get("rejected", 0),
            "area_chair": counts.get("waiting", 0), "refining": 0, "discarded": {},
            "mutation_score": (tj.get("mutation") or {}).get("score"),
            "alternatives": tj.get("alternatives") or {"names": [], "every_test_passes_on": 0,
                                                        "over_specified": 0},
            "error": (f"not built here (counts from its committed output, kept as it is: "
                      f"{data}/{found[0]}/{task_id}); `repogenesis build --task {task_id}` "
                      "builds it" if found else
                      f"not built yet; `repogenesis build --task {task_id}` builds it"),
        }
    result["tasks"] = dict(sorted(result["tasks"].items()))
    return result


def _alternatives_cell(entry: dict[str, Any]) -> str:
    """'passes on N' of a task's alternatives, and the cases they stopped as over-specified."""
    alt = entry.get("alternatives") or {}
    if not alt.get("names") and not alt.get("over_specified"):
        return "-"
    cell = f"{alt.get('every_test_passes_on', 0)}/{len(alt.get('names') or [])}"
    return cell + (f", {alt['over_specified']} over-spec." if alt.get("over_specified") else "")


def print_status(status: dict[str, Any], console: Console | None = None,
                 results: dict[str, Any] | None = None) -> None:
    console = console or _console()
    table = Table(title="RepoGenesis build", show_lines=False)
    for column in ("task", "split", "state", "accepted", "area chair", "chair ✓/✗", "refining",
                   "discarded", "mutation", "alternatives"):
        table.add_column(column, justify="right" if column not in ("task", "state") else "left")
    for task_id, entry in sorted(status["tasks"].items()):
        result = (results or {}).get(task_id)
        state = result.state if result else entry.get("state", "")
        discarded = ", ".join(f"{k} {v}" for k, v in sorted(entry["discarded"].items())) or "0"
        score = entry.get("mutation_score")
        table.add_row(task_id, str(entry.get("split") or "-"), state, str(entry["accepted"]),
                      str(entry["area_chair"]),
                      f"{entry.get('chair_accepted', 0)}/{entry.get('chair_rejected', 0)}",
                      str(entry["refining"]), discarded,
                      "-" if score is None else f"{score:.2f}", _alternatives_cell(entry))
    console.print(table)
    for task_id, entry in sorted(status["tasks"].items()):
        if entry.get("error"):
            console.print(f"{task_id}: {entry['error']}")
        if entry.get("area_chair") and entry.get("state") not in ("removed", "not built"):
            console.print(f"{task_id}: {entry['area_chair']} case(s) wait for the Area Chair; "
                          f"see `repogenesis chair queue --task {task_id}`")
        missing = entry.get("endpoints_without_accepted")
        if missing:
            console.print(f"{task_id}: no accepted case for {', '.join(missing)}")
        shallow = [e for e in entry.get("endpoints_without_behaviour") or []
                   if e not in (missing or [])]
        if shallow:
            console.print(f"{task_id}: no accepted case checks a value (a round trip, a "
                          f"filter's result, a refusal's effect) for {', '.join(shallow)}")
