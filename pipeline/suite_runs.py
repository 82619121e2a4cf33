"""How a suite folder is run: which tests share a service, and in what order.

Human-written test files (`existing/test_*.py`, see `pipeline.suites`) were written to run as
their authors ran them: each file against a freshly started service, its tests in file order.
Some rely on it (an upstream `test_list_empty` asserts an empty store before the file's own
writes). Run in one service beside the generated tests, or reversed, they fail on a correct
implementation, which says nothing about the implementation. So a suite runs in *groups*,
each against its own fresh service: the generated tests (everything outside `existing/`)
first, then each human file alone, in file-name order. A suite without human files is one
group, run as before.

The execution gate, the mutants, the published-suite check and `evaluate` all run suites
through `run_groups`, so a candidate is judged the way the oracle was.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pipeline.execution.pytest_runner import TestRun

HUMAN_DIR = "existing"
_SKIP = ("conftest.py", "__pycache__", HUMAN_DIR)

Group = tuple[str, ...]  # extra pytest arguments that select one group of a suite folder


def human_files(suite: Path) -> list[Path]:
    """The human-written test files of a suite folder, in the order they run."""
    folder = suite / HUMAN_DIR
    return sorted(folder.glob("test_*.py")) if folder.is_dir() else []


def _is_test_file(path: Path) -> bool:
    return path.is_file() and path.suffix == ".py" and (
        path.name.startswith("test_") or path.name.endswith("_test.py"))


def suite_groups(suite: Path) -> list[Group]:
    """The groups of `suite` in run order, each as the pytest arguments that select it (the
    suite folder stays pytest's target and root, so node ids do not change)."""
    suite = suite.resolve()
    human = human_files(suite)
    if not human:
        return [()]
    others = sorted(p for p in suite.iterdir() if p.name not in _SKIP)
    groups: list[Group] = []
    if any(_is_test_file(p) or (p.is_dir() and any(filter(_is_test_file, p.rglob("*.py"))))
           for p in others):
        groups.append((f"--ignore={suite / HUMAN_DIR}",))
    for path in human:
        ignored = [*others, *(p for p in human if p != path)]
        groups.append(tuple(f"--ignore={p}" for p in ignored))
    return groups


def task_test_files(tests_dir: Path) -> list[Path]:
    """A raw task's human-written test files: `tests/test_*.py`, in name order. The one rule
    for what the build imports as cases, `check` runs and a group is made of."""
    return sorted(tests_dir.glob("test_*.py")) if tests_dir.is_dir() else []


def nested_test_files(tests_dir: Path) -> list[Path]:
    """Test files below `tests/`'s subfolders: not a task's tests (`check` warns of them)."""
    top = set(task_test_files(tests_dir))
    return sorted(p for p in tests_dir.rglob("test_*.py")
                  if p not in top and "__pycache__" not in p.parts) if tests_dir.is_dir() else []


def file_groups(tests_dir: Path) -> list[Group]:
    """A raw task's own tests/ (`task_test_files`): each file alone, in path order, as the
    selection arguments of `suite_groups`; files in subfolders never run."""
    tests_dir = tests_dir.resolve()
    files, nested = task_test_files(tests_dir), nested_test_files(tests_dir)
    return [tuple(f"--ignore={other}" for other in sorted(nested + files) if other != path)
            for path in files]


def run_groups(suite: Path, run_one: Callable[[Group], TestRun]) -> list[TestRun]:
    """Each group of `suite` run by `run_one` (which starts a fresh service for it)."""
    return [run_one(group) for group in suite_groups(suite)]


def merge_runs(runs: list[TestRun]) -> TestRun:
    """One run made of the groups' runs: every test, the worst exit code, the total time."""
    if len(runs) == 1:
        return runs[0]
    codes = [r.exit_code for r in runs if r.exit_code is not None]
    failing = [c for c in codes if c not in (0, 5)]  # 5: a group with no test selected
    return TestRun(
        tests=[t for r in runs for t in r.tests],
        exit_code=max(failing) if failing else (0 if codes else None),
        timed_out=any(r.timed_out for r in runs),
        duration_s=round(sum(r.duration_s for r in runs), 3),
        output_tail="\n".join(r.output_tail for r in runs if r.output_tail)[-4000:],
        limits_hit=[x for r in runs for x in r.limits_hit],
    )
