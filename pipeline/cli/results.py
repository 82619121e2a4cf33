"""What a build produced: publish, reliability, ledger, resplit, export, report, calibrate."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import DataOpt, JsonOpt, app, built_state_db, emit_json, fail, state_db
from pipeline.tasks import TaskError


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
    from pipeline.reports.release import publish_data
    from pipeline.shipped import check_outputs, check_verdict
    from pipeline.stages.committed import CommittedError
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




@app.command()
def resplit(
    seed: Annotated[str, typer.Option("--seed", help="Seed of the new assignment.")],
    share: Annotated[float | None, typer.Option(
        "--share", min=0.0, max=1.0, help="Verified share per level (default: config).")] = None,
    data: DataOpt = Path("data"),
) -> None:
    """Reshuffle every `auto` task's split on purpose; prints what moved (data/splits.lock)."""
    from pipeline.config import load_settings
    from pipeline.stages.resplit import lock_path
    from pipeline.stages.resplit import resplit as do_resplit
    from pipeline.stages.splitlock import LockError
    from pipeline.store import Store

    settings = load_settings()
    chosen = settings.verified_share if share is None else share
    if not (data / "raw").is_dir():
        fail(f"no {data / 'raw'}; pass --data DIR holding raw/")
    store = Store.open(state_db(data)) if state_db(data).is_file() else None
    try:
        moved = do_resplit(data, store, seed, chosen, settings.split_prefer_expert)
    except LockError as exc:
        fail(str(exc))
    finally:
        if store is not None:
            store.close()
    for task_id, old, new in moved:
        typer.echo(f"{task_id}: {old} -> {new}")
    typer.echo(f"{len(moved)} task(s) moved; wrote {lock_path(data)}"
               + ("; run `repogenesis build` to republish (only split-dependent routes are "
                  "decided again)" if moved else ""))


@app.command("export")
def export_cmd(
    out: Annotated[Path, typer.Option("--out", help="Folder for the exported files.")],
    fmt: Annotated[str, typer.Option("--format", help="parquet or jsonl.")] = "parquet",
    all_cases: Annotated[bool, typer.Option("--all-cases", help="Also the unpublished cases, "
                                            "with their route.")] = False,
    data: DataOpt = Path("data"),
) -> None:
    """Published tasks, test cases and reviews as parquet or jsonl (pandas, HF datasets)."""
    from pipeline.reports.export import ExportError, export
    from pipeline.store import Store

    built_state_db(data)
    with Store.open(state_db(data)) as store:
        try:
            counts = export(store, data, out, fmt, all_cases=all_cases)
        except ExportError as exc:
            fail(str(exc))
    typer.echo(f"wrote {counts['tasks']} task(s), {counts['cases']} case(s) and "
               f"{counts['reviews']} review(s) as {fmt} in {out} (columns: {out}/COLUMNS.md)")


@app.command()
def report(
    out: Annotated[Path, typer.Option("--out", help="HTML file to write.")] = Path(
        "report.html"),
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap intervals.")] = 0,
    data: DataOpt = Path("data"),
) -> None:
    """One self-contained HTML report (inline SVG plots, nothing fetched)."""
    from pipeline.reports.report import write_report
    from pipeline.store import Store

    built_state_db(data)
    if out.is_dir():
        fail(f"--out {out} is a folder; give a file name such as {out / 'report.html'}")
    with Store.open(state_db(data)) as store:
        try:
            path = write_report(store, data, out, seed)
        except ValueError as exc:  # a damaged data/calibration.jsonl line, named
            fail(str(exc))
    typer.echo(f"wrote {path}")


@app.command()
def calibrate(
    sample: Annotated[int, typer.Option("--sample", min=1, help="Case versions to score.")
                      ] = 150,
    rubric: Annotated[Path | None, typer.Option("--rubric", help="Rubric YAML (default: "
                                                "rubrics/rubric.yaml).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the sample and the interval.")] = 0,
    offline: Annotated[bool, typer.Option("--offline", help="Offline reviewers even when "
                                          "provider keys are set.")] = False,
    as_json: JsonOpt = False,
    data: DataOpt = Path("data"),
) -> None:
    """Score a fixed, stratified sample of stored cases with a rubric version; record alpha
    with its interval in data/calibration.jsonl and show the trajectory."""
    import os

    from pydantic import ValidationError

    from pipeline.llm import make_backend
    from pipeline.llm.settings import ModeError, load_llm_settings, resolve_mode
    from pipeline.reports.calibrate import HISTORY_NAME, read_history
    from pipeline.reports.calibrate import calibrate as do_calibrate
    from pipeline.rubric import load_rubric
    from pipeline.store import Store

    built_state_db(data)
    try:
        chosen = load_rubric(rubric)
    except (OSError, ValueError, ValidationError) as exc:
        fail(f"{rubric or 'rubrics/rubric.yaml'}: not a valid rubric "
             f"({str(exc).splitlines()[0]}); start from a copy of rubrics/rubric.yaml")
    llm_settings = load_llm_settings()
    try:
        mode = resolve_mode(llm_settings, os.environ, offline, False)
    except ModeError as exc:
        fail(str(exc))
    with Store.open(state_db(data)) as store:
        backend = make_backend(store, llm_settings) if mode == "llm" else None
        try:
            entry = do_calibrate(store, data, chosen, sample=sample, seed=seed, backend=backend)
            history = read_history(data / HISTORY_NAME)
        except ValueError as exc:
            fail(str(exc))
    if as_json:
        emit_json({"entry": entry, "history": history})
        return
    for e in history:
        alpha = "undefined" if e["alpha"] is None else f"{e['alpha']:.3f}"
        ci = f" [{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}]" if e.get("ci95") else ""
        mark = "  <- this run" if e == entry else ""
        typer.echo(f"rubric v{e['rubric_version']} {e['rubric_hash']} seed {e['seed']} "
                   f"({e['backend']}): alpha {alpha}{ci} on {e['units']} cases{mark}")
    if entry["alpha"] is None:
        typer.echo(f"alpha undefined: {entry['undefined']}")
