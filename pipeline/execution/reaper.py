"""Find and end what an earlier, killed pipeline left running.

Every process the pipeline starts carries `REPOGENESIS_OWNER=<pid>:<start ticks>` in its
environment (children inherit it, detached ones included). When that owner is gone (or its
pid now belongs to another process), nobody will ever stop the process: we do. Sandboxed
processes are also known by their uid (see `uids`): one whose uid's lease is no longer held
is an orphan even if it cleared its environment. Their network namespaces need no cleanup:
a namespace disappears with the last process (or fd) in it. Temporary folders are named
after their owner (`process.scratch_prefix`), so the ones a killed pipeline left are removed.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import tempfile
from pathlib import Path

from .ports import prune_reservations
from .process import OWNER_VAR, _proc_start_ticks
from .uids import sandbox_uid_of, slot_is_leased

_NEEDLE = f"{OWNER_VAR}=".encode()
_SCRATCH = re.compile(r"^repogenesis-[a-z]+-(\d+)_(\d+)-")


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
    leased: dict[int, bool] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        pid = int(entry.name)
        marker = _owner_of(pid)
        if marker is not None and not _owner_alive(marker):
            out.append(pid)
            continue
        uid = sandbox_uid_of(pid)
        if uid is not None:
            if uid not in leased:
                leased[uid] = slot_is_leased(uid)
            if not leased[uid]:
                out.append(pid)
    return out


def stale_scratch(root: Path | None = None) -> list[Path]:
    """Temporary folders whose owning pipeline is gone."""
    root = Path(root or tempfile.gettempdir())
    out = []
    with contextlib.suppress(OSError):
        for entry in sorted(root.iterdir()):
            match = _SCRATCH.match(entry.name)
            if match and entry.is_dir() and not _owner_alive(f"{match[1]}:{match[2]}"):
                out.append(entry)
    return out


def reap_orphans() -> int:
    """Kill every orphan (and its process group) and remove the temporary folders of dead
    pipelines; returns how many processes were found."""
    prune_reservations()
    found = orphans()
    for pid in found:
        for kill in (lambda p: os.killpg(os.getpgid(p), signal.SIGKILL),
                     lambda p: os.kill(p, signal.SIGKILL)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill(pid)
    for folder in stale_scratch():
        shutil.rmtree(folder, ignore_errors=True)
    return len(found)
