"""Which raw tasks a command works on, and the static gate a task passes before a build.

`build --task X` naming nothing used to build nothing and exit 0; a script could not tell a
typo from success. Selection refuses unknown or malformed ids up front (one line, every bad id,
how to list the real ones), and the static part of `check` fails a task whose README documents
an endpoint the oracle does not route (static analysis, then the running oracle for what it
could not find) before any generation or execution is spent on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.records import TASK_ID_RE, Endpoint
from pipeline.tasks import RawTask, TaskError, discover_tasks

if TYPE_CHECKING:
    from pipeline.stages.check import CheckResult


def select_tasks(raw_root: Path, only: list[str] | None) -> list[Path]:
    """The task folders of `raw_root` named by `only` (all when None/empty), sorted.

    Raises TaskError naming every id that is not a plain name or not a folder in `raw_root`.
    """
    dirs = discover_tasks(raw_root)
    if not only:
        return dirs
    known = {d.name for d in dirs}
    bad = [name for name in dict.fromkeys(only) if not TASK_ID_RE.match(name)]
    unknown = [name for name in dict.fromkeys(only) if TASK_ID_RE.match(name)
               and name not in known]
    if bad or unknown:
        parts = [f"--task {n!r}: not a task id (a plain folder name)" for n in bad]
        parts += [f"--task {n}: no such task in {raw_root}" for n in unknown]
        raise TaskError(f"{'; '.join(parts)}; list the ids with `ls {raw_root}` or "
                        "`repogenesis status`")
    wanted = set(only)
    return [d for d in dirs if d.name in wanted]


def static_check(task_dir: Path) -> list[Endpoint]:
    """The static part of `check` (task.toml, README, oracle files, routes); raises TaskError
    with the first error. Returns the documented endpoints static analysis did not find in
    the oracle, for `confirm_routes` to ask the running oracle about. Warnings never fail a
    build."""
    from pipeline.stages.check import check_task

    result = check_task(task_dir, run_oracle=False)
    _raise_first(result, task_dir)
    return result.unconfirmed


def confirm_routes(task: RawTask, endpoints: list[Endpoint], startup_timeout_s: float,
                   cache_dir: Path | None) -> None:
    """Start the oracle once and probe `endpoints`; raises TaskError when the running oracle
    does not route one (or does not start), as `check` would report it."""
    from pipeline.stages.check import CheckResult, check_runtime

    result = CheckResult(task_dir=task.dir)
    check_runtime(task, result, startup_timeout_s, cache_dir, endpoints)
    _raise_first(result, task.dir)


def _raise_first(result: CheckResult, task_dir: Path) -> None:
    errors = [f for f in result.findings if f.level == "error"]
    if not errors:
        return
    first = errors[0].line().removeprefix("error: ")
    more = f" ({len(errors) - 1} more error(s))" if len(errors) > 1 else ""
    raise TaskError(f"{first}{more}; `repogenesis check {task_dir}` lists every problem")
