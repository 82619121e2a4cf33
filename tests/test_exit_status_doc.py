"""README's exit-status table matches the CLI: one row per command, and what it says each
command exits with, the command does (in-process, on an empty data folder)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pipeline.cli import app

ROOT = Path(__file__).resolve().parent.parent
# the least each command needs to get past argument parsing
ARGS = {"forget": ["x"], "chair show": ["x"], "chair decide": ["x", "--reject", "vague"],
        "chair add-user": ["bob"], "resplit": ["--seed", "1"],
        "report": ["--out", "{tmp}/r.html"], "export": ["--out", "{tmp}/e"],
        "collect": ["{tmp}/none", "--id", "x"], "new-task": ["x"], "spec": ["README.md"],
        "difficulty": ["."], "evaluate": ["--task", "x", "--candidate", "y"]}


def documented() -> dict[str, tuple[str, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Exit status", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z -]+)` \| (.+?) \| (.+?) \|$", section, flags=re.M)
    return {name: (ok, err) for name, ok, err in rows}


def registered() -> set[str]:
    root = typer.main.get_command(app)
    names = set()
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        if hasattr(command, "commands"):  # a group (chair)
            names |= {f"{name} {sub}" for sub in command.commands}
        else:
            names.add(name)
    return names


def invoke(name: str, extra: list[str], tmp: Path) -> object:
    args = [a.format(tmp=tmp) for a in ARGS.get(name, [])]
    return CliRunner().invoke(app, [*name.split(), *args, *extra])


def test_every_command_has_one_row() -> None:
    assert set(documented()) == registered()


@pytest.mark.parametrize("name", sorted(n for n, (_, err) in documented().items()
                                        if "no build state" in err))
def test_commands_that_say_no_build_state_exit_1_with_one_line(name: str,
                                                               tmp_path: Path) -> None:
    result = invoke(name, ["--data", str(tmp_path / "data")], tmp_path)
    assert result.exit_code == 1, result.output
    assert "no build state" in result.output and result.output.count("\n") == 1


@pytest.mark.parametrize("name", sorted(registered()))
def test_a_usage_error_exits_2(name: str, tmp_path: Path) -> None:
    assert invoke(name, ["--no-such-option"], tmp_path).exit_code == 2
