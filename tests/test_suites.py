"""How cases become suite files (`pipeline.suites`) and the run-limits object."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipeline.records import TestCase
from pipeline.stages.limits import RunLimits
from pipeline.stages.split import write_task_output
from pipeline.suites import SuiteSources, execution_files, shipped_files


def _gen(name: str, category: str) -> TestCase:
    return TestCase(case_id=f"t::{name}", task_id="t", round=0, category=category, name=name,
                    code=f"def {name}(base_url):\n    assert base_url\n")


def _human(name: str, shell: str = "") -> TestCase:
    code = f"def {name}(self):\n    assert 1\n" if shell else f"def {name}():\n    assert 1\n"
    return TestCase(case_id=f"t::test_smoke::{name}", task_id="t", round=0,
                    category="api_compliance", name=name, code=code, origin="existing",
                    author="human", prelude="import requests\n", module="test_smoke",
                    test_class=shell)


SOURCES = SuiteSources("# shared\n", "# human conftest\n")
CASES = [_gen("test_b", "edge_case"), _gen("test_a", "api_compliance"), _human("test_h"),
         _human("test_m", "class TestOrders:\n    pass\n")]


def test_execution_suite_one_module_per_generated_case() -> None:
    files, nodeids = execution_files(CASES, SOURCES.with_hooks("# hooks\n"))
    assert files["conftest.py"] == "# shared\n# hooks\n"
    assert set(files) == {"conftest.py", "test_a.py", "test_b.py", "existing/test_smoke.py",
                          "existing/conftest.py"}
    assert files["existing/conftest.py"] == "# human conftest\n"
    assert nodeids == {"test_a.py::test_a": "t::test_a", "test_b.py::test_b": "t::test_b",
                       "existing/test_smoke.py::test_h": "t::test_smoke::test_h",
                       "existing/test_smoke.py::TestOrders::test_m": "t::test_smoke::test_m"}
    for text in files.values():
        ast.parse(text)
    assert "class TestOrders" in files["existing/test_smoke.py"]


def test_shipped_suite_groups_by_category_and_writes_the_same_files(tmp_path: Path) -> None:
    files = shipped_files(CASES, SOURCES)
    assert list(files) == sorted(files)
    assert set(files) == {"conftest.py", "test_api_compliance.py", "test_edge_case.py",
                          "existing/test_smoke.py", "existing/conftest.py"}
    assert "def test_a" in files["test_api_compliance.py"]
    readme = tmp_path / "README.md"
    readme.write_text("# r\n")
    out = tmp_path / "out" / "t"
    write_task_output(out, readme, SOURCES, CASES, {"id": "t"})
    written = {str(p.relative_to(out / "tests")): p.read_text() for p in
               (out / "tests").rglob("*.py")}
    assert written == files
    assert shipped_files(CASES[::-1], SOURCES) == files  # input order does not matter


def test_shipped_suite_without_human_cases_has_no_existing_folder() -> None:
    files = shipped_files(CASES[:2], SOURCES)
    assert not any(name.startswith("existing/") for name in files)


def test_run_limits_refuse_nonsense_with_the_fix() -> None:
    assert RunLimits().runs == 2
    with pytest.raises(ValueError, match="oracle_runs"):
        RunLimits(runs=0)
    with pytest.raises(ValueError, match="case_timeout_s"):
        RunLimits(case_timeout_s=0)


def test_a_module_keeps_the_longest_prelude_and_each_helper_once() -> None:
    from pipeline.offline.tolerant import PRELUDE, prelude_for
    from pipeline.suites import module_source

    plain = "def test_a(session):\n    assert record_in({}) == {}\n"
    token = "def test_b(session):\n    assert token_in({}) is None\n    record_in({})\n"
    only_token = "def test_c(session):\n    assert token_in({'key': 'k'}) == 'k'\n"
    assert prelude_for(plain) == PRELUDE and prelude_for("assert 1") == ""
    assert "def token_in(" in prelude_for(only_token) and "def record_in(" not in prelude_for(
        only_token)
    cases = [TestCase(case_id=f"t::{n}", task_id="t", round=0, category="api_compliance",
                      name=n, code=code, prelude=prelude_for(code))
             for n, code in (("test_a", plain), ("test_b", token), ("test_c", only_token))]
    source = module_source(cases)
    ast.parse(source)
    assert source.count("def record_in(") == 1 and source.count("def token_in(") == 1
