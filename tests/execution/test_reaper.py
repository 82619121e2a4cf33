"""A pipeline killed with SIGKILL leaves its services behind; the next one ends them."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from pipeline.execution.process import scratch_prefix
from pipeline.execution.reaper import orphans, reap_orphans, stale_scratch

PARENT = textwrap.dedent("""\
    import sys, time
    from pathlib import Path
    from pipeline.execution import Launch, spawn
    out = Path(sys.argv[1])
    # a child that also detaches a grandchild into its own session
    sp = spawn(Launch(argv=["bash", "-c", "setsid sleep 300 & echo $! > " + str(out / "gc")
                            + "; exec sleep 300"], cwd=out, log_path=out / "log"))
    (out / "child").write_text(str(sp.pid))
    time.sleep(300)
    """)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_orphans_of_a_killed_pipeline_are_reaped(tmp_path: Path) -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path)],
                              start_new_session=True)
    deadline = time.monotonic() + 30
    while not ((tmp_path / "child").exists() and (tmp_path / "gc").exists()):
        assert time.monotonic() < deadline, "parent never started its child"
        time.sleep(0.05)
    child = int((tmp_path / "child").read_text())
    grandchild = int((tmp_path / "gc").read_text())
    assert child not in orphans()  # its owner is alive: not ours to kill
    left = [p for p in Path(tempfile.gettempdir()).glob(f"repogenesis-run-{parent.pid}_*")]
    assert len(left) == 1 and left[0] not in stale_scratch()  # the child's HOME and TMPDIR
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    assert alive(child) and alive(grandchild)
    assert {child, grandchild} <= set(orphans())
    assert left[0] in stale_scratch()
    mine = Path(tempfile.mkdtemp(prefix=scratch_prefix("run")))  # a live owner's: kept
    try:
        assert reap_orphans() >= 2
        assert not left[0].exists() and mine.is_dir()
    finally:
        shutil.rmtree(mine, ignore_errors=True)
    deadline = time.monotonic() + 10
    while alive(child) or alive(grandchild):
        assert time.monotonic() < deadline, "orphans survived the reaper"
        time.sleep(0.05)


SANDBOXED_PARENT = textwrap.dedent("""\
    import sys, time
    from pathlib import Path
    from pipeline.execution import start_service
    from pipeline.execution.ports import free_port
    oracle = Path(sys.argv[1])
    with start_service(oracle, free_port(), Path(sys.executable).parent, 20) as svc:
        (oracle / "service.pid").write_text(str(svc.pid))
        time.sleep(300)
    """)
# The detached child also clears its environment: no owner marker left to find it by.
DETACHING_START = ("#!/bin/sh\n"
                   "setsid sh -c 'echo $$ > detached.pid; exec env -i sleep 300' &\n"
                   "exec python3 server.py\n")


def test_sandboxed_orphans_are_reaped_even_without_the_marker(tmp_path: Path) -> None:
    from exec_helpers import make_oracle, wait_file

    from pipeline.execution.sandbox import sandbox_mode
    from pipeline.execution.uids import sandbox_uid_of

    oracle = make_oracle(tmp_path / "task", DETACHING_START)
    parent = subprocess.Popen([sys.executable, "-c", SANDBOXED_PARENT, str(oracle)],
                              start_new_session=True)
    try:
        service = int(wait_file(oracle / "service.pid", 30))
        detached = int(wait_file(oracle / "detached.pid", 30))
    finally:
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
    assert alive(service) and alive(detached)
    if sandbox_mode()[0] == "isolated":
        assert sandbox_uid_of(detached) is not None
        assert b"REPOGENESIS_OWNER" not in Path(f"/proc/{detached}/environ").read_bytes()
    netns = os.readlink(f"/proc/{service}/ns/net")
    assert {service, detached} <= set(orphans())
    reap_orphans()
    deadline = time.monotonic() + 10
    while alive(service) or alive(detached):
        assert time.monotonic() < deadline, "orphans survived the reaper"
        time.sleep(0.05)
    assert orphans() == []
    # nothing is left in the service's network namespace either
    left = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "ns/net") == netns and alive(int(entry.name)):
                    left.append(int(entry.name))
            except OSError:
                continue
    assert left == [] or netns == os.readlink("/proc/self/ns/net")
