"""Start a task's oracle (`oracle/start.sh`) and hand back a service that answers HTTP.

Every failure becomes a `ServiceError` whose message is one line a contributor can act on:
what failed, the exit code, the last line of the service's log, and the fix. The process
group is killed whenever the context manager exits (normally, by exception, Ctrl-C or
SIGTERM via the handler in `process`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .budget import cpu_slot
from .ports import LOOPBACK, PortTimeout, ProcessExited, port_in_use, wait_for_port
from .process import DEFAULT_GRACE_S, Launch, Spawned, scratch_prefix, spawn, tail_file
from .sandbox import RunOptions, Sandbox, writable_folders

CANNOT_RUN = "repogenesis sandbox: cannot run "

# Same requests, same answers: Python services start with `random` seeded and a fixed hash
# seed (set iteration order), see seeded/sitecustomize.py.
SEEDED_ENV = {"PYTHONHASHSEED": "0",
              "PYTHONPATH": str(Path(__file__).resolve().parent / "seeded")}


class ServiceError(Exception):
    """The oracle could not be started; str() is a single actionable line.

    `kind` (missing | not_executable | cannot_run | port_in_use | exited | timeout), `path`
    (the file to fix: start.sh, or the task.toml next to the oracle for a busy port) and
    `returncode` let callers file the finding without parsing the message.
    """

    def __init__(self, message: str, kind: str, path: Path | None = None,
                 returncode: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.path = path
        self.returncode = returncode


@dataclass
class RunningService:
    """A started service: where it answers, its pid (= process group) and its log."""

    base_url: str
    port: int
    pid: int
    log_path: Path
    _spawned: Spawned

    def tail(self, n: int = 20) -> list[str]:
        """Last `n` non-empty lines of the service's output."""
        return tail_file(self.log_path, n)

    sandbox: Sandbox | None = None

    def alive(self) -> bool:
        return self._spawned.proc.poll() is None


def _last_line(log: Path) -> str:
    lines = tail_file(log, 1)
    if not lines:
        return "(no output)"
    line = lines[0].strip()
    return repr(line if len(line) <= 200 else line[:197] + "...")


def _check_script(script: Path) -> None:
    if not script.is_file():
        raise ServiceError(f"{script} not found: add an executable start.sh that starts the "
                           f"service in the foreground on 0.0.0.0:$PORT", "missing", script)
    if not os.access(script, os.X_OK):
        raise ServiceError(f"{script} is not executable: run `chmod +x {script}`",
                           "not_executable", script)


@contextlib.contextmanager
def start_service(
    oracle_dir: Path,
    port: int,
    env_bin: Path | None,
    startup_timeout_s: float = 60.0,
    *,
    log_path: Path | None = None,
    options: RunOptions | None = None,
) -> Iterator[RunningService]:
    """Run `oracle_dir/start.sh` with PORT set and `env_bin` first on PATH; yield once it answers.

    The service runs sandboxed (see `sandbox`) with `options.policy`'s limits (default: the
    sandbox's): in `options.sandbox` if given (tests run with `run_pytest(...,
    options=RunOptions(sandbox=...))` then share its loopback), else in a sandbox of its own
    that lives as long as the service. Either way `base_url` also works from the pipeline.
    The oracle folder is writable only if it lies under the system temp folder. `options.env`
    adds variables to the service's environment.
    `log_path` defaults to a temporary file removed on exit (pass one to keep the log).
    Raises ServiceError (one line) if start.sh is missing or not executable, the port is taken,
    the script exits before answering, or nothing answers by `startup_timeout_s`.
    """
    oracle_dir = oracle_dir.resolve()
    _check_script(oracle_dir / "start.sh")
    with cpu_slot():  # the shared CPU budget (see `budget`); a no-op if this thread holds one
        yield from _started(oracle_dir, port, env_bin, startup_timeout_s, log_path,
                            options or RunOptions())


def _started(oracle_dir: Path, port: int, env_bin: Path | None, startup_timeout_s: float,
             log_path: Path | None, options: RunOptions) -> Iterator[RunningService]:
    script = oracle_dir / "start.sh"
    sandbox, policy, extra_env = options.sandbox, options.policy, options.env
    grace_s = DEFAULT_GRACE_S if options.grace_s is None else options.grace_s
    if port_in_use(port) or (sandbox is not None and sandbox.call(port_in_use, port)):
        raise _port_taken(port, oracle_dir)
    own_log_dir = None
    if log_path is None:
        own_log_dir = Path(tempfile.mkdtemp(prefix=scratch_prefix("service")))
        log_path = own_log_dir / "service.log"
    env = {**SEEDED_ENV, **(extra_env or {}), "PORT": str(port)}
    launch = Launch(argv=[str(script)], cwd=oracle_dir, log_path=log_path, env=env,
                    path_prefix=[env_bin] if env_bin else ())
    sb = sandbox or Sandbox.create(policy)
    try:
        try:
            sb.publish(port)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            raise _port_taken(port, oracle_dir) from None
        try:
            sp = spawn(sb.prepare(launch, writable_folders(oracle_dir), policy))
        except OSError as exc:
            raise ServiceError(f"cannot run {script}: {exc.strerror}; check its first line "
                               f"(e.g. `#!/usr/bin/env bash`)", "cannot_run", script) from exc
        wall = threading.Timer((policy or sb.policy).wall_s, sp.stop, kwargs={"grace_s": grace_s})
        wall.daemon = True
        wall.start()
        try:
            _wait_ready(sp, script, port, startup_timeout_s, sb)
            yield RunningService(base_url=f"http://{LOOPBACK}:{port}", port=port, pid=sp.pid,
                                 log_path=log_path, _spawned=sp, sandbox=sb)
        finally:
            wall.cancel()
            sp.stop(grace_s)
    finally:
        if sandbox is None:
            sb.close()
        else:
            sb.unpublish(port)
        if own_log_dir is not None:
            shutil.rmtree(own_log_dir, ignore_errors=True)


def _port_taken(port: int, oracle_dir: Path) -> ServiceError:
    return ServiceError(f"port {port} is in use: stop what holds it or change `port` "
                        f"in task.toml", "port_in_use", oracle_dir.parent / "task.toml")


def _wait_ready(sp: Spawned, script: Path, port: int, timeout_s: float, sb: Sandbox) -> None:
    try:
        # From inside the sandbox's network namespace: that is where the service listens.
        sb.call(wait_for_port, LOOPBACK, port, timeout_s, proc=sp.proc)
    except ProcessExited as exc:
        if sp.pump is not None:  # its last words may still be in the pipe (a loaded machine)
            sp.pump.join(timeout=2.0)
        last = (tail_file(sp.log_path, 1) or [""])[0]
        if last.startswith(CANNOT_RUN):  # the sandbox entry point could not exec start.sh
            why = last[len(CANNOT_RUN):].split(": ", 1)[-1]
            raise ServiceError(f"cannot run {script}: {why}; check its first line "
                               f"(e.g. `#!/usr/bin/env bash`)", "cannot_run", script,
                               exc.returncode) from None
        hint = ("it must keep the service in the foreground (use `exec`, no `&`)"
                if exc.returncode == 0 else f"run `PORT={port} {script}` by hand to see why")
        raise ServiceError(
            f"{script} exited with code {exc.returncode} before answering on port {port}; "
            f"last log line: {_last_line(sp.log_path)}; fix: {hint}",
            "exited", script, exc.returncode) from None
    except PortTimeout as exc:
        raise ServiceError(
            f"{script} did not answer HTTP on port {port} within {timeout_s:g}s "
            f"({exc.last_error}); last log line: {_last_line(sp.log_path)}; fix: make it "
            f"listen on 0.0.0.0:$PORT, or raise the startup timeout if it is just slow",
            "timeout", script) from None
