"""A responder that plays the models for whole builds against the fake server.

The generator's answers are the offline generator's test code for the endpoint and category
the prompt asks for, the refiner hands the code back unchanged, and each reviewer scores from
the execution evidence in its prompt (passed on the oracle: high; else low). Why: a build
against the fake server then does what a build against real models does (tests that run,
reviews that route, refines that rerun), so its timing and its state are a build's, not those
of schema-shaped filler that every stage discards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pipeline.offline.generate import generate_cases
from pipeline.spec import load_spec


def strings(value: Any) -> Iterator[str]:
    """Every string inside a request body (messages, parts, system blocks)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


class OfflineModels:
    """`responder(provider, body) -> answer` over the tasks under `raw` (a `data/raw`)."""

    def __init__(self, raw: Path) -> None:
        self.cases: dict[tuple[str, str], list[Any]] = {}
        for task_dir in sorted(raw.iterdir()):
            if not (task_dir / "task.toml").is_file():
                continue
            spec = load_spec(task_dir / "README.md")
            for case in generate_cases(task_dir.name, spec):
                key = (case.endpoints[0] if case.endpoints else "", case.category)
                self.cases.setdefault(key, []).append(case)

    def __call__(self, provider: str, body: dict) -> dict:
        text = "\n".join(strings(body))
        wanted = re.search(r"Write \d+ test\(s\) of category `(\w+)`", text)
        if wanted:
            target = re.search(r"Target endpoint: (.+)", text)
            chosen = self.cases.get(
                (target.group(1).strip() if target else "", wanted.group(1)), [])[:2]
            return {"tests": [{"name": c.name, "endpoints": c.endpoints, "code": c.code}
                              for c in chosen]}
        if "Revise the test" in text:
            code = re.search(r"Current code:\n```python\n(.*?)\n```", text, re.S)
            return {"changes": "none", "answers": [], "code": code.group(1) if code else ""}
        runs = re.search(r"Runs on fresh oracles: ([^;\n]*)", text)
        passed = runs is not None and all(
            run.strip().startswith("passed") for run in runs.group(1).split(","))
        scores = (3, 2, 2, 2) if passed else (0, 1, 1, 1)
        return {"rationale": f"{provider} read the evidence: {'passed' if passed else 'failed'}",
                "correctness": scores[0], "coverage": scores[1], "readability": scores[2],
                "relevance": scores[3]}
