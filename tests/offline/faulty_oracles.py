"""Realistic faulty copies of bundled oracles, written as one text replacement each.

Each fault is a bug a code-writing agent really makes (a filter ignored, a guard dropped, a
fixed redirect, an update returned but not stored, a page off by one). `apply_fault` copies
the task to a scratch folder and edits the copy; the bundled oracle is never touched.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Fault:
    task: str
    name: str
    file: str
    old: str
    new: str
    root: str = "data/raw"  # the task's parent folder, from the repository root


FAULTS = [
    Fault("url-shortener", "redirect_to_fixed_site", "oracle/app.py",
          'return redirect(row["url"], code=302)',
          'return redirect("https://example.com/", code=302)'),
    Fault("library-books", "delete_book_on_loan", "oracle/app.py",
          "        if book_id in _loans:\n            raise ApiError(409, \"book_on_loan\"",
          "        if False:\n            raise ApiError(409, \"book_on_loan\""),
    Fault("library-books", "tag_filter_ignored", "oracle/app.py",
          'if tag and tag not in book["tags"]:', "if False:"),
    Fault("library-books", "update_not_stored", "oracle/app.py",
          "        book.update(fields)\n        return jsonify(_public(book))",
          "        return jsonify(_public({**book, **fields}))"),
    Fault("library-books", "page_off_by_one", "oracle/app.py",
          "start = (page - 1) * per_page", "start = page * per_page - per_page + 1"),
    Fault("tic-tac-toe", "turn_not_checked", "oracle/app.py",
          'if player != game["next_player"]:', "if False:"),
    Fault("tic-tac-toe", "reset_keeps_turn", "oracle/app.py",
          'game.update(board=empty_board(), next_player="X",', "game.update(board=empty_board(),"),
    Fault("rock-paper-scissors-flask", "fallback_not_rock", "oracle/app.py",
          'return value if value in CHOICES else "rock"',
          'return value if value in CHOICES else "paper"'),
    Fault("reading-list", "descending_sort_ignored", "oracle/app.py",
          'reverse=order == "desc"', "reverse=False", "tests/offline/fixtures"),
    Fault("reading-list", "shelf_filter_ignored", "oracle/app.py",
          'and (shelf is None or b["shelf"] == shelf)', "", "tests/offline/fixtures"),
]


def apply_fault(repo: Path, fault: Fault, dest: Path) -> Path:
    """A copy of the task `fault.task` under `dest` with the fault's replacement made."""
    task = dest / fault.task
    shutil.copytree(repo / fault.root / fault.task, task)
    target = task / fault.file
    text = target.read_text(encoding="utf-8")
    if text.count(fault.old) != 1:
        raise ValueError(f"{fault.task}/{fault.file}: fault {fault.name!r} no longer matches "
                         "the oracle once; update its `old` text")
    target.write_text(text.replace(fault.old, fault.new), encoding="utf-8")
    return task
