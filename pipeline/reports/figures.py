"""Reliability figures from the store: which reviews count (split, round) and the text form.

`--split verified` (the default) takes the reviews of verified tasks only: the paper's alpha is
for the verified set, and pooling train in would report a different panel's agreement.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Unpack

from pipeline.records import Review
from pipeline.rubric import load_rubric
from pipeline.stages.agreement import FigureOptions, figures
from pipeline.store import Store

SPLIT_CHOICES = ("verified", "train", "all")


def task_reviews(store: Store, tasks: Collection[str] | None, split: str | None = None,
                 round: int | None = None) -> list[Review]:
    """The stored reviews (of `split`, `round`), of the tasks in `tasks` only when given: a
    task removed from data/raw no longer counts. Same order as `Store.all_reviews`."""
    if tasks is None:
        return store.all_reviews(split=split, round=round)
    reviews = [r for t in sorted(set(tasks)) for r in store.all_reviews(t, split=split,
                                                                        round=round)]
    return sorted(reviews, key=lambda r: (r.case_id, r.round, r.reviewer))


def store_figures(store: Store, split: str = "verified", round: int | None = None, *,
                  tasks: Collection[str] | None = None,
                  **options: Unpack[FigureOptions]) -> dict[str, Any]:
    """The agreement figures of the stored reviews of `split` (and `round`, when given), of
    the tasks in `tasks` (the ones in data/raw) when given; `options` go to `figures`."""
    if split not in SPLIT_CHOICES:
        raise ValueError(f"--split {split!r}: choose one of {', '.join(SPLIT_CHOICES)}")
    reviews = task_reviews(store, tasks, None if split == "all" else split, round)
    result = figures(reviews, conflict_spread=load_rubric().routing.conflict_spread, **options)
    return {"split": split, "round": round, **result}


def _alpha(entry: dict[str, Any], level: str = "interval") -> str:
    value = entry.get(level)
    if value is None:
        return f"undefined ({entry['undefined'].get(level, 'no value')})"
    ci = entry.get("ci95")
    return f"{value:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci and level == "interval" else "")


def _share(x: float | None) -> str:
    return "undefined" if x is None else f"{100 * x:.0f}%"


def figure_lines(result: dict[str, Any]) -> list[str]:
    """The figures as plain lines for a terminal."""
    where = f"split {result['split']}" + (f", round {result['round']}"
                                          if result["round"] is not None else ", every round")
    lines = [f"{where}: {result['units']} evaluations ({result['pairable_units']} with two or "
             f"more valid reviews), reviewers {', '.join(result['reviewers']) or 'none'}"]
    for key, entry in result["alpha"].items():
        lines.append(f"alpha {key:12} {_alpha(entry)}   ordinal {_alpha(entry, 'ordinal')}")
    for pair in result["pairwise"]:
        shown = f"{pair['alpha']:.3f}" if pair["alpha"] is not None else \
            f"undefined ({pair['undefined']})"
        lines.append(f"pair {' x '.join(pair['reviewers'])}: {shown} on {pair['units']} units")
    a = result["agreement"]
    lines.append(f"agreement: exact {_share(a['exact'])}, within 1 {_share(a['within_1'])}, "
                 f"within 2 {_share(a['within_2'])}")
    for name, off in result["offsets"].items():
        lines.append(f"offset {name}: " + ("undefined" if off is None else f"{off:+.2f}"))
    s = result["spread_routed"]
    lines.append(f"spread > {s['threshold']}: {_share(s['share'])} of {s['units']} units")
    for rnd, entry in result["by_round"].items():
        lines.append(f"round {rnd}: alpha {_alpha(entry)} on {entry['units']} units")
    for rubric, entry in result.get("by_rubric", {}).items():
        lines.append(f"rubric {rubric}: alpha {_alpha(entry)} on {entry['units']} units")
    b = result["bootstrap"]
    lines.append(f"intervals: 95% percentile bootstrap, {b['resamples']} resamples of "
                 f"{b['unit']}, seed {b['seed']}")
    return lines
