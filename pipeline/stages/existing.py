"""Human-written tests from a raw task's `tests/`: one TestCase per test function, and per
test method of a `Test*` class (pytest's default collection rules).

They are reviewed like generated ones. Each keeps its module's non-test code (imports,
helpers) as a prelude, a method also its class without the test methods (`test_class`), and
the task's own conftest ships beside them under tests/existing/.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from pipeline.records import TestCase
from pipeline.suite_runs import task_test_files

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


def _span(node: ast.stmt) -> tuple[int, int]:
    """0-based first line (decorators included) and end line of a statement."""
    decorators = getattr(node, "decorator_list", None)
    return (decorators[0].lineno if decorators else node.lineno) - 1, node.end_lineno or 0


def _is_test_class(node: ast.stmt) -> bool:
    """A class pytest collects: named Test*, without an __init__."""
    return isinstance(node, ast.ClassDef) and node.name.startswith("Test") and not any(
        isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in node.body)


def _class_methods(node: ast.ClassDef, lines: list[str]) -> tuple[str, list[tuple[str, str]]]:
    """(the class without its test methods, [(method name, dedented method source)])."""
    start, end = _span(node)
    keep = list(range(start, end))
    methods = []
    for item in node.body:
        if _is_test(item):
            first, last = _span(item)
            methods.append((item.name, textwrap.dedent("".join(lines[first:last]))))
            keep = [i for i in keep if not first <= i < last]
    shell = "".join(lines[i] for i in keep).rstrip() + "\n"
    return shell, methods


def cases_from_module(task_id: str, path: Path, module: str) -> list[TestCase]:
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = text.splitlines(keepends=True)
    prelude_parts: list[str] = []
    found: list[tuple[str, str, str, str]] = []  # (node name, name, code, class shell)
    for node in tree.body:
        start, end = _span(node)
        source = "".join(lines[start:end])
        if _is_test(node):
            found.append((node.name, node.name, source, ""))
        elif _is_test_class(node):
            assert isinstance(node, ast.ClassDef)
            shell, methods = _class_methods(node, lines)
            found += [(f"{node.name}::{name}", name, code, shell) for name, code in methods]
        elif not isinstance(node, ast.ClassDef):
            prelude_parts.append(source)
    prelude = "\n".join(part.rstrip("\n") + "\n" for part in prelude_parts)
    return [
        TestCase(
            case_id=f"{task_id}::{module}::{node_name}",
            task_id=task_id,
            round=0,
            category=guess_category(name, code),
            name=name,
            code=code,
            origin="existing",
            author="human",
            prelude=prelude,
            module=module,
            test_class=shell,
        )
        for node_name, name, code, shell in found
    ]


def existing_cases(task_id: str, tests_dir: Path) -> list[TestCase]:
    out: list[TestCase] = []
    for path in task_test_files(tests_dir):
        out.extend(cases_from_module(task_id, path, path.stem))
    return out


def existing_conftest(tests_dir: Path) -> str | None:
    path = tests_dir / "conftest.py"
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None


def existing_order(tests_dir: Path) -> tuple[str, ...]:
    """"module::node name" of every human-written test, in file order (`SuiteSources`)."""
    return tuple(f"{c.module}::{c.node_name}" for c in existing_cases("_", tests_dir))
