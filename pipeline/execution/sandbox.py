"""The sandbox for untrusted services and tests: resource limits, a private uid, a read-only
view of the machine, and a network namespace that has only loopback.

`Sandbox.create()` makes one network namespace (held by an fd); every launch prepared with
`sandbox.prepare(launch)` joins it, so a service and the tests that call it share one loopback
and nothing else. Each launch additionally gets (see `_sandbox_exec` for the mechanics):

* resource limits through `Launch.preexec` (`SandboxPolicy`), an output cap on its log and a
  size-capped tmpfs as HOME/TMPDIR;
* its own unprivileged uid (`uids.UidLease`): RLIMIT_NPROC applies, and when the launch stops
  every process of that uid is killed, detached ones included;
* its own mount namespace: everything read-only except its scratch, a private /dev/shm and the
  declared writable folders; a fresh /sys that lists only `lo`.

`start_service(..., options=RunOptions(sandbox=sb))` and `run_pytest(..., options=...)` use
`sb`; without one, `start_service` creates a sandbox for the service's lifetime and publishes it
under its port, and `run_pytest` joins the sandbox of the service behind its base URL (or, for
another loopback URL, gets a fresh one with a relay to that port). The pipeline reaches a
sandboxed service at the same `http://127.0.0.1:<port>` through a relay (`netns.Forwarder`),
so callers are unchanged.

Without root or namespaces (or with REPOGENESIS_SANDBOX=limits) only the resource limits, the
output cap and the scrubbed environment apply; one warning says so.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from pipeline.languages import interpreter_names

from . import netns
from .process import Launch, scratch_prefix
from .uids import UidLease

T = TypeVar("T")
GiB, MiB = 1 << 30, 1 << 20
HELPER = Path(__file__).with_name("_sandbox_exec.py")
MODE_VAR = "REPOGENESIS_SANDBOX"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SandboxPolicy:
    """Limits for each sandboxed launch (per process where the kernel counts per process).

    `memory_bytes` is RLIMIT_DATA (heap and private mappings): RLIMIT_AS would stop a JVM,
    which reserves several GB of address space it never touches, so `address_space_bytes`
    defaults to None (unlimited). `nproc` counts threads too (a JVM has a few dozen).
    `wall_s` caps a service's lifetime and a test run (with the caller's own timeout).
    """

    cpu_s: int = 900
    memory_bytes: int = 4 * GiB
    address_space_bytes: int | None = None
    nproc: int = 256
    file_size_bytes: int = 256 * MiB
    open_files: int = 1024
    wall_s: float = 3600.0
    output_cap_bytes: int = 8 * MiB
    scratch_bytes: int = 512 * MiB

    def limits(self) -> list[tuple[int, int, int]]:
        """(resource, soft, hard) triples; the CPU hard limit leaves time for SIGXCPU."""
        out = [
            (resource.RLIMIT_CPU, self.cpu_s, self.cpu_s + 5),
            (resource.RLIMIT_DATA, self.memory_bytes, self.memory_bytes),
            (resource.RLIMIT_NPROC, self.nproc, self.nproc),
            (resource.RLIMIT_FSIZE, self.file_size_bytes, self.file_size_bytes),
            (resource.RLIMIT_NOFILE, self.open_files, self.open_files),
            (resource.RLIMIT_CORE, 0, 0),
        ]
        if self.address_space_bytes is not None:
            out.append((resource.RLIMIT_AS, self.address_space_bytes, self.address_space_bytes))
        return out

    def preexec(self) -> Callable[[], None]:
        """A `preexec_fn` that only calls setrlimit (nothing that could deadlock after fork)."""
        limits = self.limits()
        setrlimit = resource.setrlimit

        def apply() -> None:
            for which, soft, hard in limits:
                setrlimit(which, (soft, hard))

        return apply


DEFAULT_POLICY = SandboxPolicy()


@dataclass(frozen=True)
class RunOptions:
    """What a service or a test run may be given past where it runs: the sandbox it shares
    (None: one of its own; a test run: that of the service on its port), its limits (None:
    the sandbox's), variables added to its environment, and the grace between SIGTERM and
    SIGKILL (None: the runner's own)."""

    sandbox: Sandbox | None = None
    policy: SandboxPolicy | None = None
    env: Mapping[str, str] | None = None
    grace_s: float | None = None

# --- can we isolate? (decided once per pipeline process) ----------------------------------

_MODE: tuple[str, str] | None = None
_MODE_LOCK = threading.Lock()


def _probe() -> tuple[str, str]:
    if os.environ.get(MODE_VAR, "").lower() in ("0", "off", "no", "limits"):
        return "limits", f"{MODE_VAR}={os.environ[MODE_VAR]}"
    if os.geteuid() != 0:
        return "limits", "not running as root"
    for tool in ("kill",):
        if shutil.which(tool) is None:
            return "limits", f"`{tool}` not found"
    import subprocess

    try:
        fd = netns.new_netns()
    except OSError as exc:
        return "limits", f"cannot create a network namespace ({exc})"
    scratch = Path(tempfile.mkdtemp(prefix=scratch_prefix("probe")))
    try:
        cfg = {"uid": os.getpid() % 4096 + 1_499_000_000, "netns_fd": fd,
               "writable": [str(scratch)], "needed": [os.path.realpath("/bin/true")]}
        proc = subprocess.run(
            [sys.executable, "-I", "-S", str(HELPER), json.dumps(cfg), "--", "true"],
            pass_fds=(fd,), capture_output=True, timeout=30, cwd=scratch,
            env={"PATH": os.defpath})
        if proc.returncode != 0:
            why = proc.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["?"]
            return "limits", f"namespace setup failed ({why[0]})"
    except (OSError, subprocess.SubprocessError) as exc:
        return "limits", f"namespace setup failed ({exc})"
    finally:
        os.close(fd)
        shutil.rmtree(scratch, ignore_errors=True)
    return "isolated", ""


def sandbox_mode() -> tuple[str, str]:
    """("isolated", "") or ("limits", why); the first "limits" answer logs one warning."""
    global _MODE
    with _MODE_LOCK:
        if _MODE is None:
            _MODE = _probe()
            if _MODE[0] != "isolated":
                log.warning("sandbox: %s; untrusted code runs with resource limits only (no "
                            "network namespace, no private uid, no read-only view)", _MODE[1])
        return _MODE


# --- the sandbox --------------------------------------------------------------------------

_PUBLISHED: dict[int, Sandbox] = {}
_PUBLISHED_LOCK = threading.Lock()


def published(port: int | None) -> Sandbox | None:
    """The sandbox whose service answers on host port `port` (see `Sandbox.publish`)."""
    with _PUBLISHED_LOCK:
        return _PUBLISHED.get(port) if port is not None else None


def is_temporary(path: Path) -> bool:
    """True if `path` lies under the system temp folder (a folder made for this run)."""
    tmp = Path(os.path.realpath(tempfile.gettempdir()))
    return Path(os.path.realpath(path)).is_relative_to(tmp) and Path(
        os.path.realpath(path)) != tmp


class Sandbox:
    """One network namespace (loopback only) that launches join; see the module docstring."""

    def __init__(self, policy: SandboxPolicy, netns_fd: int | None, reason: str) -> None:
        self.policy = policy
        self.netns_fd = netns_fd
        self.reason = reason  # why not isolated ("" when isolated)
        self._forwarders: dict[tuple[str, int], netns.Forwarder] = {}
        self._lock = threading.Lock()

    @classmethod
    def create(cls, policy: SandboxPolicy | None = None) -> Sandbox:
        mode, reason = sandbox_mode()
        fd = netns.new_netns() if mode == "isolated" else None
        return cls(policy or DEFAULT_POLICY, fd, reason)

    @property
    def isolated(self) -> bool:
        return self.netns_fd is not None

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def call(self, fn: Callable[..., T], *args: object, **kwargs: object) -> T:
        """`fn(*args)` run inside the sandbox's network namespace (a worker thread)."""
        return netns.call_in_netns(self.netns_fd, fn, *args, **kwargs)

    def _forward(self, key: tuple[str, int], listen: int | None, connect: int | None) -> None:
        with self._lock:
            if key not in self._forwarders:
                self._forwarders[key] = netns.Forwarder(key[1], listen, connect)

    def publish(self, port: int) -> None:
        """Relay host 127.0.0.1:`port` to the same port inside (raises OSError if taken)."""
        if not self.isolated:
            return
        self._forward(("out", port), None, self.netns_fd)
        with _PUBLISHED_LOCK:
            _PUBLISHED[port] = self

    def reach_host(self, port: int) -> None:
        """Relay 127.0.0.1:`port` inside the sandbox to the same port on the host."""
        if self.isolated:
            self._forward(("in", port), self.netns_fd, None)

    def unpublish(self, port: int) -> None:
        with _PUBLISHED_LOCK:
            if _PUBLISHED.get(port) is self:
                del _PUBLISHED[port]
        with self._lock:
            fwd = self._forwarders.pop(("out", port), None)
        if fwd is not None:
            fwd.close()

    def close(self) -> None:
        """Stop the relays and let go of the namespace. Launches stop on their own."""
        with _PUBLISHED_LOCK:
            for port in [p for p, sb in _PUBLISHED.items() if sb is self]:
                del _PUBLISHED[port]
        with self._lock:
            fwds, self._forwarders = list(self._forwarders.values()), {}
        for fwd in fwds:
            fwd.close()
        if self.netns_fd is not None:
            os.close(self.netns_fd)
            self.netns_fd = None

    def prepare(self, launch: Launch, writable: Iterable[Path] = (),
                policy: SandboxPolicy | None = None) -> Launch:
        """`launch` with limits (`policy`, default the sandbox's), uid, mounts and namespace."""
        policy = policy or self.policy
        launch = replace(launch, preexec=policy.preexec(), output_cap=policy.output_cap_bytes)
        if not self.isolated:
            return launch
        lease = UidLease()
        cfg = {
            "uid": lease.uid,
            "netns_fd": self.netns_fd,
            "needed": sorted(_needed_paths(launch)),
            "writable": [os.path.realpath(w) for w in writable],
            "scratch_from_home": True,
            "scratch_bytes": policy.scratch_bytes,
        }
        wrapper = [sys.executable, "-I", "-S", str(HELPER), json.dumps(cfg), "--"]
        return replace(launch, wrapper=[*wrapper, *launch.wrapper],
                       pass_fds=(*launch.pass_fds, self.netns_fd), on_stop=lease.release)


def _venv_home(bin_dir: Path) -> list[str]:
    try:
        text = (bin_dir.parent / "pyvenv.cfg").read_text()
    except OSError:
        return []
    return [line.split("=", 1)[1].strip() for line in text.splitlines()
            if line.replace(" ", "").startswith("home=")]


def _needed_paths(launch: Launch) -> set[str]:
    """Paths the launch must be able to read: its folder, programs, interpreters, inputs.

    Always included: the pipeline's own interpreter (task envs are made from it, and scripts
    may call it by path) and every folder on PATH (where its commands come from).
    """
    path = os.pathsep.join([*(str(p) for p in launch.path_prefix), os.environ.get("PATH", "")])
    cands: list[str] = [str(launch.cwd), *(str(p) for p in launch.path_prefix),
                        sys.base_prefix, sys.prefix, os.path.realpath(sys.executable),
                        *(p for p in path.split(os.pathsep) if p.startswith("/"))]
    if os.environ.get("JAVA_HOME", "").startswith("/"):
        cands.append(os.environ["JAVA_HOME"])
    for arg in launch.argv:
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        if value.startswith("/"):
            cands.append(value)
    for value in launch.env.values():
        cands.extend(part for part in str(value).split(os.pathsep) if part.startswith("/"))
    program = shutil.which(launch.argv[0], path=path) if launch.argv else None
    programs = [program] if program else []
    for folder in launch.path_prefix:
        programs += [str(Path(folder) / n) for n in interpreter_names()]
    for prog in programs:
        if os.path.exists(prog):
            cands.append(os.path.realpath(prog))
            cands.extend(_venv_home(Path(prog).parent))
    out: set[str] = set()
    for cand in cands:
        out.update({os.path.abspath(cand), os.path.realpath(cand)})
    return {p for p in out if p != "/"}


def writable_folders(*folders: Path | None) -> Sequence[Path]:
    """The given folders that are temporary (the only ones a launch may write besides its own)."""
    return [f for f in folders if f is not None and is_temporary(f)]
