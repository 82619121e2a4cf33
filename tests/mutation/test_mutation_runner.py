"""End to end on a tiny stdlib oracle: a body-checking test kills strictly more mutants."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from pipeline.execution import live_groups
from pipeline.mutation import mutation_report
from pipeline.mutation.operators import Mutant
from pipeline.mutation.runner import Settings, run_mutant

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
    return {p.name for p in Path(tempfile.gettempdir()).glob("repogenesis-mutation-*")}


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
