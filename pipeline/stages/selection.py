"""Which raw tasks a command works on, and the static gate a task passes before a build.

`build --task X` naming nothing used to build nothing and exit 0; a script could not tell a
typo from success. Selection refuses unknown or malformed ids up front (one line, every bad id,
how to list the real ones), and the static part of `check` fails a task whose README documents
an endpoint the oracle does not route before any generation or execution is spent on it.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.records import TASK_ID_RE
from pipeline.tasks import TaskError, discover_tasks


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


def static_check(task_dir: Path) -> None:
    """The static part of `check` (task.toml, README, oracle files, routes); raises TaskError
    with the first error, e.g. an endpoint the README documents and the oracle does not
    route. Warnings never fail a build."""
    from pipeline.stages.check import check_task

    result = check_task(task_dir, run_oracle=False)
    errors = [f for f in result.findings if f.level == "error"]
    if not errors:
        return
    first = errors[0].line().removeprefix("error: ")
    more = f" ({len(errors) - 1} more error(s))" if len(errors) > 1 else ""
    raise TaskError(f"{first}{more}; `repogenesis check {task_dir}` lists every problem")
