"""Unprivileged uids for sandboxed processes: one per launch, leased through a lock file.

Each sandboxed launch runs as its own uid from a private range (`UID_BASE` + slot, no passwd
entry needed), which gives three things at once: RLIMIT_NPROC (counted per uid) bounds just
that launch, it cannot write what root owns, and *every* process it ever started, detached
ones included (`setsid`, double fork, a scrubbed environment), is found again by its uid and
killed when the launch stops: a uid cannot be shed without privileges.

A slot is leased by holding an `flock` on `<SLOT_DIR>/<n>`; the kernel drops the lock when the
holder dies, however it dies. So a process with a sandbox uid whose slot is not locked belongs
to a pipeline that is gone: the reaper ends it, and so does the next lease of that slot.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import signal
import subprocess
import time
from pathlib import Path

UID_BASE = 1_500_000_000
UID_SLOTS = 4096
SLOT_DIR = Path("/tmp/.repogenesis-sandbox-slots")


class NoFreeSlot(RuntimeError):
    """Every sandbox uid is leased (more than UID_SLOTS launches at once)."""


def _slot_dir() -> Path:
    SLOT_DIR.mkdir(mode=0o700, exist_ok=True)
    st = SLOT_DIR.lstat()
    if st.st_uid != os.geteuid() or st.st_mode & 0o077:
        raise PermissionError(f"{SLOT_DIR} must be a folder owned by us with mode 0700")
    return SLOT_DIR


def uid_processes(uid: int) -> list[int]:
    """Pids whose real, effective or saved uid is `uid` (zombies excluded)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        uids, state = None, ""
        for line in status.splitlines():
            if line.startswith("State:"):
                state = line.split()[1]
            elif line.startswith("Uid:"):
                uids = {int(x) for x in line.split()[1:4]}
                break
        if uids and uid in uids and state not in ("Z", "X"):
            out.append(int(entry))
    return out


def sandbox_uid_of(pid: int) -> int | None:
    """The sandbox uid `pid` runs as, if any (None for zombies: they are already dead)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("State:") and line.split()[1] in ("Z", "X"):
                return None
            if line.startswith("Uid:"):
                uid = int(line.split()[1])
                return uid if UID_BASE <= uid < UID_BASE + UID_SLOTS else None
    except (OSError, ValueError):
        return None
    return None


def _kill_all_as(uid: int) -> None:
    """kill(-1, SIGKILL) as `uid`: one syscall reaching every process of that uid."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(["kill", "-KILL", "-1"], user=uid, group=uid, extra_groups=[],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=5, close_fds=True)


def sweep(uid: int, timeout_s: float = 10.0) -> bool:
    """SIGKILL every process of `uid` until none is left; True if none is."""
    deadline = time.monotonic() + timeout_s
    rounds = 0
    while pids := uid_processes(uid):
        if time.monotonic() > deadline:
            return False
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if rounds:  # still forking (a fork bomb): stop them all at once
            _kill_all_as(uid)
        rounds += 1
        time.sleep(min(0.01 * rounds, 0.1))
    return True


def slot_is_leased(uid: int) -> bool:
    """True if a live process holds the lease of `uid`'s slot."""
    path = SLOT_DIR / str(uid - UID_BASE)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # also releases the probe lock
    return False


class UidLease:
    """A leased sandbox uid; `release()` kills everything still running as it."""

    def __init__(self) -> None:
        folder = _slot_dir()
        start = random.randrange(UID_SLOTS)
        for i in range(UID_SLOTS):
            slot = (start + i) % UID_SLOTS
            fd = os.open(folder / str(slot), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.uid = UID_BASE + slot
            self._fd: int | None = fd
            sweep(self.uid)  # leftovers of a pipeline that died holding this slot
            return
        raise NoFreeSlot(f"all {UID_SLOTS} sandbox uids are in use")

    def release(self) -> None:
        """Kill every process of the uid, then give the slot back. Idempotent."""
        if self._fd is None:
            return
        try:
            sweep(self.uid)
        finally:
            os.close(self._fd)
            self._fd = None
