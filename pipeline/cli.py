"""Command-line entry point: parses arguments, calls stages, prints."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="RepoGenesis pipeline.")


@app.callback()
def main() -> None:
    """Build a verified benchmark of REST microservice tasks."""
