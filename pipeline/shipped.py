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


def check_outputs(data_dir: Path, store: Store) -> list[Difference]:
    """What `publish` would change in data_dir: it renders into a temporary folder and
    compares; nothing in data_dir or the store is written."""
    from pipeline.stages.publish import publish_data

    with tempfile.TemporaryDirectory(prefix="repogenesis-check-") as tmp:
        publish_data(data_dir, store, out_dir=Path(tmp))
        return compare_trees(Path(tmp), data_dir)


def stale_lines(diffs: list[Difference], refresh: str, data: str = "data",
                names: tuple[str, ...] = SHIPPED) -> list[str]:
    """The report of a failed check: one line per file, then the command that refreshes."""
    paths = " ".join(f"{data}/{name}" for name in names)
    return [*(f"{data}/{d.line()}" for d in diffs),
            f"{len(diffs)} output file(s) out of date; refresh with {refresh}, "
            f"then commit {paths}"]
