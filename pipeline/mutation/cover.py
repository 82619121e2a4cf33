"""Which oracle lines each test runs: line coverage of a Python service, per test.

The baseline run (the unmutated oracle) starts with `COVER_ENV`: a folder first on its
`PYTHONPATH` holds this module's `sitecustomize` and the `coverage` package, so every Python
process start.sh starts measures the oracle's own files (coverage.py). A service process also
listens on a loopback control port; the suite's execution hooks (`stages.execute`) tell it
which test and phase is running (`setup:`, `call:`, `teardown:` and the node id), so the lines
each request runs land in that test's context, and at the end of the session ask it to write
what it measured. A process that ends by itself (a seed script start.sh runs first) writes at
exit. Lines run before any test (imports, start-up) are in the empty context.

Each process writes one JSON file `{context: {file: [lines]}}` (files relative to the oracle
folder) into the folder `REPOGENESIS_COVER_OUT` names; `read_coverage` merges them. A service
that measured no test (it forks its workers, runs another language, or never asked) leaves no
test context: the runner then goes by routes or runs every test.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import coverage

SITECUSTOMIZE = r'''
"""Measure this process's lines for RepoGenesis (added to PYTHONPATH by the mutation runner)."""
import atexit, json, os, socket, threading


def _start():
    out, source = os.environ.get("REPOGENESIS_COVER_OUT"), os.environ.get("REPOGENESIS_COVER_SRC")
    if not out or not source:
        return
    try:
        import coverage
    except ImportError:
        return
    cov = coverage.Coverage(data_file=None, source=[source], branch=False)
    cov.start()
    done = threading.Lock()

    def write():
        if not done.acquire(blocking=False):
            return
        cov.stop()
        data = cov.get_data()
        found = {}
        for context in data.measured_contexts():
            data.set_query_context(context)
            for path in data.measured_files():
                lines = data.lines(path) or []
                if lines:
                    rel = os.path.relpath(path, source)
                    found.setdefault(context, {})[rel] = sorted(lines)
        name = os.path.join(out, "cover-%d.json" % os.getpid())
        with open(name + ".tmp", "w") as fh:
            json.dump(found, fh)
        os.replace(name + ".tmp", name)

    atexit.register(write)
    port = int(os.environ.get("REPOGENESIS_COVER_PORT") or 0)
    if not port:
        return
    try:
        server = socket.create_server(("127.0.0.1", port))
    except OSError:  # another process of the service listens already
        return

    def serve():
        while True:
            conn, _ = server.accept()
            with conn, conn.makefile("rw") as fh:
                for line in fh:
                    command, _, context = line.rstrip("\n").partition(" ")
                    if command == "switch":
                        cov.switch_context(context)
                    elif command == "write":
                        write()
                    fh.write("ok\n")
                    fh.flush()

    threading.Thread(target=serve, name="repogenesis-cover", daemon=True).start()


_start()
'''

COVER_DIR = ".repogenesis-cover"  # in the measured oracle copy (the folder it may write)

# what the execution hooks send: the test's phase and node id (`call:tests/x.py::test_y`)
PHASES = ("setup", "call", "teardown")


def overlay(folder: Path) -> Path:
    """A folder to put first on a service's PYTHONPATH: `sitecustomize.py` and `coverage`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    package = Path(coverage.__file__).parent
    link = folder / "coverage"
    if not link.exists():
        try:
            link.symlink_to(package, target_is_directory=True)
        except OSError:
            shutil.copytree(package, link)
    return folder


def cover_env(overlay_dir: Path, oracle: Path, out: Path, port: int) -> dict[str, str]:
    """The service's extra environment for a measured run."""
    out.mkdir(parents=True, exist_ok=True)
    out.chmod(0o777)  # the sandboxed service writes as a uid of its own
    return {"PYTHONPATH": str(overlay_dir), "REPOGENESIS_COVER_SRC": str(oracle.resolve()),
            "REPOGENESIS_COVER_OUT": str(out), "REPOGENESIS_COVER_PORT": str(port)}


Coverage = dict[str, dict[str, set[int]]]  # context -> oracle file -> lines run


def read_coverage(out: Path) -> Coverage:
    """Every process's measurement in `out`, merged per context."""
    merged: Coverage = {}
    for path in sorted(out.glob("cover-*.json")):
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for context, files in found.items():
            for file, lines in files.items():
                rel = Path(os.path.normpath(file)).as_posix()
                merged.setdefault(context, {}).setdefault(rel, set()).update(lines)
    return merged


def measured_tests(cov: Coverage) -> bool:
    """Whether the service saw any test body run (else its lines say nothing per test)."""
    return any(c.startswith("call:") for c in cov)
