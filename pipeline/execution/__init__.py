"""Run untrusted services and tests: process groups, ports, per-task envs, pytest runs.

Everything here kills what it starts on every exit path; see `process` for how. Services and
test runs are sandboxed (limits, private uid, read-only view, loopback-only network): `sandbox`.
"""

from .envs import EnvError, TaskEnv, cache_root, ensure_env, ensure_task_env, env_key
from .ports import (
    PortTimeout,
    PortWaitError,
    ProcessExited,
    free_port,
    port_in_use,
    wait_for_port,
)
from .process import (
    Launch,
    Spawned,
    Terminated,
    group_members,
    install_signal_handlers,
    kill_all,
    kill_group,
    live_groups,
    scratch_prefix,
    scrubbed_env,
    spawn,
    spawned,
    terminated,
)
from .pytest_runner import TestOutcome, TestRun, run_pytest
from .sandbox import RunOptions, Sandbox, SandboxPolicy, sandbox_mode
from .service import RunningService, ServiceError, start_service

__all__ = [
    "EnvError", "Launch", "PortTimeout", "PortWaitError", "ProcessExited", "RunOptions",
    "RunningService", "Sandbox", "SandboxPolicy", "ServiceError", "Spawned", "TaskEnv",
    "Terminated", "TestOutcome", "TestRun", "cache_root", "ensure_env", "ensure_task_env",
    "env_key",
    "free_port", "group_members", "install_signal_handlers", "kill_all", "kill_group",
    "live_groups", "port_in_use", "run_pytest", "sandbox_mode", "scratch_prefix",
    "scrubbed_env", "spawn", "spawned", "start_service", "terminated", "wait_for_port",
]
