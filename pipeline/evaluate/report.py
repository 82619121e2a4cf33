"""Plain-text renderings of evaluation results for the terminal (`--json` prints the dicts)."""

from __future__ import annotations

from typing import Any

from .metrics import PASSED

MAX_LISTED = 10


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:MAX_LISTED])
    return shown + (f" (+{len(items) - MAX_LISTED} more)" if len(items) > MAX_LISTED else "")


def candidate_lines(result: dict[str, Any]) -> list[str]:
    """A few lines: DSR and why, Pass@1, tests passed, API coverage, what failed."""
    lines = [
        f"task           {result['task']}  ({result['language']}, port {result['port']})",
        f"candidate      {result['candidate']}",
        f"DSR            {'yes' if result['dsr'] else 'no'}  ({result['dsr_reason']})",
        f"Pass@1         {result['pass_at_1']}",
        f"tests passed   {result['tests_passed']}/{result['tests_total']}  "
        f"({_pct(result['test_pass_rate'])})",
        f"API coverage   {_pct(result['api_coverage'])}  "
        f"({result['routes_found']} routes found in the source)",
    ]
    if result["missing_endpoints"]:
        lines.append(f"missing        {_listed(result['missing_endpoints'])}")
    if result["dsr"]:
        bad = [f"{t['id']} ({t['outcome']})" for t in result["tests"] if t["outcome"] != PASSED]
        if bad:
            lines.append(f"not passed     {_listed(bad)}")
    for line in result.get("service_log_tail", [])[-5:]:
        lines.append(f"  log | {line}")
    return lines


def samples_lines(out: dict[str, Any]) -> list[str]:
    """One line per sample, then Pass@k for every k."""
    lines = [f"task {out['task']}: {out['n']} samples, {out['c']} pass all tests"]
    for i, s in enumerate(out["samples"], 1):
        lines.append(f"  sample {i}: DSR {int(s['dsr'])}  Pass@1 {s['pass_at_1']}  "
                     f"tests {s['tests_passed']}/{s['tests_total']}  "
                     f"AC {_pct(s['api_coverage'])}  {s['candidate']}")
    lines.append("  " + "  ".join(f"Pass@{k} {v:.4f}" for k, v in out["pass_at_k"].items()))
    return lines


def _metric_cells(m: dict[str, Any]) -> str:
    return (f"DSR {_pct(m['dsr'])}  Pass@1 {_pct(m['pass_at_1'])}  "
            f"tests {_pct(m['test_pass_rate'])}  AC {_pct(m['api_coverage'])}")


def split_lines(summary: dict[str, Any]) -> list[str]:
    """Per task one line, then the means overall and per language."""
    lines = []
    for row in summary["tasks"]:
        note = "" if row["candidate"] else "  (no candidate folder)"
        lines.append(f"{row['id']:24} DSR {int(row['dsr'])}  Pass@1 {row['pass_at_1']}  "
                     f"tests {row['tests_passed']}/{row['tests_total']}  "
                     f"AC {_pct(row['api_coverage'])}{note}")
    lines.append(f"{'all (' + str(summary['n_tasks']) + ' tasks)':24} "
                 f"{_metric_cells(summary['metrics'])}")
    for lang, m in summary["by_language"].items():
        lines.append(f"{lang + ' (' + str(m['n_tasks']) + ')':24} {_metric_cells(m)}")
    return lines
