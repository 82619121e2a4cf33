"""Find and end what an earlier, killed pipeline left running.

Every process the pipeline starts carries `REPOGENESIS_OWNER=<pid>:<start ticks>` in its
environment (children inherit it, detached ones included). When that owner is gone (or its
pid now belongs to another process), nobody will ever stop the process: we do.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from .process import OWNER_VAR, _proc_start_ticks

_NEEDLE = f"{OWNER_VAR}=".encode()


def _owner_of(pid: int) -> str | None:
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    for item in environ.split(b"\0"):
        if item.startswith(_NEEDLE):
            return item[len(_NEEDLE):].decode(errors="replace")
    return None


def _owner_alive(marker: str) -> bool:
    pid_text, _, ticks = marker.partition(":")
    try:
        pid = int(pid_text)
    except ValueError:
        return False
    return Path(f"/proc/{pid}").exists() and _proc_start_ticks(pid) == ticks


def orphans() -> list[int]:
    """Pids of processes whose owning pipeline is gone."""
    me = os.getpid()
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        marker = _owner_of(int(entry.name))
        if marker is not None and not _owner_alive(marker):
            out.append(int(entry.name))
    return out


def reap_orphans() -> int:
    """Kill every orphan (and its process group); returns how many were found."""
    found = orphans()
    for pid in found:
        for kill in (lambda p: os.killpg(os.getpgid(p), signal.SIGKILL),
                     lambda p: os.kill(p, signal.SIGKILL)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill(pid)
    return len(found)
