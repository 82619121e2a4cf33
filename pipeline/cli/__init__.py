"""The command line (`repogenesis`, `python -m pipeline`): the top layer. `common` holds the app
and the shared options; each other module registers one group of commands on import, and only
this package imports them, so no command module imports another.
"""

# --help lists the commands in the order they register: a task's life.
# isort: off
from pipeline.cli import tasks  # noqa: F401
from pipeline.cli import build  # noqa: F401
from pipeline.cli import evaluate  # noqa: F401
from pipeline.cli import results  # noqa: F401
from pipeline.cli.chair import chair_app
from pipeline.cli.common import app
# isort: on

app.add_typer(chair_app, name="chair")

__all__ = ["app"]
