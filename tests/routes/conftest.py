"""Fixture projects under fixtures/ are services to read, not tests to collect."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.routes import Route, extract_routes

collect_ignore_glob = ["fixtures/*"]
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def extract_fixture():
    def run(name: str) -> list[Route]:
        return extract_routes(FIXTURES / name)

    return run


@pytest.fixture
def write_tree(tmp_path: Path):
    """Write {relative path: source} into tmp_path and return the folder."""

    def run(files: dict[str, str]) -> Path:
        for rel, text in files.items():
            path = tmp_path / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return tmp_path

    return run
