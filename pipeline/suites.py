"""How test cases become suite files: one place for module source, conftest and file layout.

Two layouts, one set of rules:
- the execution suite (`execution_files`): one module per generated case, so a case that does
  not import or collect fails alone, and human modules rebuilt as they were written (their
  prelude, functions and `Test*` classes) beside their own conftest under `existing/`;
- the shipped suite (`shipped_files`): the accepted cases of an output task, grouped by
  category (`test_<category>.py`) and human modules under `existing/`.
Both start from `SuiteSources` (the shared conftest and the task's own conftest, if any), so the
gate, the mutants and the published task run the same code.
"""

from __future__ import annotations

import textwrap
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.offline.conftest_template import conftest_source as conftest_source  # one home
from pipeline.records import CATEGORIES, TestCase

MODULE_HEADER = '''"""Black-box tests generated offline from the requirement document."""

import json  # noqa: F401
import re  # noqa: F401
import uuid  # noqa: F401

import pytest  # noqa: F401
import requests  # noqa: F401
'''


@dataclass(frozen=True)
class SuiteSources:
    """The conftest texts every suite of one task is written with."""

    conftest: str
    existing_conftest: str | None = None
    # "module::node name" of the task's human-written tests in the order their files hold
    # them: they run in that order, as their authors ran them (see `suite_runs`)
    human_order: tuple[str, ...] = ()

    def with_hooks(self, hooks: str) -> SuiteSources:
        """The same sources with `hooks` appended to the shared conftest (execution only)."""
        return replace(self, conftest=self.conftest + hooks)

    def in_file_order(self, cases: list[TestCase]) -> list[TestCase]:
        """Human-written cases in the order their file holds them (unknown ones last, by
        name): the store and the published files otherwise sort them by id or name."""
        index = {key: i for i, key in enumerate(self.human_order)}
        last = len(index)
        return sorted(cases, key=lambda c: (index.get(f"{c.module}::{c.node_name}", last),
                                            c.node_name))


def module_source(cases: list[TestCase]) -> str:
    """A test module: the imports every case may use, then each case's function."""
    parts = [MODULE_HEADER]
    preludes = dict.fromkeys(c.prelude.strip() for c in cases if c.prelude.strip())
    # imports and helpers existing tests rely on; one held whole by another is left out
    parts += [p + "\n" for p in preludes if not any(p != q and p in q for q in preludes)]
    parts += [case.code.rstrip() + "\n" for case in cases]
    return "\n\n".join(parts)


def existing_module_source(cases: list[TestCase]) -> str:
    """One human-written module again: its prelude, its test functions, and each test class
    (without the methods that were not accepted) with its accepted methods."""
    prelude = cases[0].prelude.rstrip("\n")
    blocks: list[list[str]] = []  # a function: [code]; a class: [shell, method, ...]
    classes: dict[str, list[str]] = {}
    for case in cases:
        code = case.code.strip("\n")
        if not case.test_class:
            blocks.append([code])
            continue
        if case.test_class not in classes:
            classes[case.test_class] = [case.test_class.rstrip("\n")]
            blocks.append(classes[case.test_class])
        classes[case.test_class].append(textwrap.indent(code, "    "))
    body = "\n\n".join("\n\n".join(block) for block in blocks)
    return (prelude + "\n\n\n" if prelude else "") + body + "\n"


def is_human_module(case: TestCase) -> bool:
    return case.origin == "existing" or bool(case.module)


def case_file(case: TestCase) -> str:
    """Where an accepted case ships inside the output task's tests/ folder."""
    if is_human_module(case):
        return f"existing/{case.module or 'test_existing'}.py"
    return f"test_{case.category}.py"


def _human_files(groups: dict[str, list[TestCase]], sources: SuiteSources) -> dict[str, str]:
    files = {rel: existing_module_source(sources.in_file_order(group))
             for rel, group in groups.items()}
    if groups and sources.existing_conftest:
        for rel in groups:
            files[str(Path(rel).parent / "conftest.py")] = sources.existing_conftest
    return files


def execution_files(cases: list[TestCase],
                    sources: SuiteSources) -> tuple[dict[str, str], dict[str, str]]:
    """(relative path -> text, pytest nodeid -> case_id) of the suite a gate or mutant runs."""
    files = {"conftest.py": sources.conftest}
    nodeids: dict[str, str] = {}
    groups: dict[str, list[TestCase]] = {}
    for case in cases:
        if is_human_module(case):
            groups.setdefault(case_file(case), []).append(case)
            continue
        name = f"test_{case.name.removeprefix('test_')}.py"
        files[name] = module_source([case])
        nodeids[f"{name}::{case.name}"] = case.case_id
    files.update(_human_files(groups, sources))
    for rel, group in groups.items():
        nodeids.update({f"{rel}::{case.node_name}": case.case_id for case in group})
    return files, nodeids


def shipped_files(accepted: list[TestCase], sources: SuiteSources) -> dict[str, str]:
    """relative path (inside tests/) -> text of an output task's accepted suite."""
    by_file: dict[str, list[TestCase]] = defaultdict(list)
    for case in sorted(accepted, key=lambda c: (CATEGORIES.index(c.category), c.name)):
        by_file[case_file(case)].append(case)
    files = {"conftest.py": sources.conftest}
    human = {n: cs for n, cs in sorted(by_file.items()) if n.startswith("existing/")}
    files.update({n: module_source(cs) for n, cs in sorted(by_file.items()) if n not in human})
    files.update(_human_files(human, sources))
    return dict(sorted(files.items()))


def write_files(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
