"""Start untrusted commands in their own process group and make sure the group dies.

Services and tests are untrusted code: each runs in a new session (so a Ctrl-C on the
terminal does not reach it and `killpg` reaches all its descendants), with an environment
built from an allow-list (no API keys leak in), a temporary HOME/TMPDIR, and its output in a
log file. Every live group is kept in a registry that an `atexit` hook and a SIGTERM/SIGHUP
handler clean up, so the group is killed on every exit path of the pipeline.

The sandbox (`sandbox.Sandbox.prepare`) fills `Launch.preexec` (resource limits through
`resource.setrlimit`), `Launch.wrapper` (the namespace/mount/uid entry point), `pass_fds` (the
network namespace), `output_cap` (the log keeps that many bytes; a pump thread drops the rest)
and `on_stop` (kills every process of the launch's uid once its group is dead: detached ones
too). The `REPOGENESIS_OWNER` marker in every child's environment lets a reaper end what a
SIGKILLed earlier run left behind.
"""

from __future__ import annotations

import atexit
import contextlib
import fnmatch
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: Inherited from the parent only if set; everything else is dropped.
INHERITED_VARS = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "JAVA_HOME")
#: Names that must never reach untrusted code, even when passed explicitly.
SECRET_PATTERNS = (
    "*_API_KEY", "*_APIKEY", "*_TOKEN", "*_SECRET", "*_SECRET_*", "*PASSWORD*", "*_CREDENTIALS",
    "AWS_*", "GOOGLE_*", "GCLOUD_*", "GCP_*", "CLOUDSDK_*", "AZURE_*", "OPENAI_*", "ANTHROPIC_*",
    "GEMINI_*", "HF_*", "HUGGING_FACE_*", "GITHUB_*", "GH_*", "SSH_AUTH_SOCK",
)
OWNER_VAR = "REPOGENESIS_OWNER"
DEFAULT_GRACE_S = 3.0


class Terminated(SystemExit):
    """Raised in the main thread when the pipeline receives SIGTERM/SIGHUP.

    A SystemExit subclass, so `except Exception` does not swallow it and `finally` blocks
    (which kill process groups) still run on the way out.
    """


def is_secret_name(name: str) -> bool:
    """True if an environment variable name looks like a credential."""
    upper = name.upper()
    return any(fnmatch.fnmatchcase(upper, pat) for pat in SECRET_PATTERNS)


def owner_marker() -> str:
    """`<pid>:<start time>` of this pipeline process, unique across pid reuse."""
    return f"{os.getpid()}:{_proc_start_ticks(os.getpid())}"


def scratch_prefix(kind: str) -> str:
    """Prefix of a temporary folder this pipeline makes: `repogenesis-<kind>-<pid>_<start>-`.
    It names the owner, so the reaper can remove what a killed pipeline left behind."""
    return f"repogenesis-{kind}-{owner_marker().replace(':', '_')}-"


def _proc_start_ticks(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return "0"


def scrubbed_env(
    home: Path,
    tmpdir: Path,
    extra: Mapping[str, str] | None = None,
    path_prefix: Sequence[Path] = (),
) -> dict[str, str]:
    """Environment for untrusted code: an allow-list of the parent's, plus `extra`.

    Raises ValueError if `extra` tries to pass a credential-looking variable.
    """
    env = {k: os.environ[k] for k in INHERITED_VARS if k in os.environ}
    env.setdefault("PATH", os.defpath)
    env.setdefault("LANG", "C.UTF-8")
    env["HOME"] = str(home)
    env["TMPDIR"] = str(tmpdir)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env[OWNER_VAR] = owner_marker()
    for key, value in (extra or {}).items():
        if is_secret_name(key):
            raise ValueError(f"refusing to pass {key} to untrusted code")
        env[key] = value
    if path_prefix:
        env["PATH"] = os.pathsep.join([*(str(p) for p in path_prefix), env["PATH"]])
    return env


@dataclass
class Launch:
    """What to run. The sandbox (see `sandbox.Sandbox.prepare`) fills the last five fields.

    `output_cap`: bytes of output kept in the log; the rest is read and dropped (a note says
    how much). `on_stop`: called once the group is dead (e.g. to end detached processes).
    """

    argv: Sequence[str]
    cwd: Path
    log_path: Path
    env: Mapping[str, str] = field(default_factory=dict)
    path_prefix: Sequence[Path] = ()
    preexec: Callable[[], None] | None = None
    wrapper: Sequence[str] = ()
    pass_fds: Sequence[int] = ()
    output_cap: int | None = None
    on_stop: Callable[[], None] | None = None


@dataclass
class Spawned:
    """A running process group and the scratch space it owns."""

    proc: subprocess.Popen[bytes]
    log_path: Path
    scratch: Path
    pump: OutputPump | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self, grace_s: float = DEFAULT_GRACE_S) -> int | None:
        """Kill the whole group, then remove the scratch HOME/TMPDIR. Idempotent."""
        try:
            return kill_group(self.proc, grace_s)
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)
            if self.pump is not None:
                self.pump.join(2.0)

    @property
    def output_dropped(self) -> int:
        """Bytes of output beyond the cap that were not written to the log."""
        return self.pump.dropped if self.pump is not None else 0


class OutputPump(threading.Thread):
    """Copy a child's output pipe into its log up to `cap` bytes; read and drop the rest."""

    def __init__(self, fd: int, log_path: Path, cap: int) -> None:
        super().__init__(name="repogenesis-output", daemon=True)
        self.fd, self.log_path, self.cap = fd, log_path, cap
        self.written = 0
        self.dropped = 0

    def run(self) -> None:
        try:
            with open(self.log_path, "ab") as log:
                while chunk := os.read(self.fd, 1 << 16):
                    keep = chunk[: max(0, self.cap - self.written)]
                    if keep:
                        log.write(keep)
                        log.flush()
                        self.written += len(keep)
                    self.dropped += len(chunk) - len(keep)
                if self.dropped:
                    log.write(f"\n[repogenesis: output capped at {self.cap} bytes; "
                              f"{self.dropped} more bytes dropped]\n".encode())
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                os.close(self.fd)


# --- registry of live groups -------------------------------------------------------------

#: pgid -> (leader, scratch folder to remove, hook to call once the group is dead)
_LIVE: dict[int, tuple[subprocess.Popen[bytes], Path | None, Callable[[], None] | None]] = {}
_LOCK = threading.Lock()
_HANDLERS_INSTALLED = False
_TERMINATED_BY: int | None = None


def live_groups() -> list[int]:
    """Process-group ids this pipeline started and has not yet killed."""
    with _LOCK:
        return list(_LIVE)


def _register(proc: subprocess.Popen[bytes], scratch: Path | None,
              on_stop: Callable[[], None] | None = None) -> None:
    with _LOCK:
        _LIVE[proc.pid] = (proc, scratch, on_stop)


def _unregister(proc: subprocess.Popen[bytes]) -> None:
    """Forget a dead group, run its stop hook and remove the scratch space it had."""
    with _LOCK:
        _, scratch, on_stop = _LIVE.pop(proc.pid, (None, None, None))
    try:
        if on_stop is not None:
            on_stop()
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def kill_all(grace_s: float = 0.5) -> None:
    """Kill every group still registered (atexit and the signal handler call this)."""
    with _LOCK:
        entries = list(_LIVE.values())
    for proc, _scratch, _hook in entries:
        with contextlib.suppress(Exception):
            kill_group(proc, grace_s)


def _on_terminate(signum: int, _frame: object) -> None:
    global _TERMINATED_BY
    _TERMINATED_BY = 128 + signum
    kill_all()
    raise Terminated(_TERMINATED_BY)


def terminated() -> int | None:
    """The exit code a SIGTERM/SIGHUP asked for, if one arrived.

    Why kept apart from the exception: Python runs a handler between any two bytecodes, so
    `Terminated` can land where exceptions are only logged (a `__del__`, a weakref callback)
    and vanish. `spawn` and the build check this flag, so a lost exception still ends the run.
    """
    return _TERMINATED_BY


def install_signal_handlers() -> None:
    """Turn SIGTERM/SIGHUP into `Terminated` in the main thread (once; no-op elsewhere).

    Handlers someone else installed are left alone; atexit still covers those paths.
    """
    global _HANDLERS_INSTALLED
    if _HANDLERS_INSTALLED or threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) in (signal.SIG_DFL, None):
            signal.signal(sig, _on_terminate)
    _HANDLERS_INSTALLED = True


atexit.register(kill_all)


# --- spawning and killing -----------------------------------------------------------------


def spawn(launch: Launch) -> Spawned:
    """Start `launch` in a new session with a scrubbed env; output goes to its log file.

    The group is registered before this returns, so it is killed on any later exit path.
    """
    install_signal_handlers()
    if _TERMINATED_BY is not None:
        raise Terminated(_TERMINATED_BY)
    scratch = Path(tempfile.mkdtemp(prefix=scratch_prefix("run")))
    home, tmp = scratch / "home", scratch / "tmp"
    home.mkdir()
    tmp.mkdir()
    proc: subprocess.Popen[bytes] | None = None
    pump: OutputPump | None = None
    read_fd = write_fd = -1
    try:
        env = scrubbed_env(home, tmp, launch.env, launch.path_prefix)
        launch.log_path.parent.mkdir(parents=True, exist_ok=True)
        argv = [*launch.wrapper, *launch.argv]
        with open(launch.log_path, "ab") as log:
            out: int | object = log
            if launch.output_cap is not None:
                read_fd, write_fd = os.pipe2(os.O_CLOEXEC)
                out = write_fd
            proc = subprocess.Popen(
                argv,
                cwd=launch.cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=launch.preexec,
                close_fds=True,
                pass_fds=tuple(launch.pass_fds),
            )
            _register(proc, scratch, launch.on_stop)
        if read_fd >= 0:
            os.close(write_fd)
            write_fd = -1
            pump = OutputPump(read_fd, launch.log_path, int(launch.output_cap or 0))
            read_fd = -1
            pump.start()
    except BaseException:
        # e.g. Ctrl-C landing right after Popen: do not leave the new group running.
        if proc is not None:
            kill_group(proc, 0.5)
        elif launch.on_stop is not None:
            launch.on_stop()
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    finally:
        for fd in (read_fd, write_fd):
            if fd >= 0:
                os.close(fd)
    return Spawned(proc=proc, log_path=launch.log_path, scratch=scratch, pump=pump)


@contextlib.contextmanager
def spawned(launch: Launch, grace_s: float = DEFAULT_GRACE_S) -> Iterator[Spawned]:
    """Context manager form of `spawn`: the group is killed however the block exits."""
    sp = spawn(launch)
    try:
        yield sp
    finally:
        sp.stop(grace_s)


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) pids in process group `pgid`, read from /proc."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return []
    except PermissionError:
        pass
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        # fields[0] = state, fields[2] = pgrp
        if fields[0] not in ("Z", "X") and int(fields[2]) == pgid:
            members.append(int(entry))
    return members


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def kill_group(proc: subprocess.Popen[bytes], grace_s: float = DEFAULT_GRACE_S) -> int | None:
    """SIGTERM the whole group of `proc`, SIGKILL whatever is left after `grace_s`.

    Waits (by polling, bounded) until no member of the group is alive, reaps the leader and
    removes the group's scratch HOME/TMPDIR. Returns the leader's exit code. Safe to call twice.
    """
    pgid = proc.pid
    try:
        if group_members(pgid):
            _signal_group(pgid, signal.SIGTERM)
            if not _wait_group_gone(proc, pgid, grace_s):
                _signal_group(pgid, signal.SIGKILL)
                _wait_group_gone(proc, pgid, 5.0)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5.0)
    finally:
        _unregister(proc)
    return proc.returncode


def _wait_group_gone(proc: subprocess.Popen[bytes], pgid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    interval = 0.01
    while True:
        proc.poll()  # reap the leader so it does not linger as a zombie member
        if not group_members(pgid):
            return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        time.sleep(min(interval, remaining))
        interval = min(interval * 2, 0.1)


def tail_file(path: Path, n: int = 20, max_bytes: int = 64_000) -> list[str]:
    """Last `n` non-empty lines of a (log) file, reading at most `max_bytes` from its end."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - max_bytes))
            data = fh.read()
    except OSError:
        return []
    lines = [ln.rstrip() for ln in data.decode("utf-8", "replace").splitlines()]
    return [ln for ln in lines if ln.strip()][-n:] if n > 0 else []
