"""Process groups: scrubbed environment, group kill, and cleanup on every exit path."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from exec_helpers import pid_alive, wait_file

from pipeline.execution.process import (
    Launch,
    group_members,
    kill_group,
    live_groups,
    spawn,
    spawned,
)

REPO = Path(__file__).resolve().parents[2]


def test_scrubbed_env_hides_secrets(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-parent-secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "fake")
    monkeypatch.setenv("GITHUB_TOKEN", "fake")
    monkeypatch.setenv("SOMETHING_ELSE", "not-allow-listed")
    log = tmp_path / "env.log"
    code = "import os, json; print(json.dumps(dict(os.environ)))"
    launch = Launch([sys.executable, "-c", code], cwd=tmp_path, log_path=log, env={"PORT": "8123"})
    with spawned(launch) as sp:
        assert sp.proc.wait(timeout=30) == 0
        scratch = sp.scratch
    env = json.loads(log.read_text())
    assert "sk-fake-parent-secret" not in log.read_text()
    hidden = {"OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "SOMETHING_ELSE"}
    assert not hidden & set(env)
    assert env["PORT"] == "8123"
    assert env["HOME"].startswith(str(scratch)) and env["TMPDIR"].startswith(str(scratch))
    assert Path(env["HOME"]) != Path.home()
    assert not scratch.exists()  # scratch space removed with the group


def test_explicit_secret_is_refused(tmp_path):
    launch = Launch(["true"], cwd=tmp_path, log_path=tmp_path / "l", env={"ANTHROPIC_API_KEY": "x"})
    with pytest.raises(ValueError, match="ANTHROPIC_API_KEY"):
        spawn(launch)
    assert not live_groups()


def _grandchild_launch(tmp_path: Path, trap_term: bool = False) -> Launch:
    trap = "trap '' TERM\n" if trap_term else ""
    script = tmp_path / "run.sh"
    loop = "while :; do sleep 1; done"
    script.write_text(f"#!/bin/sh\n{trap}sleep 300 &\necho $! > gc.pid\n{loop}\n")
    script.chmod(0o755)
    return Launch([str(script)], cwd=tmp_path, log_path=tmp_path / "run.log")


def test_kill_group_kills_grandchildren(tmp_path):
    sp = spawn(_grandchild_launch(tmp_path))
    gc = int(wait_file(tmp_path / "gc.pid"))
    assert pid_alive(gc) and sp.pid in live_groups()
    kill_group(sp.proc, grace_s=2.0)
    assert not pid_alive(sp.pid) and not pid_alive(gc)
    assert group_members(sp.pid) == []
    assert sp.pid not in live_groups()
    sp.stop()  # idempotent


def test_kill_group_escalates_to_sigkill(tmp_path):
    sp = spawn(_grandchild_launch(tmp_path, trap_term=True))
    gc = int(wait_file(tmp_path / "gc.pid"))
    code = kill_group(sp.proc, grace_s=0.3)
    assert code == -signal.SIGKILL
    assert not pid_alive(gc)


def test_group_killed_when_block_raises(tmp_path):
    with pytest.raises(RuntimeError), spawned(_grandchild_launch(tmp_path)) as sp:
        gc = int(wait_file(tmp_path / "gc.pid"))
        raise RuntimeError("boom")
    assert not pid_alive(sp.pid) and not pid_alive(gc)


PIPELINE = """
import os, signal, sys, time
from pathlib import Path
sys.path.insert(0, {repo!r})
from pipeline.execution.process import Launch, spawn, spawned
tmp = Path({tmp!r})
script = tmp / "run.sh"
script.write_text("#!/bin/sh\\nsleep 300 &\\necho $! > gc.pid\\n"
                  "echo $$ > leader.pid\\nexec sleep 300\\n")
script.chmod(0o755)
launch = Launch([str(script)], cwd=tmp, log_path=tmp / "run.log")
mode = {mode!r}
def started():  # both pid files written (leader.pid last): the group is whole
    leader = tmp / "leader.pid"
    return leader.exists() and leader.read_text().strip() != ""
if mode == "atexit":
    spawn(launch)          # never stopped explicitly: atexit must kill it
    while not started(): time.sleep(0.01)
    sys.exit(0)
with spawned(launch):
    while not started(): time.sleep(0.01)
    (tmp / "ready").write_text("1")
    if mode == "sigint":
        os.kill(os.getpid(), signal.SIGINT)   # what Ctrl-C delivers
    time.sleep(300)        # the parent test sends SIGTERM meanwhile
"""


@pytest.mark.parametrize("mode", ["atexit", "sigint", "sigterm"])
def test_pipeline_exit_paths_kill_the_group(tmp_path, mode):
    """Normal exit without cleanup, Ctrl-C, and SIGTERM to the pipeline all end the group."""
    code = textwrap.dedent(PIPELINE).format(repo=str(REPO), tmp=str(tmp_path), mode=mode)
    pipeline = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    try:
        gc = int(wait_file(tmp_path / "gc.pid"))
        leader = int(wait_file(tmp_path / "leader.pid"))
        if mode == "sigterm":
            wait_file(tmp_path / "ready")
            pipeline.send_signal(signal.SIGTERM)
        rc = pipeline.wait(timeout=30)
    finally:
        if pipeline.poll() is None:
            pipeline.kill()
            pipeline.wait()
    err = pipeline.stderr.read() if pipeline.stderr else ""
    expected = {"atexit": 0, "sigint": -signal.SIGINT, "sigterm": 128 + signal.SIGTERM}[mode]
    assert rc == expected, err
    if mode == "sigint":
        assert "KeyboardInterrupt" in err
    assert not pid_alive(gc), f"grandchild {gc} survived {mode}"
    assert not pid_alive(leader), f"leader {leader} survived {mode}"


def test_child_gets_default_signal_mask(tmp_path):
    """SIGTERM must reach the child promptly (nothing blocked or ignored by inheritance)."""
    code = "import signal; print(sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))"
    log = tmp_path / "mask.log"
    with spawned(Launch([sys.executable, "-c", code], cwd=tmp_path, log_path=log)) as sp:
        sp.proc.wait(timeout=30)
    assert log.read_text().strip() == "[]"
    assert os.environ.get("REPOGENESIS_OWNER") is None  # marker only in children
