"""Commands on raw tasks: new-task, collect, spec, difficulty, check."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import DataOpt, JsonOpt, app, emit_json, fail
from pipeline.tasks import TaskError


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

    from pipeline.scaffold import Placement, new_task

    try:
        task_dir = new_task(data / "raw", task_id, language, framework, domain,
                            Placement(port, split))
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
