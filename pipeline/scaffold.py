"""`new-task`: scaffold a raw task folder that `check` then explains how to complete."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import tomli_w
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PackageLoader, StrictUndefined

from pipeline.languages import UnknownLanguage, get_language
from pipeline.records import TaskConfig
from pipeline.tasks import TaskError, check_task_id, discover_tasks, parse_task_config

TODO_MARK = "TODO(repogenesis)"
FIRST_PORT = 8101
_env = Environment(
    loader=PackageLoader("pipeline", "templates"),
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)


def render(name: str, template_dir: Path | None = None, **values: object) -> str:
    """Render a template of pipeline/templates (or of `template_dir` first, when given)."""
    if template_dir is None:
        return _env.get_template(name).render(**values)
    env = _env.overlay(loader=ChoiceLoader([FileSystemLoader(template_dir), _env.loader]))
    return env.get_template(name).render(**values)


def next_free_port(raw_root: Path) -> int:
    """One above the highest port any existing task uses, so bundled tasks never collide."""
    used = set()
    for task_dir in discover_tasks(raw_root):
        try:
            used.add(parse_task_config(task_dir / "task.toml").port)
        except TaskError:
            continue
    return max(used, default=FIRST_PORT - 1) + 1


def write_task_toml(path: Path, config: TaskConfig) -> None:
    data = config.model_dump(exclude_none=True)
    if "upstream" in data and not data["upstream"]:
        del data["upstream"]
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def write_executable(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o755)


@dataclass(frozen=True)
class Placement:
    """Where a new task sits among the others: its port (None: one above every other task's,
    so bundled tasks never collide) and the split it joins ("auto": decided with the rest)."""

    port: int | None = None
    split: str = "auto"


def new_task(
    raw_root: Path,
    task_id: str,
    language: str,
    framework: str,
    domain: str,
    placement: Placement | None = None,
) -> Path:
    place = placement or Placement()
    check_task_id(task_id)
    try:
        lang = get_language(language)
    except UnknownLanguage as exc:
        raise TaskError(f"--language: {exc}") from None
    task_dir = raw_root / task_id
    if task_dir.exists():
        raise TaskError(f"{task_dir}: already exists; pick another id or edit that task")
    config = TaskConfig(
        id=task_id,
        language=language,
        framework=framework.lower(),
        domain=domain,
        source="expert",
        port=place.port or next_free_port(raw_root),
        split=place.split,
    )
    values = config.model_dump() | {"title": task_id.replace("-", " ").replace("_", " ").title()}
    (task_dir / "oracle").mkdir(parents=True)
    (task_dir / "tests").mkdir()
    write_task_toml(task_dir / "task.toml", config)
    (task_dir / "README.md").write_text(render("new_task/README.md.j2", **values), encoding="utf-8")
    for rel, template in sorted(lang.templates.items()):
        text = render(template, lang.template_dir, **values).strip()
        if not text:  # e.g. no requirements for a framework the template does not know
            continue
        if rel.endswith(".sh"):
            write_executable(task_dir / rel, text + "\n")
        else:
            (task_dir / rel).write_text(text + "\n", encoding="utf-8")
    (task_dir / "tests" / "conftest.py").write_text(render("new_task/conftest.py.j2", **values))
    return task_dir
