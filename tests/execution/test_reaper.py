"""A pipeline killed with SIGKILL leaves its services behind; the next one ends them."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from pipeline.execution.reaper import orphans, reap_orphans

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
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    assert alive(child) and alive(grandchild)
    assert {child, grandchild} <= set(orphans())
    assert reap_orphans() >= 2
    deadline = time.monotonic() + 10
    while alive(child) or alive(grandchild):
        assert time.monotonic() < deadline, "orphans survived the reaper"
        time.sleep(0.05)
