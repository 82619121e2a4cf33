"""`extract_routes`: every route a service's source declares, without running it.

Walks the source tree once (skipping tests, virtualenvs, dependencies and build output, which
would otherwise contribute routes the service does not serve), then hands Python files to the
AST readers and Java files to the lexer-based readers.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from pipeline.routes.javaannot import annotated_routes, application_path
from pipeline.routes.javadsl import dsl_routes
from pipeline.routes.javalex import Constants, tokenize
from pipeline.routes.model import Route
from pipeline.routes.pyapps import extract_app_routes
from pipeline.routes.pydjango import extract_django_routes
from pipeline.routes.pysource import Project

SKIP_DIRS = {
    "test",
    "tests",
    "testing",
    "__tests__",
    "spec",
    "specs",
    "it",
    "venv",
    "env",
    "virtualenv",
    "site-packages",
    "node_modules",
    "bower_components",
    "build",
    "dist",
    "target",
    "out",
    "bin",
    "obj",
    "__pycache__",
    "migrations",
}
MAX_FILE_BYTES = 2_000_000


def _is_test_file(name: str) -> bool:
    stem = name.rsplit(".", 1)[0]
    return (
        name == "conftest.py"
        or stem.startswith("test_")
        or stem.endswith("_test")
        or stem.endswith(("Test", "Tests", "IT", "TestCase"))
    )


def source_files(root: Path) -> tuple[list[Path], list[Path]]:
    """(python files, java files) under `root`, sorted, without tests/venvs/deps/builds."""
    py: list[Path] = []
    java: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith(".")
            and d.lower() not in SKIP_DIRS
            and not (here / d / "pyvenv.cfg").exists()
        )
        for name in sorted(filenames):
            path = here / name
            if _is_test_file(name) or path.is_symlink():
                continue
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    continue
            except OSError:
                continue
            if name.endswith(".py"):
                py.append(path)
            elif name.endswith(".java"):
                java.append(path)
    return py, java


def _java_routes(root: Path, files: list[Path]) -> list[Route]:
    consts = Constants()
    parsed: list[tuple[str, str, list]] = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(root).as_posix()
        tokens = tokenize(text)
        consts.collect(tokens, rel)
        parsed.append((rel, text, tokens))
    app_path = ""
    for rel, _, tokens in parsed:
        found = application_path(tokens, consts, rel)
        if found:
            app_path = found
    out: list[Route] = []
    for rel, text, tokens in parsed:
        out += annotated_routes(tokens, consts, rel, app_path)
        out += dsl_routes(tokens, consts, rel, text)
    return out


def dedupe(routes: list[Route]) -> list[Route]:
    """One route per (method, path, prefix), first declaration kept, sorted by path."""
    seen: dict[tuple[str, str, bool], Route] = {}
    for route in routes:
        seen.setdefault(route.key, route)
    return sorted(seen.values(), key=lambda r: (r.path, r.method, r.prefix))


def extract_routes(source_dir: Path) -> list[Route]:
    """Every route declared in the Python and Java sources under `source_dir`."""
    root = Path(source_dir)
    if not root.is_dir():
        return []
    py, java = source_files(root)
    routes: list[Route] = []
    if py:
        project = Project.load(root, py)
        routes += extract_app_routes(project)
        with contextlib.suppress(RecursionError):  # pathological nesting only
            routes += extract_django_routes(project)
    if java:
        routes += _java_routes(root, java)
    return dedupe(routes)
