"""The package's shape holds: its layers (the import-linter contract in pyproject.toml), no
import circle among its modules (counting imports inside functions and under TYPE_CHECKING),
and no module reaching into another module's private names."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pipeline"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(root), "PATH": ""})


def test_the_layers_contract_is_kept() -> None:
    proc = _lint_imports(ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "pipeline layers KEPT" in proc.stdout


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    """What CI does when someone adds one: a record importing a stage, even lazily."""
    shutil.copytree(PACKAGE, tmp_path / "pipeline",
                    ignore=shutil.ignore_patterns("__pycache__", "templates", "migrations"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    records = tmp_path / "pipeline" / "records.py"
    records.write_text(records.read_text(encoding="utf-8") + (
        "\n\ndef _upward() -> object:\n    from pipeline.stages import build\n\n"
        "    return build\n"), encoding="utf-8")
    proc = _lint_imports(tmp_path)
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert "pipeline layers BROKEN" in proc.stdout
    assert "pipeline.records -> pipeline.stages.build" in proc.stdout


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.find_modules_directly_imported_by(node)):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = stack[stack.index(node):]
            del stack[stack.index(node):]
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_counting_lazy_and_type_only_imports() -> None:
    graph = grimp.build_graph("pipeline", include_external_packages=False, cache_dir=None)
    assert len(graph.modules) > 200
    assert _circles(graph) == []


def test_the_circle_check_sees_a_circle() -> None:
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=a, imported=b)
    assert _circles(graph) == [["p.a", "p.b", "p.c"]]


def _modules() -> dict[str, Path]:
    return {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
            for p in sorted(PACKAGE.rglob("*.py"))}


def _private_reaches(name: str, path: Path, modules: dict[str, Path]) -> list[str]:
    """`from x import _y`, and `m._y` where `m` names another module of the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases: set[str] = set()
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pipeline"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    out.append(f"{name} imports {node.module}.{alias.name}")
                if f"{node.module}.{alias.name}" in modules:
                    aliases.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            aliases.update(a.asname for a in node.names
                           if a.name.startswith("pipeline") and a.asname)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            out.append(f"{name} uses {node.value.id}.{node.attr}")
    return out


def test_no_module_reaches_into_another_modules_private_names() -> None:
    modules = _modules()
    found = [line for name, path in modules.items()
             for line in _private_reaches(name, path, modules)]
    assert found == []


def test_the_store_alone_holds_its_connection_and_lock() -> None:
    """SQL lives in the store modules: nobody else touches `x._conn` or `x._lock`."""
    found = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr in ("_conn", "_lock")
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self")):
                found.append(f"{name}: {ast.unparse(node)}")
    assert found == []


@pytest.mark.parametrize("source, expected", [
    ("from pipeline.offline import gen_x as g\ng._helper()\n", ["m uses g._helper"]),
    ("from pipeline.offline.gen_x import _helper\n", ["m imports pipeline.offline.gen_x._helper"]),
    ("from pipeline.offline import gen_x as g\ng.helper()\n", []),
])
def test_the_private_check_sees_a_reach(tmp_path: Path, source: str, expected: list[str]) -> None:
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    assert _private_reaches("m", path, {"pipeline.offline.gen_x": path}) == expected


def test_the_design_map_lists_the_contracts_layers_in_order() -> None:
    import re
    import tomllib

    contract = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = contract["tool"]["importlinter"]["contracts"][0]["layers"]
    wanted = [sorted(re.split(r"\s*[|:]\s*", layer)) for layer in layers]
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = text.split("## The map", 1)[1].split("\n## ", 1)[0]
    rows = [re.split(r"(?<!\\)\|", line)[2] for line in section.splitlines()
            if re.match(r"\|\s*\d+\s*\|", line)]
    mapped = [sorted(re.findall(r"`(pipeline[\w.]*)`", row)) for row in rows]
    assert mapped == wanted
    listed = {m for layer in wanted for m in layer}
    packages = {f"pipeline.{p.stem if p.is_file() else p.name}" for p in PACKAGE.iterdir()
                if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()}
    assert packages - listed == set()
