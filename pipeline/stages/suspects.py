"""Implementations the generator model writes from the README alone (`build --alternatives K`).

The bundled alternatives (`stages.alternatives`) are references: written by people, checked to
keep every stated rule, so a case failing on one is over-specified. A model's implementation is
a suspect instead: where it and a test disagree, either may have misread the document. Its runs
are evidence for review and nothing more: a case that passes on the oracle and fails on a
suspect which passes at least 90% of the task's other accepted cases goes to the Area Chair
(verified) instead of being accepted (`routing.route_with_suspects`); no case is ever discarded
because of a suspect, and one that does not install or start is left out with a report line.

The code is untrusted: it is written to the build's state folder, installed into its own task
environment from a checked requirements list, and run only through the execution sandbox, with
a `start.sh` the pipeline writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pipeline.backend import Backend
from pipeline.execution import EnvError, ServiceError, ensure_task_env, free_port, start_service
from pipeline.records import Evidence, Review, RouteDecision, Spec, TestCase
from pipeline.stages.alternatives import Alternative
from pipeline.store import Store
from pipeline.tasks import RawTask

SUSPECTS_DIR = Path(".repogenesis") / "suspects"
DONE = ".written"  # marker: the folder holds a complete, checked implementation
MAX_FILES = 20
MAX_FILE_BYTES = 200_000
_FILE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)*"
                   r"\.(?:py|txt|md|html|json|cfg|toml)$")
_REQUIREMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[A-Za-z0-9_,.-]+\])?"
                          r"(?:\s*(?:==|>=|<=|~=|!=|<|>)\s*[A-Za-z0-9.*+!-]+)*$")
START_SH = """#!/bin/sh
# Written by repogenesis: runs the model-written app.py on ${PORT} (state in memory).
set -eu
cd "$(dirname "$0")"
export HOST=0.0.0.0
export PORT="${PORT:-8000}"
exec "${PYTHON:-python3}" app.py
"""

Decided = tuple[TestCase, Evidence | None, list[Review], RouteDecision]
Report = Callable[[str, str], None]  # (task_id, message), as the build's


def checked_files(files: dict[str, str]) -> dict[str, str]:
    """The files of a model's answer, or ValueError naming what is refused: a path outside
    the folder or of an unexpected kind, too many or too large files, no app.py, a
    requirements line that is not a plain package (no URLs, options or local paths)."""
    if "app.py" not in files:
        raise ValueError("no app.py")
    if len(files) > MAX_FILES:
        raise ValueError(f"{len(files)} files (at most {MAX_FILES})")
    for path, content in files.items():
        parts = PurePosixPath(path).parts
        if not _FILE.match(path) or ".." in parts or path == "start.sh":
            raise ValueError(f"file {path!r} refused (a relative .py/.txt/.md/.html/.json "
                             f"path inside the folder)")
        if len(content.encode()) > MAX_FILE_BYTES:
            raise ValueError(f"file {path!r} is larger than {MAX_FILE_BYTES} bytes")
    for line in files.get("requirements.txt", "").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not _REQUIREMENT.match(line):
            raise ValueError(f"requirements line {line!r} refused (a package name with an "
                             f"optional version only)")
    return files


def suspects_root(data_dir: Path, task_id: str, digest: str) -> Path:
    return data_dir / SUSPECTS_DIR / task_id / digest[:16]


@dataclass(frozen=True)
class SuspectPlan:
    """How a build gets its suspects: the model that writes them from the document, how many,
    the folder they are written to, and how each is installed and started."""

    backend: Backend
    count: int
    root: Path
    cache_dir: Path | None = None
    startup_timeout_s: float = 90.0


def write_suspects(task: RawTask, spec: Spec, readme: str, plan: SuspectPlan,
                   report: Report) -> list[Path]:
    """The folders of `plan.count` implementations under `plan.root` (`m1`... one per
    variant), asking the model only when one is not written yet (a rerun resumes; its answers
    are cached); a failed or refused answer is reported and left out."""
    backend, count, root = plan.backend, plan.count, plan.root
    missing = [i for i in range(1, count + 1) if not (root / f"m{i}" / DONE).is_file()]
    answers = backend.implement(task.id, spec, readme, count) if missing else []
    folders = []
    for i in range(1, count + 1):
        folder = root / f"m{i}"
        if i in missing:
            files = answers[i - 1] if i - 1 < len(answers) else None
            if files is None:
                report(task.id, f"implementation m{i}: the model wrote none; left out")
                continue
            try:
                _write(folder, checked_files(files))
            except ValueError as exc:
                report(task.id, f"implementation m{i}: {exc}; left out")
                continue
        folders.append(folder)
    return folders


def prepare_suspects(task: RawTask, spec: Spec, readme: str, plan: SuspectPlan,
                     report: Report) -> list[Alternative]:
    """The written implementations that install and start, as suspects to run cases on."""
    out = []
    for folder in write_suspects(task, spec, readme, plan, report):
        try:
            env = ensure_task_env(folder, "python", root=plan.cache_dir)
            env_bin = env.bin if env else None
            with start_service(folder, free_port(), env_bin,
                               startup_timeout_s=plan.startup_timeout_s):
                pass
        except (EnvError, ServiceError) as exc:
            report(task.id, f"implementation {folder.name} does not run ({exc}); left out")
            continue
        out.append(Alternative(folder.name, folder, env_bin, suspect=True))
    if out:
        report(task.id, f"{len(out)} model-written implementation(s) run each passing case "
               f"(suspects: {', '.join(a.name for a in out)})")
    return out


def accepted_evidence(decided: list[Decided], store: Store,
                      task_id: str) -> dict[str, Evidence]:
    """The evidence of the task's accepted cases, earlier rounds' and this round's, by case:
    what a suspect's credibility is judged on (`routing.route_with_suspects`)."""
    accepted: dict[str, Evidence] = {}
    for case in store.latest_cases(task_id):
        route = store.latest_route(case.case_id)
        ev = store.evidence_for(case.case_id, case.round)
        if route is not None and route.route == "accepted" and ev is not None:
            accepted[case.case_id] = ev
    for case, ev, _, decision in decided:
        if decision.route == "accepted" and ev is not None:
            accepted[case.case_id] = ev
    return accepted
def _write(folder: Path, files: dict[str, str]) -> None:
    for path, content in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    start = folder / "start.sh"
    start.write_text(START_SH, encoding="utf-8")
    start.chmod(0o755)
    (folder / DONE).write_text("", encoding="utf-8")
