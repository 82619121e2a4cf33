"""Where a candidate repository runs: its start script, found by a fixed rule, and a private
copy of the repository that the service may write into without touching the original.

Start script rule: the first of `start.sh`, `scripts/start.sh`, `bin/start.sh` (relative to the
candidate's root) that is a file. It runs from the root of the copy with `PORT` set; a script in
`scripts/` or `bin/` is called through a top-level `start.sh` wrapper, so it starts from the
repository root as `./scripts/start.sh` would. The executable bit is set on the copy: a
repository written by a tool that does not keep file modes is judged on its service, not on
its mode bits (the script still needs a `#!` line).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pipeline.execution import scratch_prefix

START_SCRIPTS = ("start.sh", "scripts/start.sh", "bin/start.sh")
#: Never copied: version control and caches that only cost time.
SKIPPED = (".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache")
_WRAPPER = '#!/bin/sh\n# written by repogenesis evaluate: run the repository\'s start script\n' \
           'cd "$(dirname "$0")" && exec ./{rel} "$@"\n'


class WorkspaceError(Exception):
    """The candidate could not be copied; the message is one line."""


@dataclass(frozen=True)
class Workspace:
    """A private copy of a candidate: `repo` holds the copy (with `start.sh` at its root),
    `log_path` the service's output; both vanish when the context exits."""

    root: Path
    repo: Path
    script: str  # the candidate's own start script, relative to its root

    @property
    def log_path(self) -> Path:
        return self.root / "service.log"


def find_start_script(candidate: Path) -> str | None:
    """The candidate's start script (relative path) by the rule above, or None."""
    for rel in START_SCRIPTS:
        if (candidate / rel).is_file():
            return rel
    return None


def _make_executable(path: Path) -> None:
    if path.is_symlink():
        return  # never change a file outside the copy through a link
    mode = path.stat().st_mode
    path.chmod(mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@contextlib.contextmanager
def workspace(candidate: Path, script: str) -> Iterator[Workspace]:
    """Copy `candidate` into a temporary folder, prepare its start script, remove it on exit."""
    root = Path(tempfile.mkdtemp(prefix=scratch_prefix("eval")))
    try:
        repo = root / "repo"
        try:
            shutil.copytree(candidate, repo, symlinks=True, ignore_dangling_symlinks=True,
                            ignore=shutil.ignore_patterns(*SKIPPED))
            _make_executable(repo / script)
            if script != "start.sh":
                wrapper = repo / "start.sh"
                wrapper.write_text(_WRAPPER.format(rel=script), encoding="utf-8")
                _make_executable(wrapper)
        except (OSError, shutil.Error) as exc:
            raise WorkspaceError(f"cannot copy {candidate} to run it: {exc}") from exc
        yield Workspace(root=root, repo=repo, script=script)
    finally:
        _rmtree(root)


def _rmtree(root: Path) -> None:
    """Remove a copy even where the service made folders read-only."""

    def onerror(func, path, _exc):
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(path), 0o700)
            os.chmod(path, 0o700)
            func(path)

    shutil.rmtree(root, onerror=onerror)
