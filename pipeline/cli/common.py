"""What every command shares: the Typer app they register on, the common options, the
one-line error exit, JSON output and where a data folder keeps its build state."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="RepoGenesis pipeline: build a verified benchmark of REST microservice tasks.",
)

DataOpt = Annotated[
    Path, typer.Option("--data", help="Data folder (holds raw/, verified/, train/).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON only.")]


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


@app.callback()
def main() -> None:
    """Build a verified benchmark of REST microservice tasks."""


def state_db(data: Path) -> Path:
    return data / ".repogenesis" / "state.db"


def built_state_db(data: Path) -> Path:
    """The state database of a data folder a build has run in, or a one-line error."""
    if not state_db(data).is_file():
        fail(f"no build state in {data}; run `repogenesis build --data {data}` first")
    return state_db(data)
