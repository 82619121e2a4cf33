"""The generator's and the spec reader's modules import each other without a circle, and no
module imports another's private name (module-level imports; those under `TYPE_CHECKING`
and inside functions are deferred and do not count)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "pipeline"


def _graph(package: str) -> tuple[dict[str, set[str]], list[str]]:
    graph: dict[str, set[str]] = {}
    private: list[str] = []
    for path in sorted((ROOT / package).glob("*.py")):
        if path.stem == "__init__":
            continue
        name = f"pipeline.{package}.{path.stem}"
        deps = graph.setdefault(name, set())
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith(
                    f"pipeline.{package}"):
                continue
            for alias in node.names:
                target = node.module if node.module != f"pipeline.{package}" \
                    else f"{node.module}.{alias.name}"  # `from pipeline.offline import gen_x`
                deps.add(str(target))
                if alias.name.startswith("_"):
                    private.append(f"{name} imports {node.module}.{alias.name}")
    return graph, private


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt]
            if not state.get(nxt) and (found := visit(nxt, path + [nxt])):
                return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if not state.get(start) and (found := visit(start, [start])):
            return found
    return None


def test_no_circle_and_no_private_import() -> None:
    for package in ("offline", "spec"):
        graph, private = _graph(package)
        assert len(graph) > 10, package
        assert _circle(graph) is None, (package, _circle(graph))
        assert private == [], private


def test_the_check_sees_a_circle() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None
