"""Human-written tests from a raw task's `tests/`: one TestCase per test function.

They are reviewed like generated ones. Each keeps its module's non-test code (imports,
helpers) as a prelude, and the task's own conftest ships beside them under tests/existing/.
"""

from __future__ import annotations

import ast
from pathlib import Path

from pipeline.records import TestCase

# Keywords in a test's name that suggest its category; the first hit wins.
CATEGORY_HINTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("integration", ("flow", "lifecycle", "crud", "and_then", "end_to_end", "roundtrip")),
    ("error_handling", ("invalid", "error", "reject", "missing", "bad", "unauth", "forbidden",
                        "duplicate", "conflict", "validation", "not_found", "404", "400")),
    ("edge_case", ("empty", "edge", "boundary", "limit", "pagination", "page", "unknown",
                   "max", "min", "zero")),
)


def guess_category(name: str, body: str) -> str:
    lowered = name.lower()
    for category, words in CATEGORY_HINTS:
        if any(w in lowered for w in words):
            return category
    # A test that talks to several paths is a flow even when its name does not say so.
    if body.count("f\"{base_url}") + body.count("base_url +") >= 3:
        return "integration"
    return "api_compliance"


def _is_test(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
        "test"
    )


def cases_from_module(task_id: str, path: Path, module: str) -> list[TestCase]:
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = text.splitlines(keepends=True)
    prelude_parts: list[str] = []
    cases: list[TestCase] = []
    for node in tree.body:
        start = (node.decorator_list[0].lineno if getattr(node, "decorator_list", None)
                 else node.lineno) - 1
        source = "".join(lines[start:node.end_lineno])
        if _is_test(node):
            cases.append(TestCase(
                case_id=f"{task_id}::{module}::{node.name}",
                task_id=task_id,
                round=0,
                category=guess_category(node.name, source),
                name=node.name,
                code=source,
                origin="existing",
                author="human",
                module=module,
            ))
        elif not isinstance(node, ast.ClassDef):
            prelude_parts.append(source)
    prelude = "\n".join(part.rstrip("\n") + "\n" for part in prelude_parts)
    return [c.model_copy(update={"prelude": prelude}) for c in cases]


def existing_cases(task_id: str, tests_dir: Path) -> list[TestCase]:
    if not tests_dir.is_dir():
        return []
    out: list[TestCase] = []
    for path in sorted(tests_dir.glob("test_*.py")):
        out.extend(cases_from_module(task_id, path, path.stem))
    return out


def existing_conftest(tests_dir: Path) -> str | None:
    path = tests_dir / "conftest.py"
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
