"""What the Area Chair pages show, built from the store: queue rows, and for one case its
highlighted code, README passages, reviews, evidence and earlier rounds with diffs."""

from __future__ import annotations

import difflib
from pathlib import Path
from statistics import median
from typing import Any

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import DiffLexer, PythonLexer

from pipeline.chair.service import CaseView, QueueItem, readme_passages
from pipeline.records import RUBRIC_DIMENSIONS
from pipeline.store import Store

_FORMATTER = HtmlFormatter(cssclass="hl")


def code_html(code: str, lexer: Any = None) -> Markup:
    """Highlighted HTML; pygments escapes every character of the untrusted source."""
    return Markup(highlight(code, lexer or PythonLexer(), _FORMATTER))


def style_defs() -> str:
    return _FORMATTER.get_style_defs(".hl")


def queue_context(store: Store, items: list[QueueItem], task: str, state: str,
                  q: str) -> dict[str, Any]:
    rows = [{"case_id": i.view.case.case_id, "task": i.view.task.id,
             "endpoints": ", ".join(i.view.case.endpoints), "spread": i.triage.spread,
             "mean": i.triage.mean, "round": i.view.case.round, "reason": i.triage.reason,
             "state": i.view.state, "claimed_by": i.claimed_by,
             "stale": len(i.view.stale)} for i in items]
    return {"rows": rows, "tasks": [t.id for t in store.tasks()], "task": task,
            "state": state, "q": q, "states": ["waiting", "claimed", "decided", "stale", "all"]}


def _default_scores(view: CaseView) -> dict[str, int]:
    """The accept form starts at the reviewers' median per dimension (the chair edits it)."""
    valid = [r.scores for r in view.reviews if r.scores is not None]
    keys = dict(zip(RUBRIC_DIMENSIONS, "cvrl", strict=True))
    return {keys[k]: int(median(getattr(s, k) for s in valid)) if valid else 0
            for k in RUBRIC_DIMENSIONS}


def case_context(store: Store, data_dir: Path, view: CaseView,
                 order: list[str]) -> dict[str, Any]:
    case_id = view.case.case_id
    at = order.index(case_id) if case_id in order else -1
    versions = store.case_versions(case_id)
    history = []
    for older, newer in zip(versions, versions[1:], strict=False):
        diff = "".join(difflib.unified_diff(
            older.code.splitlines(keepends=True), newer.code.splitlines(keepends=True),
            f"round {older.round}", f"round {newer.round}"))
        routes = [r for r in store.routes_for(case_id) if r.round == older.round]
        history.append({"round": older.round, "diff": code_html(diff or "(no change)\n",
                                                               DiffLexer()),
                        "route": routes[-1] if routes else None,
                        "totals": [r.scores.total for r in store.reviews_for(case_id,
                                   older.round) if r.scores]})
    mutation = view.evidence.mutation if view.evidence else None
    return {
        "view": view, "case": view.case, "triage": view.triage(), "state": view.state,
        "code": code_html(view.case.code),
        "prelude": code_html(view.case.prelude) if view.case.prelude else None,
        "styles": style_defs(), "passages": readme_passages(data_dir, view),
        "reviews": view.reviews, "evidence": view.evidence, "mutation": mutation,
        "history": history, "decision": view.decision, "stale": view.stale,
        "last": view.decision.id if view.decision else 0, "version": view.version.token,
        "defaults": _default_scores(view),
        "prev": order[at - 1] if at > 0 else None,
        "next": order[at + 1] if 0 <= at < len(order) - 1 else
        (order[0] if order and at < 0 and order[0] != case_id else None),
    }
