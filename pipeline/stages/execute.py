"""Execution gate: run a round's test cases against fresh oracles and keep the evidence.

Each case runs twice, each time against a freshly started oracle, the second time in reverse
order, so a test that depends on leftover state or on its neighbours shows up as unstable.
Human-written files run as their authors ran them: each against its own fresh oracle, in file
order both times (`suite_runs`).
The requests every test sent are logged by a hook appended to the execution copy of the
conftest (the shipped conftest stays clean).
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from pipeline.execution import ServiceError, run_pytest, scratch_prefix, start_service
from pipeline.execution.budget import cpu_slot
from pipeline.execution.ports import free_port
from pipeline.execution.pytest_runner import TestOutcome, TestRun
from pipeline.records import Evidence, RunResult, TestCase
from pipeline.stages.limits import RunLimits
from pipeline.suite_runs import Group, merge_runs, run_groups
from pipeline.suites import SuiteSources, execution_files, write_files

REQUEST_LOG = "_repogenesis_requests.jsonl"
REVERSE_FLAG = "_repogenesis_reverse"
OUTPUT_LIMIT = 3000

EXEC_HOOKS = '''

# --- added by the execution gate (not shipped) ---
import json as _rg_json
import os as _rg_os
import socket as _rg_socket
from urllib.parse import urlsplit as _rg_urlsplit

import requests as _rg_requests

_RG_DIR = _rg_os.path.dirname(_rg_os.path.abspath(__file__))
_RG_CURRENT = {"nodeid": None, "phase": None}
_rg_send = _rg_requests.Session.send


def _rg_logged_send(self, request, **kwargs):
    try:
        with open(_rg_os.path.join(_RG_DIR, "__LOG__"), "a", encoding="utf-8") as fh:
            fh.write(_rg_json.dumps({"nodeid": _RG_CURRENT["nodeid"],
                                     "phase": _RG_CURRENT["phase"], "method": request.method,
                                     "path": _rg_urlsplit(request.url).path}) + "\\n")
    except OSError:
        pass
    return _rg_send(self, request, **kwargs)


_rg_requests.Session.send = _rg_logged_send


_RG_COVER = _rg_os.environ.get("REPOGENESIS_COVER_PORT")


def _rg_cover(command):
    """Tell a measured service (see pipeline.mutation.cover) which test runs, or to write."""
    if not _RG_COVER:
        return
    try:
        with _rg_socket.create_connection(("127.0.0.1", int(_RG_COVER)), timeout=10) as conn:
            conn.sendall((command + "\\n").encode())
            conn.recv(16)
    except OSError:
        pass


def _rg_phase(item, phase):
    _RG_CURRENT["nodeid"], _RG_CURRENT["phase"] = item.nodeid, phase
    _rg_cover(f"switch {phase}:{item.nodeid}")


def pytest_runtest_setup(item):
    _rg_phase(item, "setup")


def pytest_runtest_call(item):
    _rg_phase(item, "call")


def pytest_runtest_teardown(item):
    _rg_phase(item, "teardown")


def pytest_sessionfinish(session):
    _rg_cover("write")


def pytest_collection_modifyitems(config, items):
    # human-written files run in file order, as their authors ran them (see suite_runs)
    if _rg_os.path.exists(_rg_os.path.join(_RG_DIR, "__FLAG__")) and not any(
            item.nodeid.startswith("existing/") for item in items):
        items.reverse()
'''.replace("__LOG__", REQUEST_LOG).replace("__FLAG__", REVERSE_FLAG)


def write_suite(suite: Path, cases: list[TestCase], sources: SuiteSources) -> dict[str, str]:
    """Write the execution suite (one module per case, request log hooks in the conftest);
    return nodeid -> case_id."""
    files, nodeids = execution_files(cases, sources.with_hooks(EXEC_HOOKS))
    write_files(suite, files)
    return nodeids


def _requests_by_test(log: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if not log.is_file():
        return out
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        # a parametrized test logs as "test_x.py::test_y[rock]"; the case is "test_x.py::test_y"
        nodeid = re.sub(r"\[[^\]]*\]$", "", rec.get("nodeid") or "")
        seen = out.setdefault(nodeid, [])
        entry = f"{rec.get('method')} {rec.get('path')}"
        if entry not in seen:
            seen.append(entry)
    return out


def execute_cases(
    oracle_dir: Path,
    env_bin: Path | None,
    cases: list[TestCase],
    sources: SuiteSources,
    limits: RunLimits,
) -> list[Evidence]:
    """Run `cases` `limits.runs` times on fresh oracles; raises ServiceError if the oracle
    fails."""
    if not cases:
        return []
    results: dict[str, list[RunResult]] = {c.case_id: [] for c in cases}
    sent: dict[str, list[str]] = {c.case_id: [] for c in cases}
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("suite")) as tmp:
        suite = Path(tmp)
        nodeids = write_suite(suite, cases, sources)
        for run_index in range(limits.runs):
            flag = suite / REVERSE_FLAG
            if run_index % 2 == 1:
                flag.touch()
            else:
                flag.unlink(missing_ok=True)
            log = suite / REQUEST_LOG
            log.unlink(missing_ok=True)
            run = merge_runs(run_groups(suite, lambda group: run_group_on(
                oracle_dir, env_bin, suite, group, limits)))
            outcomes = run.by_id()
            for nodeid, case_id in nodeids.items():
                results[case_id].append(run_result(outcome_of(nodeid, outcomes), run.timed_out))
            if run_index == 0:
                for nodeid, entries in _requests_by_test(log).items():
                    if nodeid in nodeids:
                        sent[nodeids[nodeid]] = entries
    return [
        Evidence(case_id=c.case_id, round=c.round, runs=results[c.case_id],
                 requests=sent[c.case_id])
        for c in cases
    ]


def run_group_on(oracle_dir: Path, env_bin: Path | None, suite: Path, group: Group,
               limits: RunLimits, role: str = "the oracle") -> TestRun:
    """One group of the suite (see `suite_runs`) against a freshly started service
    (`oracle_dir`: the oracle, or an alternative named by `role`)."""
    # The slot first, then the port: a port is reserved for a while only, and the
    # wait for a slot under `build --jobs N` can be longer.
    with cpu_slot(), start_service(oracle_dir, free_port(), env_bin,
                                   startup_timeout_s=limits.startup_timeout_s) as service:
        # pytest-timeout fails a hanging case alone; the wall timeout is the backstop.
        run = run_pytest(suite, service.base_url, limits.test_timeout_s,
                         extra_args=(f"--timeout={limits.case_timeout_s:g}", *group))
        if not service.alive():
            last = (service.tail(1) or ["(no output)"])[-1][:200]
            raise ServiceError(
                f"{oracle_dir / 'start.sh'}: {role} exited while the tests ran "
                f"(last log line: {last!r}); fix it so it keeps serving",
                kind="died", path=oracle_dir / "start.sh",
            )
    return run


_WORST_FIRST = ("failed", "error", "skipped", "passed")


def outcome_of(nodeid: str, outcomes: dict[str, TestOutcome]) -> TestOutcome | None:
    """A case's outcome. A parametrised test runs as `name[...]` instances, none of which is
    named like the case: they combine, the worst outcome wins (one failing instance fails it)."""
    if nodeid in outcomes:
        return outcomes[nodeid]
    parts = [o for key, o in outcomes.items() if key.startswith(nodeid + "[")]
    if not parts:
        return None
    worst = min(parts, key=lambda o: _WORST_FIRST.index(o.outcome))
    return TestOutcome(
        nodeid=nodeid, outcome=worst.outcome,
        output="\n".join(f"{o.nodeid}: {o.output}" for o in parts if o.output),
        duration_s=sum(o.duration_s for o in parts),
        timed_out=any(o.timed_out for o in parts),
    )


def run_result(outcome, run_timed_out: bool) -> RunResult:
    if outcome is None:
        status = "timeout" if run_timed_out else "error"
        why = "the run timed out before this test finished" if run_timed_out else \
            "the test was not collected (syntax or import error in its module)"
        return RunResult(outcome=status, output=why)
    status = "timeout" if getattr(outcome, "timed_out", False) else outcome.outcome
    return RunResult(outcome=status, output=(outcome.output or "")[-OUTPUT_LIMIT:],
                     duration_s=round(outcome.duration_s, 3))
