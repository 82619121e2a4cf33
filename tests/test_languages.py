"""The language registry: one definition of a service's source files, per-language rules behind
one lookup, and a toy third language added from this test alone (no pipeline code changes)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from pipeline.execution.envs import TaskEnv, ensure_task_env
from pipeline.languages import (
    Language,
    UnknownLanguage,
    get_language,
    guess_language,
    interpreter_names,
    names,
    register,
    unregister,
)
from pipeline.mutation import oracle_mutants
from pipeline.mutation.model import Edit, apply_edit, mutate_status, name_mutants
from pipeline.mutation.runner import read_oracle_sources
from pipeline.routes import extract_routes
from pipeline.routes.model import Route
from pipeline.scaffold import Placement, new_task
from pipeline.stages.difficulty import source_files as difficulty_files
from pipeline.stages.difficulty import task_difficulty
from pipeline.tasks import TaskError, load_task

PACKAGE = Path(__file__).resolve().parents[1] / "pipeline"


def _write(root: Path, rel: str, text: str = "x = 1\n") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# --- one definition of source files ---------------------------------------------------------

def test_difficulty_routes_and_mutation_read_the_same_source_files(tmp_path: Path) -> None:
    for rel in ("app.py", "pkg/__init__.py", "pkg/views.py", "pkg/migrations/0001_initial.py",
                "pkg/tests.py", "test_app.py", "conftest.py", "build/lib/app.py",
                "tests/helpers.py", ".hidden/x.py", "env1/lib/site.py", "src/Main.java",
                "src/MainTest.java", "target/classes/Gen.java"):
        _write(tmp_path, rel, "" if rel.endswith("__init__.py") else "x = 1\n")
    (tmp_path / "env1" / "pyvenv.cfg").write_text("home = /usr\n")
    expected_py = ["app.py", "pkg/views.py"]
    rel = lambda paths: [p.relative_to(tmp_path).as_posix() for p in paths]  # noqa: E731

    assert rel(difficulty_files(tmp_path, "python")) == expected_py
    assert sorted(read_oracle_sources(tmp_path, "python")) == expected_py
    assert rel(get_language("java").source_files(tmp_path)) == ["src/Main.java"]
    assert sorted(read_oracle_sources(tmp_path, "java")) == ["src/Main.java"]


def test_a_comment_only_init_still_counts_but_a_blank_one_does_not(tmp_path: Path) -> None:
    _write(tmp_path, "a/__init__.py", "   \n\n")
    _write(tmp_path, "b/__init__.py", "from .x import y\n")
    got = get_language("python").source_files(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in got] == ["b/__init__.py"]


def test_unknown_language_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    with pytest.raises(UnknownLanguage, match=r"'cobol' is not known .*pipeline/builtin_languages"):
        get_language("cobol")
    task = tmp_path / "t"
    task.mkdir()
    (task / "task.toml").write_text('id = "t"\nlanguage = "cobol"\nframework = "x"\n'
                                    'domain = "d"\nsource = "expert"\nport = 8200\n')
    with pytest.raises(TaskError) as err:
        load_task(task)
    assert "cobol" in str(err.value) and "\n" not in str(err.value)


def test_unknown_language_in_new_task_and_evaluate_is_a_clear_error(tmp_path: Path) -> None:
    from pipeline.evaluate import EvaluateError
    from pipeline.evaluate import load_task as load_output_task

    with pytest.raises(TaskError, match=r"^--language: language 'cobol' is not known"):
        new_task(tmp_path / "raw", "t", "cobol", "x", "d")
    assert not (tmp_path / "raw" / "t").exists()
    out = tmp_path / "out"
    (out / "tests").mkdir(parents=True)
    (out / "task.json").write_text(json.dumps({"id": "t", "language": "cobol", "port": 8200}))
    with pytest.raises(EvaluateError, match="language 'cobol' is not known"):
        load_output_task(out)


def test_guess_language_counts_each_languages_suffixes() -> None:
    assert guess_language([Path("A.java"), Path("B.java"), Path("c.py")]) == "java"
    assert guess_language([Path("A.java"), Path("c.py")]) == "python"  # tie: the first
    assert guess_language([Path("README.md")]) == "python"


def test_no_module_outside_the_registry_branches_on_a_language_name() -> None:
    branch = re.compile(r"""language\s*[!=]=\s*["']|["'](java|python)["']\s+if\s""")
    offenders = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not {"languages", "builtin_languages"} & set(path.parts)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if branch.search(line)
    ]
    assert offenders == []


def test_mutation_package_imports_without_a_circle() -> None:
    import subprocess

    for module in ("pipeline.mutation.java", "pipeline.mutation.operators",
                   "pipeline.builtin_languages.java", "pipeline.routes", "pipeline.records"):
        proc = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr[-500:]
    for path in (PACKAGE / "mutation").glob("*.py"):
        assert not re.search(r"^[ \t]+from \.", path.read_text(), re.M), f"local import in {path}"


# --- a toy third language, registered from here --------------------------------------------

ROUTE_LINE = re.compile(r"^# route: ([A-Z]+) (\S+)$", re.M)
STATUS_ARG = re.compile(r"_send\((\d{3})")

TOY_SERVICE = '''# route: GET /ping
# route: POST /items
import json
import os
from http.server import BaseHTTPRequestHandler, HTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/ping":
            self._send(200, {"ok": True})
        else:
            self._send(404, {"error": "not found"})

    def do_POST(self):
        if self.path != "/items":
            self._send(404, {"error": "not found"})
            return
        size = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(size) or b"{}")
        if "name" not in body:
            self._send(400, {"error": "name is required"})
            return
        self._send(201, {"name": body["name"]})

    def _send(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


HTTPServer(("0.0.0.0", int(os.environ["PORT"])), Handler).serve_forever()
'''
TOY_README = """# Toy items

## Endpoints

### GET /ping
Answers `{"ok": true}` with 200.

### POST /items
Creates an item. Body: `{"name": "string"}`. Returns 201, or 400 when `name` is missing.
"""
TOY_START = '#!/bin/sh\n# toy: run by the `toy` interpreter of the toy environment\n' \
            'cd "$(dirname "$0")"\nexec toy service.toy\n'


def _toy_routes(root: Path, files: list[Path]) -> list[Route]:
    out = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(root).as_posix()
        out += [Route(m.group(1), m.group(2), file=rel, framework="toy")
                for m in ROUTE_LINE.finditer(text)]
    return out


def _toy_mutants(path: str, source: str):
    kept = []
    for m in STATUS_ARG.finditer(source):
        line = source.count("\n", 0, m.start(1)) + 1
        new = str(mutate_status(int(m.group(1))))
        edit = Edit(m.start(1), m.end(1), line, "status_code", f"{m.group(1)} -> {new}", new)
        kept.append((edit, apply_edit(source, edit)))
    return name_mutants(path, kept)


def _toy_env(source_dir: Path, cache_root: Path | None) -> TaskEnv:
    """An 'environment' whose bin holds the `toy` interpreter (this Python, by another name)."""
    env = (cache_root or source_dir.parent) / "toy-env"
    toy = env / "bin" / "toy"
    toy.parent.mkdir(parents=True, exist_ok=True)
    toy.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    toy.chmod(0o755)
    return TaskEnv(env, "toy", reused=False)


@pytest.fixture
def toy(tmp_path: Path):
    templates = tmp_path / "toy-templates"
    templates.mkdir()
    (templates / "start.sh.j2").write_text(TOY_START)
    lang = register(Language(
        name="toy", suffixes=(".toy",), routes=_toy_routes, mutants=_toy_mutants,
        count_types=lambda path, text: text.count("\nclass "), environment=_toy_env,
        templates={"oracle/start.sh": "start.sh.j2"}, template_dir=templates,
        frameworks=(("http.server", "toyhttp"),), default_framework="toyhttp",
        programs=("toy",),
    ))
    yield lang
    unregister("toy")
    assert "toy" not in names()


@pytest.fixture
def toy_task(toy, tmp_path: Path) -> Path:
    """A raw task in the toy language, scaffolded by `new-task` and then completed."""
    task = new_task(tmp_path / "raw", "toy-items", "toy", "toyhttp", "items", Placement(port=8290))
    (task / "README.md").write_text(TOY_README, encoding="utf-8")
    (task / "oracle" / "service.toy").write_text(TOY_SERVICE, encoding="utf-8")
    return task


def test_toy_language_gets_scaffold_difficulty_routes_and_mutants(toy_task: Path) -> None:
    oracle = toy_task / "oracle"
    assert (oracle / "start.sh").read_text() == TOY_START  # from the toy's own template
    assert not (oracle / "requirements.txt").exists()  # a Python rule, not the toy's
    assert load_task(toy_task).config.language == "toy"

    difficulty = task_difficulty(toy_task)
    assert difficulty.metrics.files == 1
    assert difficulty.metrics.endpoints == 2
    assert difficulty.metrics.functions_classes >= 1  # the toy counts its one class

    routes = {(r.method, r.path, r.framework) for r in extract_routes(oracle)}
    assert routes == {("GET", "/ping", "toy"), ("POST", "/items", "toy")}
    assert extract_routes(oracle, "python") == []

    mutants = oracle_mutants(read_oracle_sources(oracle, "toy"), "toy")
    assert [m.description for m in mutants] == ["200 -> 201", "404 -> 400", "404 -> 400",
                                                 "400 -> 422", "201 -> 200"]
    assert all(m.file == "service.toy" for m in mutants)
    assert guess_language([Path("a.toy"), Path("b.toy"), Path("c.py")]) == "toy"
    assert interpreter_names()[-1] == "toy"  # the sandbox lets the toy interpreter be read


TOY_CONFTEST = '''import os

import pytest


@pytest.fixture
def base_url():
    return os.environ.get("SERVICE_BASE_URL", "http://localhost:8290")
'''
TOY_TESTS = '''import json
import urllib.error
import urllib.request


def _call(base_url, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base_url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_ping(base_url):
    assert _call(base_url, "GET", "/ping") == (200, {"ok": True})


def test_create_item(base_url):
    assert _call(base_url, "POST", "/items", {"name": "a"}) == (201, {"name": "a"})


def test_create_item_without_name(base_url):
    assert _call(base_url, "POST", "/items", {})[0] == 400
'''


@pytest.mark.slow
def test_toy_oracle_starts_in_its_environment_and_passes_evaluate(toy_task: Path,
                                                                   tmp_path: Path) -> None:
    from pipeline.evaluate import evaluate_candidate
    from pipeline.execution import free_port
    from pipeline.mutation import MutationOptions, run_mutation

    cache = tmp_path / "cache"
    out = tmp_path / "out" / "toy-items"
    (out / "tests").mkdir(parents=True)
    (out / "tests" / "conftest.py").write_text(TOY_CONFTEST)
    (out / "tests" / "test_items.py").write_text(TOY_TESTS)
    cases = [{"id": f"c{i}", "file": "tests/test_items.py", "name": name}
             for i, name in enumerate(("test_ping", "test_create_item",
                                       "test_create_item_without_name"))]
    (out / "task.json").write_text(json.dumps({
        "id": "toy-items", "language": "toy", "framework": "toyhttp", "port": free_port(),
        "endpoints": [{"method": "GET", "path": "/ping"}, {"method": "POST", "path": "/items"}],
        "test_cases": cases}))

    result = evaluate_candidate(out, toy_task / "oracle", cache_dir=cache,
                                startup_timeout_s=30, test_timeout_s=120)
    assert result["dsr"], result["dsr_reason"]
    assert result["pass_at_1"] == 1.0 and result["tests_passed"] == 3
    assert result["api_coverage"] == 1.0
    assert (cache / "toy-env" / "bin" / "toy").is_file()  # started through the toy's env

    env = ensure_task_env(toy_task / "oracle", "toy", root=cache)
    report = run_mutation(toy_task / "oracle", "toy", out / "tests",
                          options=MutationOptions(cap=None, jobs=1,
                                                  env_bin=env.bin if env else None))
    assert report["candidates"] == 5
    assert report["baseline"]["passed"] == 3
    # the status swaps on /ping, the 400 and the 201 are caught; no test asks for a 404
    assert (report["valid"], report["killed"]) == (5, 3)
    survived = {m["description"] for m in report["mutants_detail"] if m["status"] == "survived"}
    assert survived == {"404 -> 400"}
