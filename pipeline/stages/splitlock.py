"""Stable split membership: `data/splits.lock` records the split of every `auto` task the
first time it is assigned, so neither `build --task X` nor adding a task to `data/raw/` can
move an existing task. Only `repogenesis resplit` reshuffles, on purpose, and says what moved.

Why a quota per difficulty level over locked *and* new tasks: assigning newcomers one batch at
a time keeps each level's verified share at the target (rounded half up) without touching
anyone already placed. Expert-written tasks are preferred for verified, as in the paper (its
verified split is 30 of 106 repositories, 24 of them expert-written), then a seeded hash.

The file is plain text, one task a line (`id split level source`), sorted, no timestamps:
a person can read and diff it, and git keeps its history.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

LOCK_NAME = "splits.lock"
_HEADER = (
    "# Split of every `auto` task, recorded when first assigned (repogenesis build).\n"
    "# Never rewritten by a build; `repogenesis resplit --seed S [--share F]` reshuffles.\n"
    "# Tasks with split = verified|train in task.toml are not listed: task.toml decides.\n"
    "# id  split  level  source\n"
)


class LockError(ValueError):
    """A malformed lock line: names the file, the line and the fix."""


@dataclass(frozen=True)
class Entry:
    split: str  # verified | train
    level: str  # difficulty level when assigned (Easy | Medium | Hard)
    source: str  # github | expert


@dataclass(frozen=True)
class AutoTask:
    id: str
    level: str
    source: str


def read_lock(path: Path) -> dict[str, Entry]:
    """The recorded assignments; a missing file is an empty lock."""
    if not path.is_file():
        return {}
    out: dict[str, Entry] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        parts = text.split()
        if len(parts) != 4 or parts[1] not in ("verified", "train"):
            raise LockError(f"{path}:{n}: expected `id verified|train level source`, got "
                            f"{line.strip()!r}; fix the line or delete it to reassign the task")
        out[parts[0]] = Entry(parts[1], parts[2], parts[3])
    return out


def write_lock(path: Path, entries: dict[str, Entry]) -> None:
    """Write the lock sorted by id (same entries, same bytes)."""
    width = max((len(i) for i in entries), default=0)
    lines = [f"{i:<{width}}  {e.split:<8}  {e.level:<6}  {e.source}".rstrip()
             for i, e in sorted(entries.items())]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(_HEADER + "".join(line + "\n" for line in lines), encoding="utf-8")
    tmp.replace(path)


def _rank(seed: str, task: AutoTask, prefer_expert: bool) -> tuple[int, str]:
    preferred = 0 if (not prefer_expert or task.source == "expert") else 1
    return preferred, hashlib.sha256(f"{seed}:{task.id}".encode()).hexdigest()


def assign(
    new: Iterable[AutoTask], locked: dict[str, Entry], seed: str, share: float,
    *, prefer_expert: bool = True,
) -> dict[str, Entry]:
    """Entries for the `new` tasks only; `locked` ones are counted, never moved.

    Per level, verified gets `round_half_up(share * (locked + new))` tasks in total; the new
    tasks fill what the locked ones leave, preferred ones (expert-written) first."""
    by_level: dict[str, list[AutoTask]] = defaultdict(list)
    for task in new:
        if task.id not in locked:
            by_level[task.level].append(task)
    out: dict[str, Entry] = {}
    for level, tasks in by_level.items():
        same = [e for e in locked.values() if e.level == level]
        target = math.floor(share * (len(same) + len(tasks)) + 0.5)
        need = max(0, target - sum(e.split == "verified" for e in same))
        ranked = sorted(tasks, key=lambda t: _rank(seed, t, prefer_expert))
        for position, task in enumerate(ranked):
            split = "verified" if position < need else "train"
            out[task.id] = Entry(split, task.level, task.source)
    return out


def moves(before: dict[str, Entry], after: dict[str, Entry]) -> list[tuple[str, str, str]]:
    """(id, old split, new split) for every task whose split differs, sorted by id; a task
    only in one of the two shows `-` on the other side."""
    out = []
    for task_id in sorted(set(before) | set(after)):
        old = before[task_id].split if task_id in before else "-"
        new = after[task_id].split if task_id in after else "-"
        if old != new:
            out.append((task_id, old, new))
    return out
