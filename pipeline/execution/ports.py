"""Ports: pick a free one, tell whether one is taken, wait until a service answers on one.

Waiting polls with a short, growing interval up to a deadline: a fixed sleep is either too
short on a slow machine or wastes time on a fast one. A port only counts as ready when an HTTP
request gets an HTTP response (any status): a process that merely accepted the connection
(or is alive) is not a working service. Only loopback addresses are ever contacted.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import http.client
import ipaddress
import os
import random
import socket
import subprocess
import threading
import time
from pathlib import Path

LOOPBACK = "127.0.0.1"
#: A port handed out by free_port() is not handed out again (by any pipeline) for this long.
RESERVE_S = 120.0
RESERVE_DIR = Path("/tmp/.repogenesis-ports")
_RESERVED: dict[int, float] = {}
_RESERVE_LOCK = threading.Lock()


class PortWaitError(Exception):
    """The service did not answer on the port (base of the two reasons below)."""


class ProcessExited(PortWaitError):
    """The process we were waiting for died before the port answered."""

    def __init__(self, returncode: int) -> None:
        super().__init__(f"process exited with code {returncode} before the port answered")
        self.returncode = returncode


class PortTimeout(PortWaitError):
    """The deadline passed; `last_error` says what the last probe saw."""

    def __init__(self, port: int, deadline_s: float, last_error: str) -> None:
        super().__init__(f"nothing answered HTTP on port {port} within {deadline_s:g}s "
                         f"(last probe: {last_error})")
        self.last_error = last_error


def _check_loopback(host: str) -> None:
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    raise ValueError(f"refusing to contact {host}: only loopback addresses are allowed")


def _os_free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("0.0.0.0", 0))
        return int(s.getsockname()[1])


def _ephemeral_range() -> tuple[int, int]:
    """The ports the kernel gives outgoing connections (and `bind(0)`), Linux's default if
    it does not say."""
    with contextlib.suppress(OSError, ValueError):
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    return 32768, 60999


def _candidate_port() -> int:
    """A port outside the ephemeral range (10000 and up), at random; the OS's pick when none is
    left. Why: a port from that range, free when picked, can become the local end of any
    outgoing connection on the machine before the service binds it (a build's SDK calls, the
    tests' clients): seen as "port in use" on a busy CI run."""
    low, high = _ephemeral_range()
    spans = [(a, b) for a, b in ((10000, low - 1), (high + 1, 65535)) if a <= b]
    total = sum(b - a + 1 for a, b in spans)
    if total == 0:
        return _os_free_port()
    pick = random.randrange(total)
    for a, b in spans:
        if pick <= b - a:
            return a + pick
        pick -= b - a + 1
    raise AssertionError("unreachable")  # pragma: no cover


def _reserve(port: int) -> bool:
    """Claim `port` for RESERVE_S seconds, in this process and across pipelines."""
    now = time.time()
    with _RESERVE_LOCK:
        if _RESERVED.get(port, 0.0) > now:
            return False
        try:
            RESERVE_DIR.mkdir(mode=0o700, exist_ok=True)
            fd = os.open(RESERVE_DIR / str(port), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            fd = -1  # no shared folder: the in-process reservation still holds
        if fd >= 0:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # check-and-stamp atomically
                st = os.fstat(fd)
                if st.st_size > 0 and now - st.st_mtime < RESERVE_S:
                    return False
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            finally:
                os.close(fd)
        _RESERVED[port] = now + RESERVE_S
        return True


def prune_reservations() -> int:
    """Remove reservation files long expired (they accumulate, one per port); returns count."""
    removed = 0
    cutoff = time.time() - 2 * RESERVE_S
    with contextlib.suppress(OSError):
        for entry in os.scandir(RESERVE_DIR):
            with contextlib.suppress(OSError):
                if entry.stat().st_mtime < cutoff:
                    os.unlink(entry.path)
                    removed += 1
    return removed


def free_port() -> int:
    """A TCP port that is free on all interfaces right now, outside the ephemeral range (see
    `_candidate_port`).

    Race-free for parallel callers: a port handed out is reserved for RESERVE_S seconds (in
    this process and, through a stamped lock file, across pipelines), so two services started
    at once never get the same one. Whoever binds it within that time keeps it.
    """
    for _ in range(200):
        port = _candidate_port()
        if not port_in_use(port) and _reserve(port):
            return port
    raise OSError(errno.EADDRINUSE, "no free port found")


def port_in_use(port: int) -> bool:
    """True if something listens on `port` (loopback connect) or it cannot be bound.

    SO_REUSEADDR makes sockets in TIME_WAIT from an earlier run not count as "in use".
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        if s.connect_ex((LOOPBACK, port)) == 0:
            return True
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
        except OSError as exc:
            return exc.errno in (errno.EADDRINUSE, errno.EACCES)
    return False


def probe_http(host: str, port: int, timeout_s: float = 2.0) -> str | None:
    """None if an HTTP request to host:port gets any HTTP response, else why not."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(min(timeout_s, 0.5))
        code = s.connect_ex((host if host != "localhost" else LOOPBACK, port))
        if code != 0:
            return f"connection refused ({errno.errorcode.get(code, code)})"
    conn = http.client.HTTPConnection(host, port, timeout=timeout_s)
    try:
        conn.request("GET", "/", headers={"Connection": "close"})
        resp = conn.getresponse()
        resp.read(65536)
        return None
    except (OSError, http.client.HTTPException) as exc:
        return f"port open but no HTTP response ({type(exc).__name__}: {exc})"
    finally:
        with contextlib.suppress(Exception):
            conn.close()


def wait_for_port(
    host: str,
    port: int,
    deadline_s: float,
    proc: subprocess.Popen[bytes] | None = None,
) -> None:
    """Poll until host:port answers HTTP, for at most `deadline_s` seconds.

    Raises ProcessExited as soon as `proc` (if given) has died, PortTimeout at the deadline.
    """
    _check_loopback(host)
    end = time.monotonic() + deadline_s
    interval = 0.02
    last = "not probed yet"
    while True:
        if proc is not None and proc.poll() is not None:
            raise ProcessExited(proc.returncode)
        remaining = end - time.monotonic()
        reason = probe_http(host, port, timeout_s=max(0.2, min(2.0, remaining)))
        if reason is None:
            return
        last = reason
        remaining = end - time.monotonic()
        if remaining <= 0:
            if proc is not None and proc.poll() is not None:
                raise ProcessExited(proc.returncode)
            raise PortTimeout(port, deadline_s, last)
        pause = min(interval, remaining)
        if proc is not None:
            # Sleeping in wait() returns at once if the process dies meanwhile.
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=pause)
        else:
            time.sleep(pause)
        interval = min(interval * 1.5, 0.25)
