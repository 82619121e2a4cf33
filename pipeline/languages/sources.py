"""Which files are a service's source: the one definition, for every language and caller.

Difficulty, route analysis, mutation and evaluate all read a service through this walk, so a
file counts for all of them or for none. A file is source when it
- ends with one of its language's suffixes;
- lies in no skipped folder: hidden folders, virtualenvs (a folder holding `pyvenv.cfg`),
  dependencies, build output, test folders and database migrations (generated, not written:
  Django's `migrations/`), nor in a folder its language adds (`Language.skip_dirs`);
- is not a test file by name (`test_x.py`, `x_test.py`, `conftest.py`, Django's `tests.py`,
  `XTest.java`, `XTests.java`, `XIT.java`, `XTestCase.java`);
- is not blank (an empty `__init__.py` holds no code; counting it would only inflate the file
  count), not a symlink, not larger than 2 MB (generated or vendored).
Files come in a fixed order (folders walked in sorted order, files sorted within each), so
every result built from them is deterministic.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

SKIP_DIRS = frozenset({
    # tests
    "test", "tests", "testing", "__tests__", "spec", "specs", "it",
    # environments and dependencies
    "venv", "env", "virtualenv", "site-packages", "node_modules", "bower_components",
    # build output and caches
    "build", "dist", "target", "out", "bin", "obj", "__pycache__",
    # generated database migrations
    "migrations",
})
TEST_STEMS = frozenset({"conftest", "tests"})
TEST_SUFFIXES = ("_test", "Test", "Tests", "IT", "TestCase")
MAX_FILE_BYTES = 2_000_000
_BLANK_CHECK_BYTES = 4096  # larger files are never blank in practice; skip reading them


def is_test_file(name: str) -> bool:
    """True for a file that holds tests by its name (any language)."""
    stem = name.rsplit(".", 1)[0]
    return stem in TEST_STEMS or stem.startswith("test_") or stem.endswith(TEST_SUFFIXES)


def _is_blank(path: Path, size: int) -> bool:
    if size > _BLANK_CHECK_BYTES:
        return False
    try:
        return not path.read_bytes().strip()
    except OSError:
        return True


def _kept_file(path: Path) -> bool:
    if path.is_symlink() or is_test_file(path.name):
        return False
    try:
        size = path.stat().st_size
    except OSError:
        return False
    return size <= MAX_FILE_BYTES and not _is_blank(path, size)


class SourceRules(Protocol):
    """What the walk needs of a language (`pipeline.languages.Language` has it): the registry
    imports this module, so the walk names no type of the registry's."""

    @property
    def name(self) -> str: ...
    @property
    def suffixes(self) -> tuple[str, ...]: ...
    @property
    def skip_dirs(self) -> frozenset[str]: ...


def source_files(root: Path, languages: Sequence[SourceRules]) -> dict[str, list[Path]]:
    """Per language name, its source files under `root`, in one walk of the tree."""
    out: dict[str, list[Path]] = {lang.name: [] for lang in languages}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = sorted(
            d for d in dirnames
            if not d.startswith(".") and d.lower() not in SKIP_DIRS
            and not (here / d / "pyvenv.cfg").exists()
        )
        rel_dirs = {p.lower() for p in here.relative_to(root).parts}
        for name in sorted(filenames):
            lang = next((lg for lg in languages if name.endswith(lg.suffixes)), None)
            if lang is None or rel_dirs & lang.skip_dirs:
                continue
            path = here / name
            if _kept_file(path):
                out[lang.name].append(path)
    return out
