"""The sandbox itself: limits on every launch, the JVM still starts, the fallback warns once."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from exec_helpers import ENV_BIN, get_json, make_oracle

from pipeline.execution import Launch, Sandbox, SandboxPolicy, free_port, spawned, start_service
from pipeline.execution import sandbox as sandbox_mod
from pipeline.execution.sandbox import sandbox_mode

isolated = pytest.mark.skipif(sandbox_mode()[0] != "isolated",
                              reason=f"needs root and namespaces ({sandbox_mode()[1]})")


def _run(sb: Sandbox, argv: list[str], tmp_path: Path, policy: SandboxPolicy | None = None
         ) -> tuple[int | None, str]:
    log = tmp_path / "out.log"
    launch = sb.prepare(Launch(argv=argv, cwd=tmp_path, log_path=log), (), policy)
    with spawned(launch) as sp:
        code = sp.proc.wait(timeout=60)
    return code, log.read_text(errors="replace")


def test_limits_are_applied_to_each_launch(tmp_path):
    policy = SandboxPolicy(cpu_s=77, nproc=99, open_files=123, file_size_bytes=5 << 20)
    with Sandbox.create(policy) as sb:
        code, out = _run(sb, ["cat", "/proc/self/limits"], tmp_path)
    assert code == 0, out
    rows = {line[:26].strip(): line[26:].split() for line in out.splitlines()[1:]}
    assert rows["Max cpu time"][0] == "77"
    assert rows["Max open files"][:2] == ["123", "123"]
    assert rows["Max file size"][0] == str(5 << 20)
    assert rows["Max processes"][0] == "99"


@isolated
def test_runs_as_an_unprivileged_uid_with_its_own_home(tmp_path):
    with Sandbox.create() as sb:
        code, out = _run(sb, ["sh", "-c", "id -u; touch $HOME/x && echo home-ok; "
                                          "touch /etc/x 2>/dev/null || echo etc-denied"],
                         tmp_path)
    uid, *rest = out.split()
    assert code == 0 and int(uid) >= 1_500_000_000
    assert rest == ["home-ok", "etc-denied"]


@pytest.mark.skipif(shutil.which("java") is None, reason="no JVM installed")
def test_the_jvm_starts_under_the_default_limits(tmp_path):
    with Sandbox.create() as sb:
        code, out = _run(sb, ["java", "-version"], tmp_path)
    assert code == 0, out


def test_without_namespaces_one_warning_then_limits_only(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(sandbox_mod, "_MODE", None)
    monkeypatch.setenv(sandbox_mod.MODE_VAR, "limits")
    with caplog.at_level(logging.WARNING, logger=sandbox_mod.__name__):
        assert sandbox_mode()[0] == "limits"
        assert sandbox_mode()[0] == "limits"
        oracle = make_oracle(tmp_path / "task")
        with start_service(oracle, free_port(), ENV_BIN, 20) as svc:
            assert svc.sandbox is not None and not svc.sandbox.isolated
            assert get_json(svc.base_url + "/x")["ok"] is True
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "resource limits only" in warnings[0].getMessage()
