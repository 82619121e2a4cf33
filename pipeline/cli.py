"""Command-line entry point: parses arguments, calls stages, prints."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from pipeline.tasks import TaskError

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="RepoGenesis pipeline: build a verified benchmark of REST microservice tasks.",
)

DataOpt = Annotated[
    Path, typer.Option("--data", help="Data folder (holds raw/, verified/, train/).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON only.")]


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


@app.callback()
def main() -> None:
    """Build a verified benchmark of REST microservice tasks."""


@app.command("new-task")
def new_task_cmd(
    task_id: Annotated[str, typer.Argument(metavar="ID", help="Task id (a plain name).")],
    language: Annotated[str, typer.Option(help="python, java (pipeline/languages)")] = "python",
    framework: Annotated[str, typer.Option(help="flask, fastapi, httpserver, ...")] = "flask",
    domain: Annotated[str, typer.Option(help="What the service is about.")] = "general",
    port: Annotated[int | None, typer.Option(help="Port (default: next free one).")] = None,
    split: Annotated[str, typer.Option(help="verified, train or auto")] = "auto",
    data: DataOpt = Path("data"),
) -> None:
    """Scaffold a raw task that `check` then explains how to complete."""
    from pydantic import ValidationError

    from pipeline.scaffold import new_task

    try:
        task_dir = new_task(data / "raw", task_id, language, framework, domain, port, split)
    except TaskError as exc:
        fail(str(exc))
    except ValidationError as exc:
        fail(f"new-task: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}")
    typer.echo(
        f"created {task_dir}; next: fill in README.md and oracle/, then "
        f"`repogenesis check {task_dir}`; for a verified task, add an independent "
        f"implementation written from the README alone as {task_dir}/alternatives/a/ "
        "(start.sh as the oracle's): every case must pass there too"
    )


@app.command()
def collect(
    source: Annotated[str, typer.Argument(help="Local folder or git URL of the service.")],
    task_id: Annotated[str, typer.Option("--id", help="Task id for data/raw/<id>.")],
    commit: Annotated[str | None, typer.Option(help="Commit to import (default HEAD).")] = None,
    domain: Annotated[str, typer.Option(help="What the service is about.")] = "unknown",
    port: Annotated[int | None, typer.Option(help="Port (default: framework default).")] = None,
    data: DataOpt = Path("data"),
) -> None:
    """Import an existing service as a raw task."""
    from pipeline.stages.collect import collect as do_collect

    try:
        task_dir = do_collect(source, task_id, data / "raw", commit, domain, port)
    except TaskError as exc:
        fail(str(exc))
    typer.echo(f"collected {source} into {task_dir}; next: `repogenesis check {task_dir}`; "
               f"an independent implementation written from the README alone goes in "
               f"{task_dir}/alternatives/a/ (start.sh as the oracle's)")


@app.command()
def spec(
    readme: Annotated[Path, typer.Argument(help="A requirement document (README.md).")],
    as_json: JsonOpt = False,
    full: Annotated[bool, typer.Option("--full", help="Whole spec, not just endpoints.")] = False,
) -> None:
    """Read the documented endpoints from a requirement document."""
    from pipeline.spec import load_spec, spec_json

    try:
        result = load_spec(readme)
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{readme}: cannot read ({exc.__class__.__name__}); pass a UTF-8 markdown file")
    if as_json:
        emit_json(result.model_dump(mode="json") if full else spec_json(result))
        return
    for e in result.endpoints:
        typer.echo(f"{e.method:7} {e.path}  {e.summary}".rstrip())
    typer.echo(f"{len(result.endpoints)} endpoints")


@app.command()
def difficulty(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="Task folder or source tree.")],
    as_json: JsonOpt = False,
) -> None:
    """Difficulty of a task's oracle: metrics, points, score, level."""
    from pipeline.stages.difficulty import task_difficulty

    try:
        result = task_difficulty(directory)
    except TaskError as exc:
        fail(str(exc))
    if as_json:
        emit_json(result.model_dump(mode="json"))
        return
    for key, value in result.metrics.model_dump().items():
        typer.echo(f"{key:22} {value:>8}  {getattr(result.points, key):.1f} pts")
    typer.echo(f"score {result.score:.1f} → {result.level}")


@app.command()
def check(
    tasks: Annotated[
        list[Path] | None, typer.Argument(metavar="TASK_DIR...", help="Default: every raw task.")
    ] = None,
    no_run: Annotated[bool, typer.Option("--no-run", help="Static checks only.")] = False,
    no_tests: Annotated[
        bool, typer.Option("--no-tests", help="Do not run the tasks' own tests.")
    ] = False,
    as_json: JsonOpt = False,
    data: DataOpt = Path("data"),
) -> None:
    """Validate raw tasks: one line per problem, exit 1 if any task has an error."""
    from pipeline.config import load_settings
    from pipeline.execution import install_signal_handlers
    from pipeline.execution.reaper import reap_orphans
    from pipeline.stages.check import check_task
    from pipeline.tasks import discover_tasks

    settings = load_settings()
    install_signal_handlers()
    reap_orphans()
    dirs = tasks or discover_tasks(data / "raw")
    if not dirs:
        fail(f"no tasks to check in {data / 'raw'}; create one with `repogenesis new-task`")
    results = []
    for task_dir in dirs:
        result = check_task(
            task_dir,
            run_oracle=not no_run,
            run_tests=not no_tests,
            startup_timeout_s=settings.startup_timeout_s,
            test_timeout_s=settings.test_timeout_s,
            cache_dir=settings.cache_dir,
        )
        results.append(result)
        if not as_json:
            for finding in result.findings:
                typer.echo(finding.line())
            typer.echo(result.summary())
    if as_json:
        emit_json([r.to_json() for r in results])
    bad = sum(not r.ok for r in results)
    if not as_json:
        typer.echo(f"{len(results) - bad}/{len(results)} tasks ok")
    if bad:
        raise typer.Exit(1)


def state_db(data: Path) -> Path:
    return data / ".repogenesis" / "state.db"


def built_state_db(data: Path) -> Path:
    """The state database of a data folder a build has run in, or a one-line error."""
    if not state_db(data).is_file():
        fail(f"no build state in {data}; run `repogenesis build --data {data}` first")
    return state_db(data)


@app.command()
def build(
    data: DataOpt = Path("data"),
    only: Annotated[
        list[str] | None, typer.Option("--task", help="Build only this task (repeatable).")
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Use the offline mode even "
                                          "when provider keys are set.")] = False,
    fallback: Annotated[bool, typer.Option("--allow-offline-fallback", help="Go offline "
                                           "(whole run) when a configured key is missing.")
                        ] = False,
    batch: Annotated[bool, typer.Option("--batch", help="Send each round's model requests "
                                        "as provider batch jobs (cheaper, slower).")] = False,
    check: Annotated[bool, typer.Option("--check", help="Build, then compare the committed "
                                        "outputs instead of writing them (exit 1 if stale).")
                     ] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Tasks built at once "
                                      "(outputs identical to --jobs 1).")] = 1,
    cpu_budget: Annotated[int | None, typer.Option("--cpu-budget", help="Services "
                                                   "(with their tests) run at once across "
                                                   "all tasks; default: cores.")] = None,
    alternatives: Annotated[int, typer.Option(
        "--alternatives", min=0, metavar="K", help="With model keys: the generator model "
        "writes K implementations of each README; a case failing on one that passes 90% of "
        "the task's other accepted cases goes to review (never discarded for it).")] = 0,
) -> None:
    """Run every stage on data/raw and write data/verified and data/train (resumable)."""
    from pipeline.build_ui import run_build
    from pipeline.diskfull import disk_full, disk_full_message
    from pipeline.stages.selection import select_tasks
    from pipeline.stages.splitlock import LockError

    if jobs < 1 or (cpu_budget is not None and cpu_budget < 1):
        name, value = ("--jobs", jobs) if jobs < 1 else ("--cpu-budget", cpu_budget)
        fail(f"{name} is {value}; give 1 or more")
    try:
        select_tasks(data / "raw", only)  # an unknown --task fails before any work
        run_build(data, only, state_db(data), offline=offline, fallback=fallback, batch=batch,
                  check=check, jobs=jobs, cpu_budget=cpu_budget, suspects=alternatives)
    except (LockError, TaskError) as exc:
        fail(str(exc))
    except (OSError, sqlite3.Error) as exc:
        if not disk_full(exc):
            raise
        fail(disk_full_message(data))


@app.command()
def status(as_json: JsonOpt = False, data: DataOpt = Path("data")) -> None:
    """Per task: accepted, with the Area Chair, refining, discarded by reason, and the
    accepted suite's mutation score."""
    from pipeline.build_ui import print_status, task_status, unbuilt_status
    from pipeline.stages.committed import CommittedError
    from pipeline.stages.taskstate import raw_ids
    from pipeline.store import Store

    if state_db(data).is_file():
        with Store.open(state_db(data)) as store:
            result = task_status(store, raw_ids(data))
    elif (data / "raw").is_dir():  # a fresh clone: the committed outputs were not built here
        result = {"tasks": {}}
    else:
        fail(f"no tasks in {data / 'raw'} and no build state in {data}; is --data right?")
    try:
        result = unbuilt_status(data, result)
    except CommittedError as exc:
        fail(str(exc))
    if as_json:
        emit_json(result)
        return
    print_status(result)
    if not state_db(data).is_file():
        committed = sum(1 for entry in result["tasks"].values() if entry["split"])
        typer.echo(f"no build state in {data}: the committed outputs ({committed} task(s)) "
                   f"were not built here; run `./dev.sh build` (or `repogenesis build --data "
                   f"{data}`) to build and check them")


@app.command()
def forget(
    task_ids: Annotated[list[str], typer.Argument(metavar="ID...", help="Removed task ids.")],
    data: DataOpt = Path("data"),
) -> None:
    """Drop the build state of tasks removed from data/raw (Area Chair decisions are kept)."""
    from pipeline.stages.taskstate import forget_tasks
    from pipeline.store import Store

    built_state_db(data)
    with Store.open(state_db(data)) as store:
        try:
            forget_tasks(data, store, task_ids)
        except TaskError as exc:
            fail(str(exc))
    typer.echo(f"forgot {len(task_ids)} task(s): {', '.join(task_ids)} (Area Chair "
               "decisions kept)")


@app.command()
def reliability(
    as_json: JsonOpt = False,
    split: Annotated[str, typer.Option(help="verified, train or all.")] = "verified",
    round: Annotated[int | None, typer.Option("--round", min=0, help="One round only.")] = None,
    by_rubric: Annotated[bool, typer.Option("--by-rubric", help="Alpha per rubric version.")
                         ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap intervals.")] = 0,
    resamples: Annotated[int, typer.Option(min=1, help="Bootstrap resamples.")] = 1000,
    data: DataOpt = Path("data"),
) -> None:
    """Reviewer agreement: Krippendorff's alpha with 95% intervals, pairwise, shares, offsets."""
    from pipeline.reports.figures import figure_lines, store_figures
    from pipeline.stages.taskstate import raw_ids
    from pipeline.store import Store

    built_state_db(data)
    with Store.open(state_db(data)) as store:
        try:
            result = store_figures(store, split, round, by_rubric=by_rubric, seed=seed,
                                   resamples=resamples, tasks=raw_ids(data))
        except ValueError as exc:
            fail(str(exc))
    if as_json:
        emit_json(result)
        return
    for line in figure_lines(result):
        typer.echo(line)


@app.command()
def evaluate(
    task: Annotated[Path | None, typer.Option(
        "--task", help="Output task folder (data/<split>/<id>).")] = None,
    candidate: Annotated[Path | None, typer.Option(
        "--candidate", help="Generated repository to evaluate against --task.")] = None,
    samples: Annotated[list[Path] | None, typer.Option(
        "--samples", help="Several generated repositories of --task, for Pass@k: "
        "--samples DIR DIR ...")] = None,
    more: Annotated[list[Path] | None, typer.Argument(
        metavar="[DIR...]", help="Further sample folders after --samples.", hidden=True)] = None,
    split: Annotated[Path | None, typer.Option(
        "--split", help="A whole split (data/verified or data/train).")] = None,
    candidates: Annotated[Path | None, typer.Option(
        "--candidates", help="With --split: a folder holding one repository per task id.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", help="With --split: write the summary JSON to this file.")] = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", min=1, help="With --split: tasks evaluated at once (distinct ports).")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Score generated repositories: DSR, Pass@1 / Pass@k, tests passed, API coverage."""
    from pipeline.config import load_settings
    from pipeline.evaluate import (
        EvaluateError,
        evaluate_candidate,
        evaluate_samples,
        evaluate_split,
    )
    from pipeline.evaluate.report import candidate_lines, samples_lines, split_lines
    from pipeline.execution import install_signal_handlers
    from pipeline.execution.reaper import reap_orphans

    sample_dirs = [*(samples or []), *(more or [])]
    if more and not samples:
        fail(f"unexpected argument {more[0]}; sample folders go after --samples")
    modes = [bool(candidate), bool(sample_dirs), bool(split)]
    if sum(modes) != 1:
        fail("give exactly one of: --task T --candidate DIR | --task T --samples DIR... | "
             "--split DIR --candidates ROOT")
    if (candidate or sample_dirs) and task is None:
        fail("--candidate and --samples need --task data/<split>/<id>")
    if split and candidates is None:
        fail("--split needs --candidates ROOT (one folder per task id)")
    if out and not split:
        fail("--out is for --split; use --json and redirect the output for one task")
    for folder in [*([candidate] if candidate else []), *sample_dirs]:
        if not folder.is_dir():
            fail(f"candidate folder {folder} not found; pass the generated repository's folder")
    if candidates is not None and not candidates.is_dir():
        fail(f"--candidates {candidates}: no such folder; pass the folder holding one "
             "repository per task id")
    settings = load_settings()
    install_signal_handlers()
    reap_orphans()
    options = {"startup_timeout_s": settings.startup_timeout_s,
               "test_timeout_s": settings.test_timeout_s,
               "case_timeout_s": settings.case_timeout_s, "cache_dir": settings.cache_dir}
    try:
        if candidate:
            result = evaluate_candidate(task, candidate, **options)
            lines = candidate_lines(result)
        elif sample_dirs:
            result = evaluate_samples(task, sample_dirs, **options)
            lines = samples_lines(result)
        else:
            def progress(task_id: str, row: dict[str, Any]) -> None:
                if not as_json:
                    typer.echo(f"{task_id}: DSR {int(row['dsr'])} Pass@1 {row['pass_at_1']} "
                               f"tests {row['tests_passed']}/{row['tests_total']}")

            result = evaluate_split(split, candidates, jobs=jobs, progress=progress,
                                    **options)
            lines = split_lines(result)
            if out:
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n",
                               encoding="utf-8")
                lines.append(f"wrote {out}")
    except EvaluateError as exc:
        fail(str(exc))
    if as_json:
        emit_json(result)
    else:
        for line in lines:
            typer.echo(line)
# --- end ---


@app.command()
def ledger(as_json: JsonOpt = False, data: DataOpt = Path("data")) -> None:
    """Model calls, tokens and cost per provider, model and stage."""
    from pipeline.llm.ledger import format_ledger, ledger_summary
    from pipeline.store import Store

    built_state_db(data)
    with Store.open(state_db(data)) as store:
        summary = ledger_summary(store)
    if as_json:
        emit_json(summary)
    else:
        typer.echo(format_ledger(summary))


@app.command()
def publish(
    data: DataOpt = Path("data"),
    check: Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 naming each "
                                        "committed output that differs from the store's.")
                     ] = False,
    only: Annotated[list[str] | None, typer.Option(
        "--task", help="With --check: check only this task's outputs (repeatable).")] = None,
) -> None:
    """Rewrite data/verified, data/train and decisions.jsonl from the store (no execution,
    no model calls); a task the store has not built keeps its committed output."""
    from pipeline.chair.core import ChairError
    from pipeline.shipped import check_outputs, check_verdict
    from pipeline.stages.committed import CommittedError
    from pipeline.stages.publish import publish_data
    from pipeline.stages.selection import select_tasks
    from pipeline.store import Store

    if only and not check:
        fail("--task narrows --check; without --check, publish writes every task the store "
             "has built (and keeps the others' committed outputs)")
    try:
        if only:
            select_tasks(data / "raw", only)  # an unknown --task names itself
    except TaskError as exc:
        fail(str(exc))
    built_state_db(data)
    with Store.open(state_db(data)) as store:
        try:
            if check:
                result = check_outputs(data, store, only)
            else:
                written = publish_data(data, store)
        except (ChairError, CommittedError) as exc:
            fail(str(exc))
    if not check:
        typer.echo(f"wrote {written['verified']} verified and {written['train']} train task(s)")
        return
    lines, error = check_verdict(result, f"`repogenesis publish --data {data}`", str(data))
    for line in lines:
        typer.echo(line, err=True)
    if error is not None:
        fail(error)
    typer.echo(f"committed outputs in {data} are up to date")


from pipeline.chair.cli import chair_app  # noqa: E402  (it uses the helpers above)

app.add_typer(chair_app, name="chair")

# resplit, calibrate, report and export live in their own module (registered on import).
from pipeline import cli_reports  # noqa: E402, F401
