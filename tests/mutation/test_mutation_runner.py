"""End to end on a tiny stdlib oracle: a body-checking test kills strictly more mutants, and a
build round stores each case's kills as its evidence."""

from __future__ import annotations

import ast
import os
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from pipeline.execution import live_groups
from pipeline.mutation import mutation_report
from pipeline.mutation.operators import Mutant
from pipeline.mutation.runner import Settings, run_mutant
from pipeline.offline.conftest_template import conftest_source
from pipeline.records import Evidence, RunResult, TestCase
from pipeline.spec import load_spec
from pipeline.stages.limits import RunLimits
from pipeline.stages.mutate import RoundLedger, mutate_round, round_reports, suite_mutation
from pipeline.store import Store
from pipeline.suites import SuiteSources
from pipeline.tasks import load_task

ORACLE = '''import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ITEMS = {1: {"name": "apple", "price": 3, "tags": ["fruit"]}}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "items":
            if not parts[1].isdigit():
                return self.reply(400, {"error": "bad_id"})
            item = ITEMS.get(int(parts[1]))
            if item is None:
                return self.reply(404, {"error": "not_found"})
            body = {"id": int(parts[1]), "name": item["name"], "price": item["price"]}
            body["in_stock"] = item["price"] > 0
            return self.reply(200, body)
        return self.reply(404, {"error": "not_found"})

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

CONFTEST = '''import os

import pytest


@pytest.fixture
def base_url():
    return os.environ["SERVICE_BASE_URL"]
'''

TESTS = '''import requests


def test_status_only(base_url):
    assert requests.get(f"{base_url}/items/1", timeout=5).status_code == 200
    assert requests.get(f"{base_url}/items/9", timeout=5).status_code == 404


def test_with_body(base_url):
    ok = requests.get(f"{base_url}/items/1", timeout=5)
    assert ok.status_code == 200
    assert ok.json() == {"id": 1, "name": "apple", "price": 3, "in_stock": True}
    missing = requests.get(f"{base_url}/items/9", timeout=5)
    assert missing.status_code == 404
    assert missing.json() == {"error": "not_found"}


def test_wrong_on_the_oracle(base_url):
    assert requests.get(f"{base_url}/items/1", timeout=5).status_code == 418
'''


def _task(root: Path) -> tuple[Path, Path]:
    task = root / "tiny"
    oracle = task / "oracle"
    oracle.mkdir(parents=True)
    (task / "task.toml").write_text(
        'id = "tiny"\nlanguage = "python"\nframework = "stdlib"\ndomain = "demo"\n'
        'source = "expert"\nport = 8999\n')
    (task / "README.md").write_text("# tiny\n")
    (oracle / "app.py").write_text(ORACLE)
    start = oracle / "start.sh"
    start.write_text('#!/bin/sh\ncd "$(dirname "$0")"\nexec python3 app.py\n')
    start.chmod(0o755)
    suite = root / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(CONFTEST)
    (suite / "test_items.py").write_text(TESTS)
    return task, suite


def _leftovers() -> set[str]:
    """Temporary folders this process owns (see `scratch_prefix`)."""
    return {p.name for p in Path(tempfile.gettempdir()).glob(f"repogenesis-*-{os.getpid()}_*")}


@pytest.mark.slow
def test_body_checking_test_kills_strictly_more_mutants(tmp_path):
    task, suite = _task(tmp_path)
    before = _leftovers()
    cases = {"test_items.py::test_status_only": "tiny::status",
             "test_items.py::test_with_body": "tiny::body"}
    report = mutation_report(task, suite, cases, cap=30, jobs=2,
                             env_bin=Path(sys.executable).parent)
    per = report["per_test"]
    status_kills, body_kills = set(per["tiny::status"]["killed"]), set(per["tiny::body"]["killed"])
    assert status_kills < body_kills  # strictly more, and every status kill too
    assert per["tiny::body"]["score"] > per["tiny::status"]["score"]
    # the test failing on the unmutated oracle gets no credit
    wrong = per["test_items.py::test_wrong_on_the_oracle"]
    assert wrong["score"] is None and wrong["killed"] == []
    assert report["valid"] > 10 and report["score"] == per["tiny::body"]["score"]
    assert report["baseline"] == report["baseline"] | {"passed": 2, "tests": 3}
    kinds = {d["operator"] for d in report["mutants_detail"] if "tiny::body" in d["killed_by"]}
    assert {"status_code", "constant", "comparison", "statement"} <= kinds
    assert live_groups() == []  # every service and test run was stopped
    assert _leftovers() <= before  # and every temporary folder removed


@pytest.mark.slow
def test_a_mutant_that_cannot_start_is_stillborn(tmp_path):
    task, suite = _task(tmp_path)
    broken = Mutant(id="app.py:1:statement:1", file="app.py", line=1, operator="statement",
                    description="", source="raise SystemExit(3)\n")
    settings = Settings("python", Path(sys.executable).parent, suite, startup_timeout_s=10)
    work = tmp_path / "work"
    work.mkdir()
    result = run_mutant(broken, task / "oracle", settings, work)
    assert result.status == "stillborn" and "exited with code 3" in result.detail
    assert list(work.iterdir()) == []
    assert live_groups() == []


JAVA_ORACLE = '''import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;

public final class Tiny {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(System.getenv("PORT"));
        HttpServer server = HttpServer.create(new InetSocketAddress("0.0.0.0", port), 0);
        server.createContext("/", ex -> {
            byte[] body = "{}".getBytes();
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
    }
}
'''


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK")
def test_a_java_mutant_that_does_not_compile_is_invalid(tmp_path):
    oracle = tmp_path / "oracle"
    (oracle / "src").mkdir(parents=True)
    (oracle / "src" / "Tiny.java").write_text(JAVA_ORACLE)
    start = oracle / "start.sh"
    start.write_text('#!/bin/sh\nset -e\ncd "$(dirname "$0")"\nB="$(mktemp -d)"\n'
                     'javac -d "$B" src/Tiny.java\nexec java -cp "$B" Tiny\n')
    start.chmod(0o755)
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_ok.py").write_text("def test_ok():\n    pass\n")
    bad = Mutant(id="src/Tiny.java:10:boolean:1", file="src/Tiny.java", line=10,
                 operator="boolean", description="", source=JAVA_ORACLE.replace("200", "true"))
    work = tmp_path / "work"
    work.mkdir()
    result = run_mutant(bad, oracle, Settings("java", None, suite, startup_timeout_s=60), work)
    assert result.status == "invalid"
    assert live_groups() == []


# --- a build round: kills stored as evidence, merged into the suite's report -------------

EVIDENCE_README = textwrap.dedent("""\
    # Items

    ### GET /items/{id}

    Returns the item `{"id": 1, "name": "apple", "price": 3, "in_stock": true}` with `200`;
    `404` with `{"error": "not_found"}` when there is no such item.
    """)

def _functions(module: str) -> dict[str, str]:
    """Each top-level function of a test module, as a build case's code."""
    lines = module.splitlines(keepends=True)
    return {node.name: "".join(lines[node.lineno - 1:node.end_lineno])
            for node in ast.parse(module).body if isinstance(node, ast.FunctionDef)}


CODE = _functions(TESTS)  # status only, with body, wrong on the oracle


def _case(name: str) -> TestCase:
    return TestCase(case_id=f"tiny::{name}", task_id="tiny", round=0, category="api_compliance",
                    name=name, code=CODE[name].strip() + "\n", endpoints=["GET /items/{id}"])


def _evidence(case: TestCase, outcome: str) -> Evidence:
    return Evidence(case_id=case.case_id, round=0, runs=[RunResult(outcome=outcome)] * 2)


@pytest.mark.slow
def test_round_kills_are_stored_as_evidence_and_merge_into_the_suite(tmp_path: Path) -> None:
    task_dir, _ = _task(tmp_path)
    (task_dir / "README.md").write_text(EVIDENCE_README)
    task, spec = load_task(task_dir), load_spec(task_dir / "README.md")
    status, body, failing = (_case(n) for n in CODE)
    with Store.open(tmp_path / "state.db") as store:
        store.upsert_task("tiny", split="train", input_hash="h", state="running")
        for case in (status, body, failing):
            store.save_case(case)
        pairs = [(status, _evidence(status, "passed")), (body, _evidence(body, "passed")),
                 (failing, _evidence(failing, "failed"))]
        for _, ev in pairs:
            store.save_evidence(ev)

        def run(items):
            limits = RunLimits(mutation_cap=30, mutation_jobs=2, startup_timeout_s=20,
                               test_timeout_s=60)
            return mutate_round(task, items, SuiteSources(conftest_source(spec, 8999)), limits,
                                ledger=RoundLedger(store, "h"), env_bin=Path(sys.executable).parent)

        updated = run(pairs)
        assert [ev.case_id for ev in updated] == [status.case_id, body.case_id]
        weak = store.evidence_for(status.case_id, 0).mutation
        strong = store.evidence_for(body.case_id, 0).mutation
        assert store.evidence_for(failing.case_id, 0).mutation is None  # failed: not run
        assert weak is not None and strong is not None and weak.valid == strong.valid > 10
        assert set(weak.killed) < set(strong.killed)
        assert weak.unique == [] and set(strong.unique) == set(strong.killed) - set(weak.killed)
        assert strong.round_killed == len(strong.killed)
        # a resumed round finds the kills stored and runs nothing again
        again = [(c, store.evidence_for(c.case_id, 0)) for c in (status, body)]
        assert run(again) == []
        assert len(round_reports(store, "tiny", "h")) == 1

        suite = suite_mutation(store, "tiny", "h", [status, body])
        assert suite is not None and suite["killed"] == len(strong.killed)
        only_weak = suite_mutation(store, "tiny", "h", [status])
        assert only_weak["killed"] == len(weak.killed) < suite["killed"]
        assert only_weak["per_test"] == {status.case_id: {
            "killed": sorted(weak.killed), "score": round(len(weak.killed) / weak.valid, 4)}}
        assert suite_mutation(store, "tiny", "other-input", [status]) is None


def test_an_aborted_run_credits_every_test_not_just_the_first() -> None:
    from pipeline.execution import TestOutcome, TestRun
    from pipeline.mutation.runner import detected

    tests = [TestOutcome("t.py::a", "error", "service did not answer"),
             TestOutcome("t.py::b", "error", "not run: pytest exited with code 3")]
    assert detected(TestRun(tests=tests, exit_code=3)) == ["t.py::a", "t.py::b"]
    assert detected(TestRun(tests=tests, exit_code=1)) == ["t.py::a"]
    assert detected(TestRun(tests=tests, exit_code=3, timed_out=True)) == ["t.py::a"]
