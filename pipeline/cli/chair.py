"""`repogenesis chair ...`: the Area Chair's terminal path and the web app's launcher."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.cli.common import DataOpt, JsonOpt, built_state_db, emit_json, fail, state_db

if TYPE_CHECKING:
    from pipeline.records import Evidence
    from pipeline.spec.passages import Passage

chair_app = typer.Typer(no_args_is_help=True, help="Area Chair review sessions: queue, show, "
                        "decide, export/import, users, stats, and the web app.")


def _store(data: Path):
    from pipeline.store import Store

    built_state_db(data)
    return Store.open(state_db(data))


def _publish(data: Path, store) -> str:
    from pipeline.chair.core import ChairError
    from pipeline.reports.release import publish_data
    from pipeline.stages.committed import CommittedError

    try:
        written = publish_data(data, store)
    except (ChairError, CommittedError) as exc:  # a bad line in decisions.jsonl, a bad task.json
        fail(str(exc))
    return f"published {written['verified']} verified and {written['train']} train task(s)"


@chair_app.command("queue")
def queue_cmd(
    task: Annotated[str | None, typer.Option("--task", help="Only this task.")] = None,
    state: Annotated[str, typer.Option(help="waiting, claimed, decided, stale or all")]
    = "waiting",
    search: Annotated[str | None, typer.Option(help="Text in test code or rationales.")] = None,
    as_json: JsonOpt = False, data: DataOpt = Path("data"),
) -> None:
    """The cases waiting for a chair, most urgent first (triage reason beside each)."""
    from pipeline.chair.core import ChairError
    from pipeline.chair.service import case_json, counts, queue

    with _store(data) as store:
        try:
            items = queue(store, task_id=task, state=state, search=search)
        except ChairError as exc:
            fail(str(exc))
        summary = counts(store)
        rows = [case_json(i.view) | {"claimed_by": i.claimed_by} for i in items]
    if as_json:
        emit_json({"counts": summary, "cases": rows})
        return
    for row in rows:
        claimed = f"  [claimed by {row['claimed_by']}]" if row["claimed_by"] else ""
        typer.echo(f"{row['case_id']}  round {row['round']}  mean {row['mean']}  "
                   f"{row['state']}  {row['triage']}{claimed}")
    typer.echo(", ".join(f"{k} {v}" for k, v in summary.items()))


@chair_app.command("show")
def show_cmd(case: Annotated[str, typer.Argument(metavar="CASE")], as_json: JsonOpt = False,
             data: DataOpt = Path("data")) -> None:
    """One case: its code, the three reviews, the oracle evidence, decisions (stale too)."""
    from pipeline.chair.core import ChairError
    from pipeline.chair.service import case_json, load_case, passage_json, readme_passages

    with _store(data) as store:
        try:
            view = load_case(store, case)
        except ChairError as exc:
            fail(str(exc))
    info = case_json(view)
    passages = readme_passages(data, view)
    if as_json:
        emit_json(info | {"code": view.case.code, "passages": [passage_json(p) for p in passages],
                          "reviews": [
            r.model_dump(mode="json") for r in view.reviews],
            "evidence": view.evidence.model_dump(mode="json") if view.evidence else None})
        return
    typer.echo(f"{info['case_id']} ({info['category']}, round {info['round']}) "
               f"state {info['state']}; endpoints {', '.join(info['endpoints']) or '-'}")
    typer.echo(f"triage: {info['triage']}")
    typer.echo(view.case.code.rstrip())
    for p in passages:
        typer.echo(_passage_text(p))
    for r in view.reviews:
        total = r.scores.total if r.scores else "failed"
        typer.echo(f"- {r.reviewer}: {total} {r.scores.model_dump() if r.scores else ''} "
                   f"{r.rationale}")
    if view.evidence:
        for line in _evidence_lines(view.evidence):
            typer.echo(line)
    if info["decision"]:
        d = info["decision"]
        typer.echo(f"decided: {d['decision']} by {d['chair']} at {d['submitted_at']} {d['note']}")
    for d in info["stale"]:
        typer.echo(f"stale: {d['decision']} by {d['chair']} on round {d['round']} of an "
                   f"earlier version ({d['submitted_at']}); not applied")


def _passage_text(p: Passage) -> str:
    """What the README says on one thing a case asserts (a `chair.service` passage)."""
    if p.kind == "endpoint":
        return (f"README on {p.about} (lines {p.lines[0][0]}-{p.lines[-1][0]}):\n"
                + "  " + p.text.replace("\n", "\n  "))
    if not p.stated:
        return f"README on {p.about}: not stated"
    if p.within:
        return f"README on {p.about}: line {p.lines[0][0]}, in {', '.join(p.within)}"
    more = f" (and {p.more} more)" if p.more else ""
    return f"README on {p.about}: " + "; ".join(
        f"line {n}: {t.strip()}" for n, t in p.lines) + more


def _evidence_lines(evidence: Evidence) -> list[str]:
    """The oracle runs, requests and kills of a case version, then each alternative's run."""
    runs = ", ".join(x.outcome for x in evidence.runs)
    m = evidence.mutation
    kills = f"; kills {len(m.killed)} of {m.valid} mutants" if m else ""
    lines = [f"oracle runs: {runs}; requests {', '.join(evidence.requests)}{kills}"]
    for alt in evidence.alternatives:
        last = (alt.output.strip().splitlines() or [""])[-1][:160]
        kind = "model-written (a suspect)" if alt.suspect else "alternative"
        lines.append(f"{kind} {alt.name}: {alt.outcome}" + (f" ({last})" if last else ""))
    return lines


@chair_app.command("decide")
def decide_cmd(
    case: Annotated[str, typer.Argument(metavar="CASE")],
    accept: Annotated[str | None, typer.Option("--accept", metavar="C,V,R,L", help=(
        "Accept with your rubric scores: correctness,coverage,readability,relevance."))] = None,
    reject: Annotated[str | None, typer.Option("--reject", metavar="REASON")] = None,
    refine: Annotated[str | None, typer.Option("--refine", metavar="NOTE",
                                               help="Send back with a note for the refiner.")]
    = None,
    chair: Annotated[str | None, typer.Option("--chair", help="Your name (default $USER).")]
    = None,
    revise: Annotated[bool, typer.Option("--revise", help="Replace your earlier decision "
                                         "on this version (both are kept).")] = False,
    data: DataOpt = Path("data"),
) -> None:
    """Decide one case; the splits are rewritten at once (refine: the next build refines)."""
    from pipeline.chair.core import ChairError, parse_decision
    from pipeline.chair.service import Submission, decide, rubric_ranges

    name = chair or os.environ.get("USER") or "chair"
    with _store(data) as store:
        try:
            verdict, scores, note = parse_decision(accept, reject, refine, rubric_ranges())
            d = decide(store, data, case, Submission(verdict, chair=name, scores=scores,
                                                     note=note, revise=revise))
        except ChairError as exc:
            fail(str(exc))
        published = _publish(data, store)
    typer.echo(f"{case}: {d.decision} by {d.chair} (decision {d.id}, round {d.round}); "
               f"{published}")
    if d.decision == "refine":
        typer.echo("run `repogenesis build` to refine it with your note")


@chair_app.command("export")
def export_cmd(out: Annotated[Path | None, typer.Option("--out", help=(
        "File to write (default DATA/decisions.jsonl)."))] = None,
        data: DataOpt = Path("data")) -> None:
    """Write every stored decision to decisions.jsonl (one JSON object per line)."""
    from pipeline.chair.files import decisions_path, export_decisions

    path = out or decisions_path(data)
    with _store(data) as store:
        n = export_decisions(store, path)
    typer.echo(f"wrote {n} decision(s) to {path}")


@chair_app.command("import")
def import_cmd(path: Annotated[Path | None, typer.Argument(help=(
        "A decisions.jsonl (default DATA/decisions.jsonl)."))] = None,
        data: DataOpt = Path("data")) -> None:
    """Add the file's decisions the store lacks, then rewrite the splits."""
    from pipeline.chair.core import ChairError
    from pipeline.chair.files import decisions_path, import_decisions

    path = path or decisions_path(data)
    with _store(data) as store:
        try:
            added, known = import_decisions(store, path)
        except ChairError as exc:
            fail(str(exc))
        published = _publish(data, store)
    typer.echo(f"imported {added} decision(s) ({known} already there); {published}")


@chair_app.command("add-user")
def add_user_cmd(name: Annotated[str, typer.Argument(metavar="NAME")],
                 data: DataOpt = Path("data")) -> None:
    """Create a chair login; prints a one-time token (only its hash is stored)."""
    from pipeline.web.auth import new_user

    try:
        with _store(data) as store:
            token = new_user(store, name)
    except ValueError as exc:
        fail(str(exc))
    typer.echo(f"chair {name}: token {token}")
    typer.echo("give it to them once; it is not stored and cannot be shown again")


@chair_app.command("stats")
def stats_cmd(as_json: JsonOpt = False, data: DataOpt = Path("data")) -> None:
    """Per chair: decisions, time per decision, agreement with the reviewers' mean ≥ 7."""
    from pipeline.chair.stats import chair_stats

    with _store(data) as store:
        result = chair_stats(store)
    if as_json:
        emit_json(result)
        return
    if not result["chairs"]:
        typer.echo("no decisions yet")
    for chair, e in result["chairs"].items():
        agree = "-" if e["agreement"] is None else f"{e['agreement']:.0%} of {e['agreement_of']}"
        secs = "-" if e["median_seconds"] is None else f"{e['median_seconds']}s"
        typer.echo(f"{chair}: {e['decisions']} decision(s) (accept {e['accept']}, reject "
                   f"{e['reject']}, refine {e['refine']}); median {secs} each; agrees with "
                   f"the reviewers {agree}")


@chair_app.command("serve")
def serve_cmd(host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
              port: Annotated[int, typer.Option(help="Port.")] = 8765,
              data: DataOpt = Path("data")) -> None:
    """The Area Chair web app (log in with a token from `chair add-user`)."""
    import uvicorn

    from pipeline.web.app import create_app

    built_state_db(data)
    typer.echo(f"Area Chair app on http://{host}:{port}/ (Ctrl-C stops it)")
    uvicorn.run(create_app(data), host=host, port=port, log_level="warning")
