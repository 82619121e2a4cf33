import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pipeline.scaffold import TODO_MARK, new_task
from pipeline.tasks import TaskError, load_task


def test_new_task_scaffolds_a_loadable_task(tmp_path: Path) -> None:
    task_dir = new_task(tmp_path, "todo-api", "python", "fastapi", "productivity")
    task = load_task(task_dir)
    assert task.config.framework == "fastapi"
    assert task.config.source == "expert"
    assert os.access(task.start_script, os.X_OK)
    assert "uvicorn" in task.start_script.read_text()
    assert "fastapi" in (task.oracle_dir / "requirements.txt").read_text()
    assert TODO_MARK in task.readme.read_text()
    assert (task.tests_dir / "conftest.py").is_file()


def test_new_task_ports_do_not_collide(tmp_path: Path) -> None:
    first = load_task(new_task(tmp_path, "a", "python", "flask", "x")).config.port
    second = load_task(new_task(tmp_path, "b", "java", "httpserver", "x")).config.port
    assert second == first + 1
    java = load_task(tmp_path / "b")
    assert "javac" in java.start_script.read_text()
    assert not (java.oracle_dir / "requirements.txt").exists()


@pytest.mark.parametrize("bad", ["../evil", "/abs", "a b", "-x", ".hidden", "x" * 65])
def test_new_task_refuses_unsafe_ids(tmp_path: Path, bad: str) -> None:
    with pytest.raises(TaskError, match="not a plain name"):
        new_task(tmp_path, bad, "python", "flask", "x")
    assert list(tmp_path.iterdir()) == []


def test_new_task_never_overwrites(tmp_path: Path) -> None:
    task_dir = new_task(tmp_path, "keep", "python", "flask", "x")
    (task_dir / "README.md").write_text("my work")
    with pytest.raises(TaskError, match="already exists"):
        new_task(tmp_path, "keep", "python", "flask", "x")
    assert (task_dir / "README.md").read_text() == "my work"


def test_cli_new_task(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pipeline",
            "new-task",
            "svc",
            "--framework",
            "flask",
            "--domain",
            "books",
            "--port",
            "9100",
            "--data",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    data = tomllib.loads((tmp_path / "raw" / "svc" / "task.toml").read_text())
    assert data == {
        "id": "svc",
        "language": "python",
        "framework": "flask",
        "domain": "books",
        "source": "expert",
        "port": 9100,
        "split": "auto",
    }
    again = subprocess.run(
        [sys.executable, "-m", "pipeline", "new-task", "svc", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert again.returncode == 1
    assert again.stderr.count("\n") == 1 and "already exists" in again.stderr


def test_docs_named_by_the_readme_and_scaffolds_are_in_the_repository() -> None:
    """A clone has every document the README, the templates and the code point to."""
    import re

    root = Path(__file__).resolve().parent.parent
    sources = [root / "README.md", *sorted((root / "pipeline").rglob("*.j2")),
               *sorted((root / "pipeline").rglob("*.py"))]
    named = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        assert "/work/shared" not in text and "DESIGN.md" not in text, path
        named |= set(re.findall(r"\bdocs/[\w.-]+\.md\b", text))
    assert "docs/design.md" in named
    assert all((root / doc).is_file() for doc in named), named
