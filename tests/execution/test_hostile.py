"""Hostile tests and services are contained by the sandbox, and the run reports what happened.

Each case writes an untrusted test file, runs it with `run_pytest` in the same sandbox as a
service (so it shares only that service's loopback), and checks from the outside that nothing
escaped. Nothing here sends traffic beyond 127.0.0.1: the network check looks at which
interfaces a sandboxed process can see, never at what it can reach.
"""

from __future__ import annotations

import os
import resource
import socket
import textwrap
import time
from pathlib import Path

import pytest
from exec_helpers import ENV_BIN, get_json, make_oracle, pid_alive, wait_file

import pipeline
from pipeline.execution import (
    RunOptions,
    Sandbox,
    SandboxPolicy,
    free_port,
    run_pytest,
    start_service,
)
from pipeline.execution.sandbox import sandbox_mode

pytestmark = pytest.mark.skipif(
    sandbox_mode()[0] != "isolated",
    reason=f"needs root and namespaces ({sandbox_mode()[1]})")

REPO = Path(pipeline.__file__).resolve().parents[1]


def _processes_mentioning(text: str) -> list[int]:
    """Live pids whose command line mentions `text`."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if text.encode() in cmd and pid_alive(int(entry)):
                out.append(int(entry))
    return out


@pytest.fixture
def sandbox():
    with Sandbox.create(SandboxPolicy(cpu_s=20, nproc=64, file_size_bytes=16 << 20,
                                      output_cap_bytes=1 << 20)) as sb:
        yield sb


@pytest.fixture
def service(tmp_path, sandbox):
    oracle = make_oracle(tmp_path / "task")
    with start_service(oracle, free_port(), ENV_BIN, 20,
                       options=RunOptions(sandbox=sandbox)) as svc:
        yield svc


def hostile(tmp_path: Path, service, body: str, timeout_s: float = 30, extra_args=(), **kw):
    suite = tmp_path / "suite"
    suite.mkdir(exist_ok=True)
    (suite / "test_hostile.py").write_text(textwrap.dedent(body))
    kw.setdefault("sandbox", service.sandbox)
    return run_pytest(suite, service.base_url, timeout_s, extra_args=extra_args,
                      options=RunOptions(**kw))


def test_writes_outside_the_sandbox_land_nowhere(tmp_path, service):
    marker = f"repogenesis-escape-{os.getpid()}-{time.monotonic_ns()}"
    targets = [Path("/tmp") / marker, REPO / marker, tmp_path / marker, Path("/root") / marker,
               Path("/var/tmp") / marker, Path("/dev/shm") / marker,
               Path(pipeline.__file__).parent / marker]
    run = hostile(tmp_path, service, f'''
        import os
        def test_escape():
            for target in {[str(t) for t in targets]!r}:
                try:
                    with open(target, "w") as fh:
                        fh.write("escaped")
                    print("wrote", target)  # e.g. its private /dev/shm: gone with it
                except OSError as exc:
                    print("denied", target, exc.strerror)
            home = os.path.join(os.environ["HOME"], "ok")
            open(home, "w").write("fine")  # its own HOME is writable
        ''')
    assert [t.outcome for t in run.tests] == ["passed"], run.tests
    assert not [t for t in targets if t.exists()]


def test_fork_bomb_is_bounded_and_leaves_nothing(tmp_path, service):
    run = hostile(tmp_path, service, '''
        import os, time
        from pathlib import Path
        def test_bomb():
            forks = 0
            try:
                while True:
                    if os.fork() == 0:
                        time.sleep(300)
                        os._exit(0)
                    forks += 1
            except OSError as exc:
                Path(__file__).with_name("forks.txt").write_text(f"{forks} {exc.errno}")
            while True:  # and now a real one
                try:
                    os.fork()
                except OSError:
                    pass
        ''', timeout_s=6, grace_s=0.5)
    forks, err = wait_file(tmp_path / "suite" / "forks.txt").split()
    assert int(forks) < 64 and int(err) == 11  # EAGAIN: RLIMIT_NPROC of the sandbox uid
    assert run.timed_out and run.tests[0].timed_out
    assert _processes_mentioning(str(tmp_path / "suite")) == []
    assert service.alive()  # the service (another uid) was not starved


def test_endless_loop_hits_the_cpu_limit(tmp_path, service):
    strict = SandboxPolicy(cpu_s=2)
    run = hostile(tmp_path, service, '''
        def test_spin():
            while True:
                pass
        ''', timeout_s=60, policy=strict)
    assert not run.timed_out and run.duration_s < 30
    assert any("CPU time limit" in note for note in run.limits_hit), run.limits_hit
    assert run.tests[0].outcome == "error"


def test_sleeping_forever_hits_the_wall_timeout(tmp_path, service):
    run = hostile(tmp_path, service, '''
        import time
        def test_sleep():
            time.sleep(1000)
        ''', timeout_s=3, grace_s=0.5)
    assert run.timed_out and run.duration_s < 15
    assert run.tests[0].timed_out


def test_a_gigabyte_of_output_is_capped(tmp_path, service):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run = hostile(tmp_path, service, '''
        import os
        def test_flood():
            chunk = b"x" * (1 << 20)
            for _ in range(1024):
                os.write(1, chunk)
        ''', extra_args=["-s"], timeout_s=120)
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert any("output capped" in note for note in run.limits_hit), run.limits_hit
    assert grown_kb < 100_000  # the pipeline streamed it, it did not hold it
    assert run.tests[0].outcome == "passed"


def test_a_gigabyte_into_a_file_hits_the_file_size_limit(tmp_path, service):
    run = hostile(tmp_path, service, '''
        import os
        def test_fill():
            with open(os.path.join(os.environ["TMPDIR"], "big"), "wb") as fh:
                for _ in range(1024):
                    fh.write(b"x" * (1 << 20))
        ''', timeout_s=60)
    assert run.tests[0].outcome in ("failed", "error")
    assert any("file size limit" in note for note in run.limits_hit) or \
        "File too large" in run.tests[0].output, (run.limits_hit, run.tests[0].output[-500:])


DETACH = '''
import os, subprocess, sys, time
from pathlib import Path
here = Path(__file__).parent
def test_detach():
    # setsid: its own session and group, outside the run's process group
    p = subprocess.Popen(["setsid", "sleep", "300"], start_new_session=True)
    (here / "setsid.pid").write_text(str(p.pid))
    # double fork, new session, and an environment without the owner marker
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            (here / "double.pid").write_text(str(os.getpid()))
            os.execve("/bin/sleep", ["sleep", "301"], {})
        os._exit(0)
    time.sleep(0.5)
'''


def test_detached_children_of_a_test_run_are_killed(tmp_path, service):
    run = hostile(tmp_path, service, DETACH)
    assert run.tests[0].outcome == "passed"
    pids = [int(wait_file(tmp_path / "suite" / f"{n}.pid")) for n in ("setsid", "double")]
    assert not [p for p in pids if pid_alive(p)]


def test_detached_children_of_a_service_are_killed(tmp_path):
    start = ("#!/bin/sh\n"
             "setsid sh -c 'echo $$ > detached.pid; exec env -i sleep 300' &\n"
             "exec python3 server.py\n")
    oracle = make_oracle(tmp_path / "task", start)
    with start_service(oracle, free_port(), ENV_BIN, 20) as svc:
        detached = int(wait_file(oracle / "detached.pid"))
        assert pid_alive(detached) and svc.alive()
    assert not pid_alive(detached)


def test_only_loopback_is_visible(tmp_path, service):
    run = hostile(tmp_path, service, '''
        import os, socket, json, urllib.request
        def test_interfaces():
            assert sorted(os.listdir("/sys/class/net")) == ["lo"]
            assert [name for _, name in socket.if_nameindex()] == ["lo"]
            devs = [l.split(":")[0].strip() for l in open("/proc/net/dev").readlines()[2:]]
            assert devs == ["lo"]
            # and the service is right there on the shared loopback
            with urllib.request.urlopen(os.environ["SERVICE_BASE_URL"] + "/ping") as r:
                assert json.loads(r.read())["path"] == "/ping"
        ''')
    assert [t.outcome for t in run.tests] == ["passed"], run.tests[0].output
    # the pipeline itself still reaches the service (through the loopback relay)
    assert get_json(service.base_url + "/from-host")["ok"] is True


def test_no_keys_in_the_environment(tmp_path, service, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-hostile-test-key")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "hostile-aws-secret")
    run = hostile(tmp_path, service, '''
        import os, glob
        def test_keys():
            leaked = [k for k in os.environ
                      if any(w in k for w in ("KEY", "SECRET", "TOKEN", "PASSWORD", "AWS"))]
            assert leaked == []
            # nor can it read the environment of the pipeline (or of anything not its own)
            for path in glob.glob("/proc/[0-9]*/environ"):
                try:
                    data = open(path, "rb").read()
                except OSError:
                    continue
                assert b"sk-hostile-test-key" not in data, path
        ''')
    assert [t.outcome for t in run.tests] == ["passed"], run.tests[0].output


def test_parallel_services_get_distinct_ports(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    def one(i: int) -> tuple[int, bool]:
        oracle = make_oracle(tmp_path / f"task{i}")
        with start_service(oracle, free_port(), ENV_BIN, 30) as svc:
            return svc.port, get_json(f"{svc.base_url}/s{i}")["path"] == f"/s{i}"

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(one, range(6)))
    assert len({port for port, _ in results}) == 6
    assert all(ok for _, ok in results)


def test_free_port_never_hands_out_a_port_twice():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        ports = list(pool.map(lambda _: free_port(), range(200)))
    assert len(set(ports)) == len(ports)
    with socket.socket() as s:  # and they are bindable
        s.bind(("127.0.0.1", ports[-1]))


def test_a_start_script_that_cannot_be_executed_is_reported_as_such(tmp_path):
    from pipeline.execution import ServiceError

    oracle = make_oracle(tmp_path / "task", "not a shebang\n")
    with pytest.raises(ServiceError) as info, \
            start_service(oracle, free_port(), ENV_BIN, 10):
        pass
    assert info.value.kind == "cannot_run", str(info.value)
    assert "check its first line" in str(info.value)
