"""Difficulty: a weighted composite of five source metrics, classified Easy/Medium/Hard.

`score_difficulty` is pure (tested with hand-worked values); `measure_source` is the
only part that reads files, through lizard.
"""

from __future__ import annotations

from pathlib import Path

import lizard
import yaml
from pydantic import BaseModel

from pipeline.languages import get_language, guess_language
from pipeline.paths import RUBRICS_DIR
from pipeline.records import Difficulty, DifficultyMetrics, DifficultyPoints

METRIC_KEYS = ("loc", "cyclomatic_complexity", "files", "endpoints", "functions_classes")


class Step(BaseModel):
    above: float | None = None
    points: float | None = None
    # `else` is a Python keyword, so the YAML key is read by alias.
    otherwise: float | None = None


class DifficultyTable(BaseModel):
    medium: float
    hard: float
    ladders: dict[str, list[Step]]
    languages: dict[str, dict[str, list[Step]]] = {}

    def ladder(self, metric: str, language: str) -> list[Step]:
        return self.languages.get(language, {}).get(metric) or self.ladders[metric]


def _steps(raw: list[dict]) -> list[Step]:
    return [
        Step(above=s.get("above"), points=s.get("points"), otherwise=s.get("else")) for s in raw
    ]


def load_table(path: Path | None = None) -> DifficultyTable:
    data = yaml.safe_load((path or RUBRICS_DIR / "difficulty.yaml").read_text(encoding="utf-8"))
    return DifficultyTable(
        medium=data["levels"]["medium"],
        hard=data["levels"]["hard"],
        ladders={k: _steps(v) for k, v in data["metrics"].items()},
        languages={
            lang: {k: _steps(v) for k, v in metrics.items()}
            for lang, metrics in (data.get("languages") or {}).items()
        },
    )


def points_for(value: float, ladder: list[Step]) -> float:
    for step in ladder:
        if step.above is not None and value > step.above:
            return float(step.points or 0.0)
        if step.above is None and step.otherwise is not None:
            return float(step.otherwise)
    return 0.0


def level_for(score: float, table: DifficultyTable) -> str:
    if score >= table.hard:
        return "Hard"
    if score >= table.medium:
        return "Medium"
    return "Easy"


def score_difficulty(
    metrics: DifficultyMetrics, language: str, table: DifficultyTable
) -> Difficulty:
    values = metrics.model_dump()
    points = {k: points_for(values[k], table.ladder(k, language)) for k in METRIC_KEYS}
    score = round(sum(points.values()), 4)
    return Difficulty(
        score=score,
        level=level_for(score, table),
        metrics=metrics,
        points=DifficultyPoints(**points),
    )


def source_files(root: Path, language: str) -> list[Path]:
    """The oracle's source files (the registry's one definition, shared with routes, mutation
    and evaluate): tests, build output, migrations and blank files excluded."""
    return get_language(language).source_files(root)


def measure_source(root: Path, language: str, endpoints: int) -> DifficultyMetrics:
    """LOC (lizard's NLOC), total CCN, files, functions+classes of the code under `root`."""
    loc = ccn = funcs = classes = 0
    lang = get_language(language)
    files = lang.source_files(root)
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        info = lizard.analyze_file.analyze_source_code(str(path), text)
        loc += info.nloc
        ccn += sum(f.cyclomatic_complexity for f in info.function_list)
        funcs += len(info.function_list)
        classes += lang.count_types(path, text)
    return DifficultyMetrics(
        loc=loc,
        cyclomatic_complexity=ccn,
        files=len(files),
        endpoints=endpoints,
        functions_classes=funcs + classes,
    )


def task_difficulty(directory: Path, table: DifficultyTable | None = None) -> Difficulty:
    """Difficulty of a raw task (its oracle and README) or of a bare source tree."""
    from pipeline.spec import load_spec
    from pipeline.tasks import TaskError, load_task

    directory = Path(directory)
    if (directory / "task.toml").is_file():
        task = load_task(directory)
        root, language = task.oracle_dir, task.config.language
        if not root.is_dir():
            raise TaskError(f"{root}: missing; a task's oracle source lives in oracle/")
    elif directory.is_dir():
        root = directory
        language = guess_language([p for p in directory.rglob("*") if p.is_file()])
    else:
        raise TaskError(f"{directory}: not a folder; pass a task folder or a source tree")
    readme = directory / "README.md"
    endpoints = len(load_spec(readme).endpoints) if readme.is_file() else 0
    metrics = measure_source(root, language, endpoints)
    return score_difficulty(metrics, language, table or load_table())
