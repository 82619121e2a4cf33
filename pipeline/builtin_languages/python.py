"""Python services: Flask / FastAPI / Starlette / Django, run in a uv environment built from
the service's `requirements.txt`, mutated through the AST (`pipeline.mutation.operators`)."""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path

from pipeline.execution.envs import TaskEnv, ensure_env
from pipeline.languages import Language, register
from pipeline.mutation.handlers import python_handler_spans
from pipeline.mutation.operators import python_mutants
from pipeline.routes.model import Route
from pipeline.routes.pyapps import extract_app_routes
from pipeline.routes.pydjango import extract_django_routes
from pipeline.routes.pysource import Project


def routes(root: Path, files: list[Path]) -> list[Route]:
    """Routes of the app objects (Flask, FastAPI, Starlette) and Django URLconfs in `files`."""
    project = Project.load(root, files)
    found = extract_app_routes(project)
    with contextlib.suppress(RecursionError):  # pathological nesting only
        found += extract_django_routes(project)
    return found


def count_types(path: Path, text: str) -> int:
    """Class definitions (0 when the file does not parse)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return 0
    return sum(isinstance(n, ast.ClassDef) for n in ast.walk(tree))


def environment(source_dir: Path, cache_root: Path | None) -> TaskEnv:
    """A cached env with the service's requirements.txt installed (bare when it has none)."""
    req = source_dir / "requirements.txt"
    return ensure_env(req if req.is_file() else None, root=cache_root)


LANGUAGE = register(Language(
    name="python",
    suffixes=(".py",),
    routes=routes,
    mutants=python_mutants,
    count_types=count_types,
    environment=environment,
    templates={"oracle/start.sh": "new_task/python/start.sh.j2",
               "oracle/requirements.txt": "new_task/python/requirements.txt.j2"},
    frameworks=(("fastapi", "fastapi"), ("flask", "flask"), ("django", "django"),
                ("starlette", "starlette")),
    default_framework="unknown",
    manifests=(".txt", ".toml"),
    programs=("python", "python3"),
    handler_spans=python_handler_spans,
))
