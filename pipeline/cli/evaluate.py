"""Scoring generated repositories against published tasks: evaluate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pipeline.cli.common import JsonOpt, app, emit_json, fail


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
    from pipeline.evaluate import EvaluateError, evaluate_candidate, evaluate_samples
    from pipeline.evaluate.report import candidate_lines, samples_lines
    from pipeline.execution import install_signal_handlers
    from pipeline.execution.reaper import reap_orphans

    sample_dirs = [*(samples or []), *(more or [])]
    if more and not samples:
        fail(f"unexpected argument {more[0]}; sample folders go after --samples")
    _check_modes(task, candidate, sample_dirs, split, candidates, out)
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
            result, lines = _whole_split(split, candidates, jobs, out, as_json, options)
    except EvaluateError as exc:
        fail(str(exc))
    if as_json:
        emit_json(result)
    else:
        for line in lines:
            typer.echo(line)


def _check_modes(task: Path | None, candidate: Path | None, sample_dirs: list[Path],
                 split: Path | None, candidates: Path | None, out: Path | None) -> None:
    """Exactly one way of evaluating, with what it needs; a one-line error otherwise."""
    if sum([bool(candidate), bool(sample_dirs), bool(split)]) != 1:
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


def _whole_split(split: Path, candidates: Path, jobs: int, out: Path | None, as_json: bool,
                 options: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """`--split`: every task's candidate, a progress line each, the summary (and --out)."""
    from pipeline.evaluate import evaluate_split
    from pipeline.evaluate.report import split_lines

    def progress(task_id: str, row: dict[str, Any]) -> None:
        if not as_json:
            typer.echo(f"{task_id}: DSR {int(row['dsr'])} Pass@1 {row['pass_at_1']} "
                       f"tests {row['tests_passed']}/{row['tests_total']}")

    result = evaluate_split(split, candidates, jobs=jobs, progress=progress, **options)
    lines = split_lines(result)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n",
                       encoding="utf-8")
        lines.append(f"wrote {out}")
    return result, lines
