"""CLI commands for split membership and what a build publishes about itself: `resplit`,
`calibrate`, `report`, `export`. Registered on `pipeline.cli.app` when that module loads;
kept apart so cli.py stays short."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli import DataOpt, JsonOpt, app, built_state_db, emit_json, fail, state_db


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
