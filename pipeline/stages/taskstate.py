"""The state a task is shown in, from its stored row and the folders on disk.

The store says `running` from the moment a build starts a task until it ends it; a build
killed in between (Ctrl-C, SIGTERM, SIGKILL) never gets to say otherwise. So the row also
names its runner (host, pid and the process's start time, which a reused pid does not share)
and a `running` task whose runner is gone is shown as `interrupted`. A task whose folder left
`data/raw/` is shown as `removed` (its state stays until `repogenesis forget`).
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.tasks import discover_tasks

if TYPE_CHECKING:
    from pipeline.store import Store


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), None when unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: split after the last ')'
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def current_runner() -> str:
    """This process as a runner id: `host:pid:start`."""
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_time(pid) or '-'}"


def runner_alive(runner: str | None) -> bool:
    """Whether the process named by `runner` still runs. On another host it cannot be told,
    so it counts as alive; no runner recorded (an older store) counts as gone."""
    if not runner:
        return False
    host, _, rest = runner.partition(":")
    pid_text, _, start = rest.partition(":")
    if host != socket.gethostname():
        return True
    try:
        pid = int(pid_text)
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, owned by someone else
    except (ValueError, OverflowError):
        return False
    return start in ("", "-") or _start_time(pid) in (None, start)


def raw_ids(data_dir: Path) -> set[str]:
    """The task folders present in data/raw (loadable or not: a broken one is not removed)."""
    return {d.name for d in discover_tasks(data_dir / "raw")}


def shown_state(state: str, runner: str | None, in_raw: bool) -> str:
    """`removed` when the folder is gone, `interrupted` for a running task whose build is
    gone, else the stored state."""
    if not in_raw:
        return "removed"
    if state == "running" and not runner_alive(runner):
        return "interrupted"
    return state


def forget_tasks(data_dir: Path, store: Store, task_ids: list[str]) -> None:
    """`repogenesis forget`: drop the derived state of tasks no longer in data/raw; Area
    Chair decisions stay. Checks every id first so a typo forgets nothing."""
    from pipeline.tasks import TaskError

    present = raw_ids(data_dir)
    for task_id in task_ids:
        if store.get_task(task_id) is None:
            raise TaskError(f"{task_id}: no such task in the build state; `repogenesis status` "
                            "lists the ids it knows")
        if task_id in present:
            raise TaskError(f"{task_id}: still in {data_dir / 'raw'}; forget is for removed "
                            "tasks (delete the folder first)")
    for task_id in task_ids:
        store.forget_task(task_id)
