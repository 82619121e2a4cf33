"""Human-written test files run as their authors ran them: each file against its own fresh
service, in file order, in the build's execution gate, the published-suite check and
`evaluate` alike (`pipeline.suite_runs`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pipeline.execution import run_pytest, start_service
from pipeline.execution.ports import free_port
from pipeline.records import TestCase
from pipeline.stages.execute import execute_cases
from pipeline.stages.limits import RunLimits
from pipeline.stages.published_check import failing_cases, oracle_runner
from pipeline.suite_runs import merge_runs, run_groups, suite_groups
from pipeline.suites import SuiteSources, shipped_files, write_files

CONFTEST = '''import os

import pytest


@pytest.fixture
def base_url():
    return os.environ["SERVICE_BASE_URL"]
'''

# A store in memory: a fresh start is empty, every POST adds one item.
ORACLE = '''import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ITEMS = []


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        self.reply(200, ITEMS)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        ITEMS.append(body["name"])
        self.reply(201, {"name": body["name"]})

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("0.0.0.0", int(os.environ["PORT"])), Handler).serve_forever()
'''

PRELUDE = "import requests\n"
# Upstream style: the list is empty before this file's own writes, then grows by its writes.
HUMAN = {
    "test_items_api": [
        ("test_list_empty", 'assert requests.get(f"{base_url}/items", timeout=5).json() == []'),
        ("test_add_then_list",
         'requests.post(f"{base_url}/items", json={"name": "a"}, timeout=5)\n'
         'assert requests.get(f"{base_url}/items", timeout=5).json() == ["a"]'),
    ],
    "test_more_api": [
        ("test_starts_empty", 'assert requests.get(f"{base_url}/items", timeout=5).json() == []'),
    ],
}


def _fn(name: str, body: str, args: str = "base_url") -> str:
    return f"def {name}({args}):\n" + "".join(f"    {ln}\n" for ln in body.splitlines())


def _cases() -> list[TestCase]:
    generated = TestCase(case_id="tiny::test_post_adds", task_id="tiny", round=0,
                         category="api_compliance", name="test_post_adds",
                         code=_fn("test_post_adds",
                                  'r = session.post(f"{base_url}/items", json={"name": "g"})\n'
                                  'assert r.status_code == 201 and r.json() == {"name": "g"}',
                                  "base_url, session"),
                         endpoints=["POST /items"])
    human = [TestCase(case_id=f"tiny::{module}::{name}", task_id="tiny", round=0,
                      category="api_compliance", name=name, code=_fn(name, body),
                      origin="existing", author="human", prelude=PRELUDE, module=module)
             for module, tests in HUMAN.items() for name, body in tests]
    return [generated, *human]


SHARED = CONFTEST + '''

@pytest.fixture
def session():
    import requests
    return requests.Session()
'''
# the order the human files hold their tests (`existing_order` reads it from data/raw)
ORDER = tuple(f"{module}::{name}" for module, tests in HUMAN.items() for name, _ in tests)
SOURCES = SuiteSources(SHARED, existing_conftest=CONFTEST, human_order=ORDER)


def _oracle(root: Path) -> Path:
    oracle = root / "oracle"
    oracle.mkdir(parents=True)
    (oracle / "app.py").write_text(ORACLE)
    start = oracle / "start.sh"
    start.write_text('#!/bin/sh\ncd "$(dirname "$0")"\nexec python3 app.py\n')
    start.chmod(0o755)
    return oracle


def test_a_suite_runs_in_groups_generated_first_then_each_human_file(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_files(suite, shipped_files(_cases(), SOURCES))
    groups = suite_groups(suite)
    assert len(groups) == 3  # the generated tests, then one group per human file, by name
    existing = suite.resolve() / "existing"
    assert groups[0] == (f"--ignore={existing}",)
    top = f"--ignore={suite.resolve() / 'test_api_compliance.py'}"
    assert groups[1] == (top, f"--ignore={existing / 'test_more_api.py'}")
    assert groups[2] == (top, f"--ignore={existing / 'test_items_api.py'}")
    # a suite without human files is one run, as before
    plain = tmp_path / "plain"
    write_files(plain, shipped_files(_cases()[:1], SOURCES))
    assert suite_groups(plain) == [()]
    # only human files: no empty run of the generated part
    only = tmp_path / "only"
    write_files(only, shipped_files(_cases()[1:], SOURCES))
    assert len(suite_groups(only)) == 2


def test_human_files_keep_their_tests_in_file_order(tmp_path: Path) -> None:
    from pipeline.stages.existing import existing_order

    raw = tmp_path / "tests"
    raw.mkdir()
    for module, tests in HUMAN.items():
        (raw / f"{module}.py").write_text(PRELUDE + "\n\n" + "\n\n".join(
            _fn(name, body) for name, body in tests))
    assert existing_order(raw) == ORDER
    text = shipped_files(_cases(), SOURCES)["existing/test_items_api.py"]
    assert text.index("def test_list_empty") < text.index("def test_add_then_list")
    # the store hands cases over sorted by id; without the order they would run by name
    unordered = shipped_files(_cases(), SuiteSources(SHARED, CONFTEST))
    text = unordered["existing/test_items_api.py"]
    assert text.index("def test_add_then_list") < text.index("def test_list_empty")


def test_each_group_collects_only_its_own_tests(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_files(suite, shipped_files(_cases(), SOURCES))
    # no service: every test fails, but each group reports exactly the tests it selected
    runs = run_groups(suite, lambda g: run_pytest(suite, "http://127.0.0.1:9", 120,
                                                  extra_args=("--timeout=5", *g)))
    assert [sorted(t.nodeid for t in r.tests) for r in runs] == [
        ["test_api_compliance.py::test_post_adds"],
        ["existing/test_items_api.py::test_add_then_list",
         "existing/test_items_api.py::test_list_empty"],
        ["existing/test_more_api.py::test_starts_empty"],
    ]
    merged = merge_runs(runs)
    assert len(merged.tests) == 4 and merged.exit_code == 1
    assert merged.duration_s == pytest.approx(sum(r.duration_s for r in runs), abs=0.01)


@pytest.mark.slow
def test_state_dependent_human_files_pass_as_their_authors_ran_them(tmp_path: Path) -> None:
    oracle = _oracle(tmp_path)
    env_bin = Path(sys.executable).parent
    cases = _cases()
    suite = tmp_path / "suite"
    write_files(suite, shipped_files(cases, SOURCES))
    # control: the whole folder against one service fails the second file's empty list
    with start_service(oracle, free_port(), env_bin, 30) as service:
        together = run_pytest(suite, service.base_url, 120).by_id()
    assert together["existing/test_more_api.py::test_starts_empty"].outcome == "failed"
    # the build's execution gate: every case passes in both runs (one reversed)
    evidence = execute_cases(oracle, env_bin, cases, SOURCES, RunLimits(runs=2))
    assert {e.case_id: e.passed for e in evidence} == {c.case_id: True for c in cases}
    # the published-suite check runs the shipped files the same way: nothing fails
    limits = RunLimits(runs=1)
    assert failing_cases(cases, SOURCES, oracle_runner(oracle, env_bin, limits)) == {}


@pytest.mark.slow
def test_evaluate_runs_the_published_human_files_as_their_authors_ran_them(
        tmp_path: Path) -> None:
    from pipeline.evaluate import evaluate_candidate

    oracle = _oracle(tmp_path)
    cases = _cases()
    task = tmp_path / "task"
    write_files(task / "tests", shipped_files(cases, SOURCES))
    from pipeline.suites import case_file
    (task / "task.json").write_text(json.dumps({
        "id": "tiny", "language": "python", "port": free_port(),
        "endpoints": [{"method": "GET", "path": "/items"}, {"method": "POST", "path": "/items"}],
        "test_cases": [{"id": c.case_id, "name": c.name, "file": f"tests/{case_file(c)}"}
                       for c in cases]}))
    result = evaluate_candidate(task, oracle, cache_dir=tmp_path / "cache")
    assert result["dsr"] is True
    assert {t["id"]: t["outcome"] for t in result["tests"]} == \
        {c.case_id: "passed" for c in cases}
    assert result["pass_at_1"] == 1


def test_a_raw_tests_folder_runs_file_by_file(tmp_path: Path) -> None:
    from pipeline.suite_runs import file_groups

    raw = tmp_path / "tests"
    (raw / "sub").mkdir(parents=True)
    for name in ("conftest.py", "test_b.py", "test_a.py", "sub/test_c.py", "helpers.py"):
        (raw / name).write_text("")
    a, b, c = (raw.resolve() / n for n in ("sub/test_c.py", "test_a.py", "test_b.py"))
    # the task's tests are tests/test_*.py (what the build imports); a nested file never runs
    assert file_groups(raw) == [(f"--ignore={a}", f"--ignore={c}"),
                                (f"--ignore={a}", f"--ignore={b}")]
    (raw / "test_a.py").unlink()
    assert file_groups(raw) == [(f"--ignore={a}",)]  # one file: the folder without sub/
    (raw / "test_b.py").unlink()
    assert file_groups(raw) == []
