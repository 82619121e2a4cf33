"""Run a pytest file or folder against a service in a subprocess and report per-test outcomes.

The tests are untrusted: they run in their own process group with a scrubbed environment
(`SERVICE_BASE_URL` set) and a wall timeout after which the whole group is killed. Results come
from two sources: the junit XML pytest writes at the end of a run (standard, with messages and
captured output), and a tiny plugin that appends one JSON line per event as it happens, so a run
that is killed still tells which tests finished, which one hung and which never ran.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from .process import Launch, scratch_prefix, spawned, tail_file
from .sandbox import RunOptions, Sandbox, SandboxPolicy, published, writable_folders

Outcome = Literal["passed", "failed", "error", "skipped"]
OUTPUT_CAP = 4000
PYTEST_GRACE_S = 2.0  # between SIGTERM and SIGKILL of a test run
_RANK = {"passed": 0, "skipped": 1, "error": 2, "failed": 3}

_PLUGIN = '''
import json, os
_fh = open(os.environ["REPOGENESIS_PROGRESS"], "a", encoding="utf-8")
def _emit(**rec):
    _fh.write(json.dumps(rec) + "\\n"); _fh.flush()
def pytest_collection_modifyitems(session, config, items):
    for item in items:
        item.user_properties.append(("nodeid", item.nodeid))
    _emit(event="collected", nodeids=[item.nodeid for item in items])
def pytest_collectreport(report):
    if report.failed:
        _emit(event="collect_error", nodeid=report.nodeid or ".", text=str(report.longrepr))
def pytest_runtest_logstart(nodeid, location):
    _emit(event="start", nodeid=nodeid)
def pytest_runtest_logreport(report):
    text = ""
    if report.failed:
        text = "\\n".join([str(report.longrepr), report.capstdout, report.capstderr])
    elif report.skipped and isinstance(report.longrepr, tuple):
        text = str(report.longrepr[2])
    _emit(event="report", nodeid=report.nodeid, when=report.when, outcome=report.outcome,
          duration=report.duration, xfail=hasattr(report, "wasxfail"), text=text)
'''


@dataclass
class TestOutcome:
    """One test's result. `timed_out` marks tests the run's timeout cut short or never ran."""

    __test__ = False  # not a pytest test class

    nodeid: str
    outcome: Outcome
    output: str = ""
    duration_s: float = 0.0
    timed_out: bool = False


@dataclass
class TestRun:
    """A whole pytest run: per-test outcomes, exit code, timeout flag, last lines of output."""

    __test__ = False

    tests: list[TestOutcome] = field(default_factory=list)
    exit_code: int | None = None
    timed_out: bool = False
    duration_s: float = 0.0
    output_tail: str = ""
    #: Sandbox limits the run ran into ("output capped ...", "killed by SIGXCPU ...").
    limits_hit: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(("passed", "failed", "error", "skipped"), 0)
        for t in self.tests:
            out[t.outcome] += 1
        return out

    def by_id(self) -> dict[str, TestOutcome]:
        return {t.nodeid: t for t in self.tests}


def cap(text: str, limit: int = OUTPUT_CAP) -> str:
    """Keep the head and tail of long output (the error and its cause are usually there)."""
    text = text.strip()
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n... [{len(text) - limit} characters cut] ...\n{text[-half:]}"


def run_pytest(
    target: Path,
    base_url: str,
    timeout_s: float,
    python: str = sys.executable,
    extra_args: Sequence[str] = (),
    *,
    options: RunOptions | None = None,
) -> TestRun:
    """Run pytest on `target` (file or folder) with SERVICE_BASE_URL=`base_url`.

    The project's own pytest configuration is not applied (an empty ini file is passed) and
    collection errors do not stop the other files from running. The run is sandboxed with
    `options.policy`'s limits (default: the sandbox's): in `options.sandbox` if given, else in
    the sandbox of the service published on `base_url`'s port (see `start_service`), else in a
    fresh one relaying that loopback port to the host. The tests' folder is writable only if
    it lies under the system temp folder. `options.env` adds variables for the tests (the
    sandbox still scrubs keys and credentials).
    """
    options = options or RunOptions()
    sandbox, policy, env = options.sandbox, options.policy, options.env
    grace_s = PYTEST_GRACE_S if options.grace_s is None else options.grace_s
    target = target.resolve()
    if not target.exists():
        raise FileNotFoundError(f"no tests at {target}")
    root = target if target.is_dir() else target.parent
    work = Path(tempfile.mkdtemp(prefix=scratch_prefix("pytest")))
    try:
        (work / "_repogenesis_progress.py").write_text(_PLUGIN, encoding="utf-8")
        (work / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        junit, progress, log = work / "junit.xml", work / "progress.jsonl", work / "output.log"
        argv = [python, "-m", "pytest", str(target), "-p", "no:cacheprovider",
                "-p", "_repogenesis_progress", "-c", str(work / "pytest.ini"),
                "--rootdir", str(root), f"--junitxml={junit}", "-o", "junit_family=xunit1",
                "-o", "junit_logging=all",
                "--continue-on-collection-errors", "-q", *extra_args]
        run_env = {**(env or {}), "SERVICE_BASE_URL": base_url, "PYTHONPATH": str(work),
                   "REPOGENESIS_PROGRESS": str(progress)}
        launch = Launch(argv=argv, cwd=root, log_path=log, env=run_env)
        sb, own = _sandbox_for(sandbox, base_url)
        try:
            policy = policy or sb.policy
            launch = sb.prepare(launch, writable_folders(work, root), policy)
            timeout_s = min(timeout_s, policy.wall_s)
            run = TestRun()
            started = time.monotonic()
            with spawned(launch, grace_s=grace_s) as sp:
                try:
                    run.exit_code = sp.proc.wait(timeout=timeout_s)
                except subprocess.TimeoutExpired:
                    run.timed_out = True
            # the group is dead here (spawned's exit killed it, detached processes too)
        finally:
            if own:
                sb.close()
        if run.timed_out:
            run.exit_code = sp.proc.returncode
        run.duration_s = round(time.monotonic() - started, 3)
        run.limits_hit = _limits_hit(run, sp.output_dropped, policy, timeout_s)
        run.output_tail = "\n".join([*tail_file(log, 40), *run.limits_hit])
        run.tests = _collect_outcomes(junit, progress, run, timeout_s)
        return run
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _sandbox_for(sandbox: Sandbox | None, base_url: str) -> tuple[Sandbox, bool]:
    """(the sandbox to run in, whether we own it and must close it)."""
    if sandbox is not None:
        return sandbox, False
    parts = urlsplit(base_url)
    try:
        port = parts.port
    except ValueError:
        port = None
    found = published(port)
    if found is not None:
        return found, False
    sb = Sandbox.create()
    if port is not None and parts.hostname in ("127.0.0.1", "localhost"):
        try:
            sb.reach_host(port)
        except OSError:
            sb.close()
            raise
    return sb, True


def _limits_hit(run: TestRun, dropped: int, policy: SandboxPolicy, timeout_s: float
                ) -> list[str]:
    out = []
    if run.timed_out:
        out.append(f"[sandbox] wall time limit: killed after {timeout_s:g}s")
    if dropped:
        out.append(f"[sandbox] output capped at {policy.output_cap_bytes} bytes "
                   f"({dropped} bytes dropped)")
    code = run.exit_code
    if code is not None and code < 0:
        why = {signal.SIGXCPU: f"CPU time limit ({policy.cpu_s}s)",
               signal.SIGXFSZ: f"file size limit ({policy.file_size_bytes} bytes)",
               signal.SIGKILL: "SIGKILL (CPU hard limit, memory or the wall timeout)",
               }.get(signal.Signals(-code), signal.Signals(-code).name)
        if not run.timed_out:
            out.append(f"[sandbox] pytest was killed: {why}")
    return out


def _collect_outcomes(junit: Path, progress: Path, run: TestRun, timeout_s: float
                      ) -> list[TestOutcome]:
    events = _read_events(progress)
    results = _from_events(events)
    results.update(_from_junit(junit))
    collected: list[str] = []
    started: set[str] = set()
    for ev in events:
        if ev["event"] == "collected":
            collected = list(ev["nodeids"])
        elif ev["event"] == "start":
            started.add(ev["nodeid"])
    if run.timed_out:
        why_running = f"timed out: the run was killed after {timeout_s:g}s while this test ran"
        why_pending = f"not run: the run was killed after {timeout_s:g}s (timeout)"
    else:
        why_running = f"did not finish: pytest exited with code {run.exit_code}"
        why_pending = f"not run: pytest exited with code {run.exit_code}"
    for nodeid in collected:
        if nodeid not in results:
            why = why_running if nodeid in started else why_pending
            results[nodeid] = TestOutcome(nodeid, "error", why, timed_out=run.timed_out)
    order = {n: i for i, n in enumerate(collected)}
    tests = sorted(results.values(), key=lambda t: (order.get(t.nodeid, -1), t.nodeid))
    if not tests and run.exit_code not in (0, 5):
        # pytest itself failed (usage error, crash in conftest, internal error...)
        what = "timed out" if run.timed_out else f"pytest exited with code {run.exit_code}"
        tests = [TestOutcome(".", "error", cap(f"{what}\n{run.output_tail}"),
                             timed_out=run.timed_out)]
    return tests


def _read_events(progress: Path) -> list[dict]:
    events = []
    try:
        lines = progress.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    for line in lines:
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by the kill
    return events


def _from_events(events: list[dict]) -> dict[str, TestOutcome]:
    """Finished tests (teardown reported) and collection errors from the progress stream."""
    partial: dict[str, TestOutcome] = {}
    done: dict[str, TestOutcome] = {}
    for ev in events:
        if ev["event"] == "collect_error":
            done[ev["nodeid"]] = TestOutcome(ev["nodeid"], "error",
                                             cap("collection error\n" + ev["text"]))
        elif ev["event"] == "report":
            nodeid = ev["nodeid"]
            t = partial.setdefault(nodeid, TestOutcome(nodeid, "passed"))
            t.duration_s += float(ev["duration"])
            phase = _phase_outcome(ev)
            if _RANK[phase] > _RANK[t.outcome]:
                t.outcome = phase
            if ev["text"]:
                t.output = cap(f"{t.output}\n[{ev['when']}] {ev['text']}")
            if ev["when"] == "teardown":
                done[nodeid] = partial.pop(nodeid)
    return done


def _phase_outcome(ev: dict) -> Outcome:
    if ev["outcome"] == "passed":
        return "passed"
    if ev["outcome"] == "skipped":
        return "skipped"
    return "failed" if ev["when"] == "call" else "error"


def _junit_case(case: ET.Element) -> tuple[Outcome, list[str]]:
    """One junit test case's worst outcome and its messages (with the captured output when it
    failed)."""
    outcome: Outcome = "passed"
    parts = []
    for tag in ("failure", "error", "skipped"):
        for el in case.findall(tag):
            candidate: Outcome = "failed" if tag == "failure" else tag  # type: ignore[assignment]
            if _RANK[candidate] > _RANK[outcome]:
                outcome = candidate
            parts.append(f"{el.get('message', '')}\n{el.text or ''}")
    for tag in ("system-out", "system-err") if outcome in ("failed", "error") else ():
        for el in case.findall(tag):
            if el.text and el.text.strip():
                parts.append(f"[{tag}]\n{el.text}")
    return outcome, parts


def _from_junit(junit: Path) -> dict[str, TestOutcome]:
    """Outcomes from pytest's junit XML (absent when the run was killed)."""
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError):
        return {}
    out: dict[str, TestOutcome] = {}
    for case in root.iter("testcase"):
        prop = case.find("properties/property[@name='nodeid']")
        if prop is None:
            continue  # collection errors: the progress stream has their real node id
        nodeid = prop.get("value", "")
        outcome, parts = _junit_case(case)
        prev = out.get(nodeid)
        if prev is not None:  # a teardown error after a failure gets a second element
            parts.insert(0, prev.output)
            if _RANK[prev.outcome] > _RANK[outcome]:
                outcome = prev.outcome
        output = cap("\n".join(p.strip() for p in parts if p.strip()))
        out[nodeid] = TestOutcome(nodeid, outcome, output, float(case.get("time", 0) or 0))
    return out
