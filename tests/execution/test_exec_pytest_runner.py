"""run_pytest: per-test outcomes, collection errors, timeouts that leave nothing behind."""

from __future__ import annotations

import textwrap
import time

import pytest
from exec_helpers import ENV_BIN, make_oracle, pid_alive, wait_file

from pipeline.execution import RunOptions, free_port, run_pytest, start_service
from pipeline.execution.process import live_groups

SUITE = '''
import json, os, urllib.request
import pytest

BASE = os.environ.get("SERVICE_BASE_URL", "http://localhost:1")

def get(path):
    with urllib.request.urlopen(BASE + path, timeout=5) as r:
        return r.status, json.loads(r.read())

def test_passes():
    assert get("/items/7") == (200, {"path": "/items/7", "ok": True})

def test_fails():
    print("captured-print-from-failing-test")
    status, body = get("/items/8")
    assert body["path"] == "/items/999"

@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")

def test_errors(broken):
    pass

@pytest.mark.skip(reason="not today")
def test_skipped():
    pass

def test_no_secret_in_env():
    assert "OPENAI_API_KEY" not in os.environ
    assert os.environ["HOME"] != os.environ.get("REAL_HOME_MARKER")
'''


def _write(folder, name, text):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(textwrap.dedent(text))
    return folder / name


@pytest.fixture
def service(tmp_path):
    oracle = make_oracle(tmp_path / "task")
    with start_service(oracle, free_port(), ENV_BIN, 20) as svc:
        yield svc


def test_outcomes_per_test(tmp_path, service, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-parent-secret")
    target = _write(tmp_path / "tests", "test_api.py", SUITE)
    run = run_pytest(target, service.base_url, timeout_s=60)
    got = {t.nodeid: t.outcome for t in run.tests}
    assert got == {
        "test_api.py::test_passes": "passed",
        "test_api.py::test_fails": "failed",
        "test_api.py::test_errors": "error",
        "test_api.py::test_skipped": "skipped",
        "test_api.py::test_no_secret_in_env": "passed",
    }
    by_id = run.by_id()
    assert "/items/999" in by_id["test_api.py::test_fails"].output
    assert "captured-print-from-failing-test" in by_id["test_api.py::test_fails"].output
    assert "fixture exploded" in by_id["test_api.py::test_errors"].output
    assert "not today" in by_id["test_api.py::test_skipped"].output
    assert run.exit_code == 1 and not run.timed_out
    assert run.counts() == {"passed": 2, "failed": 1, "error": 1, "skipped": 1}
    assert "sk-fake-parent-secret" not in run.output_tail


def test_folder_with_collection_error_and_conftest(tmp_path, service):
    folder = tmp_path / "suite"
    _write(folder, "conftest.py", '''
        import os, pytest
        @pytest.fixture
        def base_url():
            return os.environ["SERVICE_BASE_URL"]
    ''')
    _write(folder, "test_good.py", '''
        def test_uses_conftest(base_url):
            assert base_url.startswith("http://127.0.0.1:")
    ''')
    _write(folder, "test_broken.py", "import not_a_module_zzz\n")
    run = run_pytest(folder, service.base_url, timeout_s=60)
    got = {t.nodeid: t.outcome for t in run.tests}
    assert got == {"test_good.py::test_uses_conftest": "passed", "test_broken.py": "error"}
    assert "not_a_module_zzz" in run.by_id()["test_broken.py"].output


HANGING = '''
import subprocess, sys, time
from pathlib import Path

def test_first():
    pass

def test_hangs():
    child = subprocess.Popen(["sleep", "600"])
    Path(__file__).with_name("child.pid").write_text(str(child.pid))
    time.sleep(600)

def test_never_reached():
    pass
'''


@pytest.mark.slow
def test_hanging_test_is_timed_out_and_killed(tmp_path, service):
    target = _write(tmp_path / "hang", "test_hang.py", HANGING)
    t0 = time.monotonic()
    run = run_pytest(target, service.base_url, timeout_s=4, options=RunOptions(grace_s=0.5))
    assert time.monotonic() - t0 < 15
    assert run.timed_out
    by_id = run.by_id()
    assert by_id["test_hang.py::test_first"].outcome == "passed"
    hung = by_id["test_hang.py::test_hangs"]
    assert hung.outcome == "error" and hung.timed_out and "timed out" in hung.output
    pending = by_id["test_hang.py::test_never_reached"]
    assert pending.outcome == "error" and "not run" in pending.output
    child = int(wait_file(target.with_name("child.pid")))
    assert not pid_alive(child)
    assert live_groups() == [service.pid]  # only the service (killed by the fixture) remains


def test_output_is_capped(tmp_path, service):
    target = _write(tmp_path / "big", "test_big.py", '''
        def test_loud():
            print("x" * 200_000)
            assert False
    ''')
    run = run_pytest(target, service.base_url, timeout_s=60)
    (only,) = run.tests
    assert only.outcome == "failed"
    assert len(only.output) < 5000 and "characters cut" in only.output


def test_pytest_usage_error_is_reported(tmp_path, service):
    target = _write(tmp_path / "u", "test_u.py", "def test_a():\n    pass\n")
    run = run_pytest(target, service.base_url, timeout_s=60, extra_args=["--no-such-option"])
    assert run.exit_code == 4
    assert [t.outcome for t in run.tests] == ["error"]
    assert "no-such-option" in run.tests[0].output


def test_missing_target(tmp_path):
    with pytest.raises(FileNotFoundError):
        run_pytest(tmp_path / "nope", "http://127.0.0.1:1", timeout_s=5)
