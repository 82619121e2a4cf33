"""Reading raw task folders (`data/raw/<id>/`) into records, with one-line errors."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from pipeline.records import TASK_ID_RE, TaskConfig


class TaskError(Exception):
    """A problem with a task folder; the message is one line naming the file and the fix."""


@dataclass(frozen=True)
class RawTask:
    dir: Path
    config: TaskConfig

    @property
    def id(self) -> str:
        return self.config.id

    @property
    def readme(self) -> Path:
        return self.dir / "README.md"

    @property
    def oracle_dir(self) -> Path:
        return self.dir / "oracle"

    @property
    def start_script(self) -> Path:
        return self.oracle_dir / "start.sh"

    @property
    def tests_dir(self) -> Path:
        return self.dir / "tests"

    @property
    def alternative_dirs(self) -> list[Path]:
        """Independent correct implementations of the README (`alternatives/<name>/`, each
        with the oracle's `start.sh` contract), by name."""
        root = self.dir / "alternatives"
        return sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []

    @property
    def requirements(self) -> Path | None:
        path = self.oracle_dir / "requirements.txt"
        return path if path.is_file() else None


def check_task_id(task_id: str) -> None:
    """Refuse ids that are not plain names (they become folder names)."""
    if not TASK_ID_RE.match(task_id):
        raise TaskError(
            f"task id {task_id!r} is not a plain name: use letters, digits, '_', '.', '-' "
            "(start with a letter or digit, at most 64 characters)"
        )


def _describe(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "(top level)"
        if e["type"] == "missing":
            parts.append(f"`{loc}` is missing")
        elif e["type"] == "extra_forbidden":
            parts.append(f"`{loc}` is not a known key")
        else:
            parts.append(f"`{loc}`: {e['msg']}")
    return "; ".join(parts)


def parse_task_config(path: Path) -> TaskConfig:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TaskError(f"{path}: missing; create it (`repogenesis new-task` writes one)") from None
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(f"{path}: not valid TOML ({exc}); fix the syntax") from None
    except UnicodeDecodeError:
        raise TaskError(f"{path}: not UTF-8 text; save it as UTF-8") from None
    try:
        return TaskConfig.model_validate(data)
    except ValidationError as exc:
        raise TaskError(
            f"{path}: {_describe(exc)}; see the task.toml format in README.md"
        ) from None


def load_task(task_dir: Path) -> RawTask:
    """Load and minimally validate one raw task folder."""
    task_dir = Path(task_dir)
    if not task_dir.is_dir():
        raise TaskError(f"{task_dir}: not a folder; pass a task folder such as data/raw/<id>")
    check_task_id(task_dir.name)
    config = parse_task_config(task_dir / "task.toml")
    if config.id != task_dir.name:
        raise TaskError(
            f"{task_dir / 'task.toml'}: id {config.id!r} does not match the folder name "
            f"{task_dir.name!r}; make them equal"
        )
    return RawTask(dir=task_dir, config=config)


def discover_tasks(raw_root: Path) -> list[Path]:
    """Task folders under `raw_root`, sorted by name (hidden folders skipped)."""
    if not raw_root.is_dir():
        return []
    return sorted(p for p in raw_root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
