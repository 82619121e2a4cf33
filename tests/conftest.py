"""Shared test helpers: tiny stdlib-only tasks that start in well under a second."""

from __future__ import annotations

import signal
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

# A suite started as a background job of a non-interactive shell (`./dev.sh test &` in a
# script) inherits SIGINT ignored, and so would every child it starts: the Ctrl-C tests would
# then test nothing. Python handles it again here, so children start with the default action.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

README = textwrap.dedent("""\
    # Ping service

    ## Endpoints

    ### GET /ping

    Returns `{"pong": true}` with status `200`.

    ### GET /items/{id}

    Returns one item; `404` when it does not exist.
    """)

# A stdlib-only oracle: no requirements, so the bare cached environment serves it.
SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/ping":
                self.reply(200, {"pong": True})
            elif re.fullmatch(r"/items/[^/]+", self.path):
                self.reply(404, {"error": "item not found"})
            else:
                self.reply(404, {"error": "no route"})

        def reply(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    ThreadingHTTPServer(("0.0.0.0", int(os.environ["PORT"])), H).serve_forever()
    """)


def make_task(root: Path, task_id: str, port: int, *, readme: str | None = README,
              server: str = SERVER, toml: str | None = None) -> Path:
    d = root / task_id
    (d / "oracle").mkdir(parents=True)
    (d / "task.toml").write_text(toml if toml is not None else textwrap.dedent(f"""\
        id = "{task_id}"
        language = "python"
        framework = "stdlib"
        domain = "test"
        source = "expert"
        port = {port}
        split = "train"
        """))
    if readme is not None:
        (d / "README.md").write_text(readme)
    (d / "oracle" / "server.py").write_text(server)
    start = d / "oracle" / "start.sh"
    start.write_text('#!/usr/bin/env bash\nset -e\ncd "$(dirname "$0")"\nexec python3 server.py\n')
    start.chmod(0o755)
    return d


# A hand-rolled router: `@app.get` is read statically, the loop's routes only at run time.
ROUTER = textwrap.dedent("""\
    import json, os
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    ROUTES = {}

    class App:
        @staticmethod
        def get(path):
            def deco(fn):
                ROUTES[("GET", path)] = fn
                return fn
            return deco

    app = App()

    @app.get("/ping")
    def ping():
        return 200, {"pong": True}

    for _name in ("status",):
        ROUTES[("GET", "/" + _name)] = lambda: (200, {"ok": True})

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            handler = ROUTES.get(("GET", self.path))
            status, body = handler() if handler else (404, {"error": "no route"})
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), H).serve_forever()
    """)


make_task.README = README  # type: ignore[attr-defined]
make_task.ROUTER = ROUTER  # type: ignore[attr-defined]
make_task.SERVER = SERVER  # type: ignore[attr-defined]


@pytest.fixture()
def task_factory() -> Callable[..., Path]:
    return make_task
