"""The benchmark as git carries it: `data/verified/`, `data/train/` (task folders, index.jsonl,
dataset cards) and `data/decisions.jsonl`, and the check that they are what the store writes.

Why: the committed splits are the product. A change to the generator, the rubric or an Area
Chair decision must show its effect in the same commit, so `publish --check`, `build --check`
and the build test compare the committed files with a fresh rendering, written into a
temporary folder (the data folder is never touched by a check).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from pipeline.store import Store

#: What a publish writes under the data folder, relative to it (all of it is committed).
SHIPPED = ("verified", "train", "decisions.jsonl")
#: Left by running a shipped suite in place; git ignores them, so does the check.
IGNORED = {"__pycache__", ".pytest_cache"}


@dataclass(frozen=True)
class Difference:
    """One committed file that is not what the store would write."""

    path: str  # relative to the data folder, with forward slashes
    kind: str  # "stale" (content differs), "missing" (not on disk), "extra" (not written)

    def line(self) -> str:
        what = {"stale": "differs from what the store writes",
                "missing": "missing (the store writes it)",
                "extra": "not written by the store (remove it)"}[self.kind]
        return f"{self.path}: {what}"


def shipped_files(root: Path, names: tuple[str, ...] = SHIPPED) -> dict[str, bytes]:
    """Every file under root's shipped parts: relative path -> bytes."""
    out: dict[str, bytes] = {}
    for name in names:
        top = root / name
        paths = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in paths:
            rel = path.relative_to(root)
            if not IGNORED.intersection(rel.parts):
                out[rel.as_posix()] = path.read_bytes()
    return out


def compare_files(expected: dict[str, bytes], actual: dict[str, bytes]) -> list[Difference]:
    """Pure: the differences between two {path: bytes} maps, sorted by path."""
    diffs = []
    for path in sorted(set(expected) | set(actual)):
        if path not in actual:
            diffs.append(Difference(path, "missing"))
        elif path not in expected:
            diffs.append(Difference(path, "extra"))
        elif expected[path] != actual[path]:
            diffs.append(Difference(path, "stale"))
    return diffs


def compare_trees(expected: Path, actual: Path,
                  names: tuple[str, ...] = SHIPPED) -> list[Difference]:
    """The shipped files under `actual` that differ from those under `expected`."""
    return compare_files(shipped_files(expected, names), shipped_files(actual, names))


@dataclass(frozen=True)
class OutputCheck:
    """What a check found: the files that differ, and the tasks it could not check because
    the store has not built them (id -> why; their committed outputs are kept as they are)."""

    diffs: list[Difference]
    not_built: dict[str, str]

    def not_built_line(self, refresh: str = "./dev.sh build") -> str | None:
        if not self.not_built:
            return None
        shown = ", ".join(list(self.not_built)[:8]) + (", ..." if len(self.not_built) > 8
                                                       else "")
        return (f"not built here: {len(self.not_built)} task(s) ({shown}), so not checked; "
                f"run `{refresh}` to check them (or narrow the check with --task)")


def task_of(path: str) -> str | None:
    """The task a shipped file belongs to (`verified/<id>/...`), None for a split's own files."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] in SHIPPED else None


def check_outputs(data_dir: Path, store: Store, only: list[str] | None = None) -> OutputCheck:
    """What `publish` would change in data_dir: it renders into a temporary folder and
    compares; nothing in data_dir or the store is written. `only` narrows the check to those
    tasks' folders (and the splits' own files)."""
    from pipeline.reports.release import publish_data
    from pipeline.stages.committed import unbuilt
    from pipeline.stages.publish import raw_tasks
    from pipeline.stages.taskstate import raw_ids

    with tempfile.TemporaryDirectory(prefix="repogenesis-check-") as tmp:
        publish_data(data_dir, store, out_dir=Path(tmp))
        diffs = compare_trees(Path(tmp), data_dir)
    not_built = unbuilt(store, raw_ids(data_dir), set(raw_tasks(data_dir)))
    if only is not None:
        diffs = [d for d in diffs if task_of(d.path) in (None, *only)]
        not_built = {t: why for t, why in not_built.items() if t in only}
    return OutputCheck(diffs, not_built)


def stale_lines(diffs: list[Difference], refresh: str, data: str = "data",
                names: tuple[str, ...] = SHIPPED, extra: list[str] | None = None) -> list[str]:
    """The report of a failed check: one line per file (`extra`: more, already worded),
    then the command that refreshes."""
    paths = " ".join(f"{data}/{name}" for name in names)
    lines = [*(f"{data}/{d.line()}" for d in diffs), *(extra or [])]
    return [*lines, f"{len(lines)} output file(s) out of date; refresh with {refresh}, "
                    f"then commit {paths}"]


def check_verdict(result: OutputCheck, refresh: str, data: str = "data",
                  names: tuple[str, ...] = SHIPPED, extra: list[str] | None = None
                  ) -> tuple[list[str], str | None]:
    """A check's lines for stderr and its error line; None means up to date, which needs
    nothing differing and every task asked for checked (not one left unbuilt)."""
    not_built = result.not_built_line()
    if not result.diffs and not extra:
        return [], not_built
    *lines, error = stale_lines(result.diffs, refresh, data, names, extra)
    return lines + ([f"warning: {not_built}"] if not_built else []), error

