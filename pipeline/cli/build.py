"""The build and its state: build, status, forget."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import DataOpt, JsonOpt, app, built_state_db, emit_json, fail, state_db
from pipeline.tasks import TaskError


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
    from pipeline.build_ui import BuildRequest, run_build
    from pipeline.diskfull import disk_full, disk_full_message
    from pipeline.stages.selection import select_tasks
    from pipeline.stages.splitlock import LockError

    if jobs < 1 or (cpu_budget is not None and cpu_budget < 1):
        name, value = ("--jobs", jobs) if jobs < 1 else ("--cpu-budget", cpu_budget)
        fail(f"{name} is {value}; give 1 or more")
    try:
        select_tasks(data / "raw", only)  # an unknown --task fails before any work
        run_build(BuildRequest(data, state_db(data), only, offline=offline, fallback=fallback,
                               batch=batch, check=check, jobs=jobs, cpu_budget=cpu_budget,
                               suspects=alternatives))
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
