"""`repogenesis report`: one self-contained HTML file of what a build produced.

Why one file with inline SVG and inline CSS: it can be attached, archived and opened offline,
and a reader's browser fetches nothing (no fonts, scripts or images from anywhere). Every
figure comes from the same tables as the export and the cards (`reports.tables`) and from the
same agreement code as `reliability`, so they can be recomputed from the exported files.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from pipeline.records import RUBRIC_DIMENSIONS
from pipeline.reports import svg
from pipeline.reports.calibrate import HISTORY_NAME, read_history
from pipeline.reports.figures import store_figures, task_reviews
from pipeline.reports.tables import cases_table, funnel, tasks_table
from pipeline.rubric import rubric_hash
from pipeline.stages.publish import raw_tasks
from pipeline.stages.split import SPLITS
from pipeline.store import Store

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "report"
# Every plot the report draws (the browser test checks each is present).
PLOTS = ("funnel", "alpha-verified", "alpha-train", "alpha-rubric", "difficulty", "endpoints",
         "tests", "mutation", "cost")
RANGES = {"total": (0, 10), "correctness": (0, 3), "coverage": (0, 3), "readability": (0, 2),
          "relevance": (0, 2)}


def report_data(store: Store, data_dir: Path, seed: int = 0) -> dict[str, Any]:
    """Every number the report shows, as plain data (the HTML is only their rendering)."""
    from pipeline.llm.ledger import ledger_summary

    tasks = raw_tasks(data_dir)
    task_rows = tasks_table(store, tasks)
    cases = cases_table(store, tasks)
    reviews = task_reviews(store, tasks)  # a task removed from data/raw does not count
    dist: dict[str, dict[str, dict[int, int]]] = {}
    for r in reviews:
        if r.scores is None:
            continue
        per = dist.setdefault(r.reviewer, {k: {} for k in RANGES})
        values = {"total": r.scores.total} | {d: getattr(r.scores, d) for d in RUBRIC_DIMENSIONS}
        for key, value in values.items():
            per[key][value] = per[key].get(value, 0) + 1
    rubric_alpha = [(f"v{e['rubric_version']} {e['rubric_hash'][:8]} (calibrate, seed "
                     f"{e['seed']}, n={e['units']})", e["alpha"], e["ci95"])
                    for e in read_history(data_dir / HISTORY_NAME)]
    by_rubric = store_figures(store, "all", by_rubric=True, seed=seed,
                              tasks=tasks)["by_rubric"]
    rubric_alpha += [(f"{h[:8]} (build reviews, n={e['units']})", e["interval"], e["ci95"])
                     for h, e in by_rubric.items()]
    return {
        "rubric_hash": rubric_hash(),
        "funnel": funnel(store, [t.id for t in store.tasks() if t.id in tasks]),
        "alpha": {s: store_figures(store, s, seed=seed, tasks=tasks) for s in SPLITS},
        "rubric_alpha": rubric_alpha,
        "distributions": dict(sorted(dist.items())),
        "difficulty": dict(sorted(Counter(zip(task_rows["split"], task_rows["difficulty"],
                                              strict=True)).items())),
        "tasks": task_rows.sort_values("id").to_dict(orient="records"),
        "cases": len(cases),
        "ledger": ledger_summary(store),
    }


def render(data: dict[str, Any]) -> str:
    """The report's HTML from `report_data`."""
    plots = {
        "funnel": svg.bars("funnel", "Routing funnel (cases by latest route)",
                           list(data["funnel"].items())),
        "difficulty": svg.bars("difficulty", "Difficulty per split (tasks)",
                               [(f"{s} {lvl}", n) for (s, lvl), n in data["difficulty"].items()]),
        "endpoints": svg.bars("endpoints", "Documented endpoints per task",
                              [(t["id"], t["endpoints"]) for t in data["tasks"]]),
        "tests": svg.bars("tests", "Published test cases per task",
                          [(t["id"], t["tests"]) for t in data["tasks"]]),
        "mutation": svg.bars("mutation", "Mutation score of the published suite",
                             [(t["id"], t["mutation_score"]) for t in data["tasks"]
                              if t["mutation_score"] == t["mutation_score"]
                              and t["mutation_score"] is not None], maximum=1.0),
        "cost": svg.bars("cost", "Cost per provider and stage (USD)",
                         [(f"{b['provider']}:{b['model']} {b['stage']}", b["cost"])
                          for b in data["ledger"]["by"]]),
        "alpha-rubric": svg.intervals("alpha-rubric", "Alpha (totals) across rubric versions",
                                      data["rubric_alpha"]),
    }
    for split, fig in data["alpha"].items():
        plots[f"alpha-{split}"] = svg.intervals(
            f"alpha-{split}", f"Alpha per dimension, {split} (95% bootstrap interval)",
            [(k, e["interval"], e["ci95"]) for k, e in fig["alpha"].items()])
    hists = {reviewer: [Markup(svg.histogram(f"scores-{reviewer}-{key}", f"{reviewer}: {key}",
                                             counts, *RANGES[key]))
                        for key, counts in per.items()]
             for reviewer, per in data["distributions"].items()}
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(),
                      keep_trailing_newline=True)
    return env.get_template("report.html.j2").render(
        data=data, plots={k: Markup(v) for k, v in plots.items()}, hists=hists)


def write_report(store: Store, data_dir: Path, out: Path, seed: int = 0) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(report_data(store, data_dir, seed)), encoding="utf-8")
    return out
