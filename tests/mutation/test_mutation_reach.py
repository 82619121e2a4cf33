"""Running only the tests that can reach a mutant: which handler holds a mutant, which logged
requests a route serves, and (end to end on a Flask oracle) the same kill matrix as running
every test against every mutant, for fewer test runs."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from pipeline.mutation.reach import (
    Sent,
    handler_bodies,
    line_hits,
    mutant_routes,
    reaching,
    read_request_log,
    route_hits,
    serves,
    statement_lines,
)
from pipeline.routes import Route

APP = textwrap.dedent("""\
    from flask import Flask, jsonify

    app = Flask(__name__)
    BOOKS = {}


    def shown(book):
        return {"id": book["id"], "title": book["title"]}


    @app.get("/books/<int:book_id>")
    def get_book(book_id):
        book = BOOKS.get(book_id)
        return jsonify(shown(book)) if book else ("", 404)


    @app.delete("/books/<int:book_id>")
    def drop_book(book_id):
        BOOKS.pop(book_id, None)
        return "", 204


    @app.get("/health")
    def health():
        return jsonify({"ok": True})


    def alias():
        return health()
    """)
ROUTES = [Route("GET", "/books/{book_id}", file="app.py", line=11),
          Route("DELETE", "/books/{book_id}", file="app.py", line=17),
          Route("GET", "/health", file="app.py", line=23)]


def _mutants(*lines: int) -> list[dict[str, object]]:
    return [{"id": f"app.py:{n}", "file": "app.py", "line": n} for n in lines]


def test_a_mutant_in_a_handler_body_belongs_to_its_routes_only() -> None:
    bodies = handler_bodies({"app.py": APP}, ROUTES)
    found = mutant_routes(bodies, _mutants(13, 19, 25, 8, 11, 29))
    assert [r.method for r in found["app.py:13"] or []] == ["GET"]  # get_book's body
    assert [r.method for r in found["app.py:19"] or []] == ["DELETE"]
    assert found["app.py:25"] is None  # health() is called from other code: anything reaches
    assert found["app.py:8"] is None  # a helper: any request may run it
    assert found["app.py:11"] is None  # the decorator line runs at import
    assert found["app.py:29"] is None


def test_a_route_serves_requests_under_any_prefix_and_slash() -> None:
    book = ROUTES[0]
    assert serves(book, "GET", "/books/7") and serves(book, "HEAD", "/books/7/")
    assert serves(book, "GET", "/api/v1/books/7?x=1")  # a prefix the route table lacks
    assert not serves(book, "DELETE", "/books/7") and not serves(book, "GET", "/books")
    assert serves(Route("*", "/static", prefix=True), "GET", "/static/a/b.css")


def test_the_tests_that_reach_a_route_and_every_test_where_it_cannot_tell() -> None:
    ids = ["t.py::test_read", "t.py::test_drop", "t.py::test_other_client", "t.py::test_health"]
    sent = read_request_log("\n".join([
        '{"nodeid": null, "phase": null, "method": "GET", "path": "/health"}',
        '{"nodeid": "t.py::test_read", "phase": "call", "method": "GET", "path": "/books/1"}',
        '{"nodeid": "t.py::test_drop", "phase": "call", "method": "DELETE", "path": "/books/1"}',
        '{"nodeid": "t.py::test_health", "phase": "call", "method": "GET", "path": "/health"}',
        "not json"]))
    assert sent[0] == Sent(None, "setup", "GET", "/health")
    get, delete, health = ([r] for r in ROUTES)
    known = [n for n in ids if n != "t.py::test_other_client"]
    logged = [s for s in sent if s.nodeid != "t.py::test_other_client"]
    assert route_hits(get, logged, known) == {"t.py::test_read"}
    assert reaching({"t.py::test_read"}, logged, known) == ["t.py::test_read"]
    # a test that stores through the mutant: every later test may read what it stored
    assert reaching({"t.py::test_drop"}, logged, known) == ["t.py::test_drop",
                                                            "t.py::test_health"]
    # test_other_client logged nothing: it may reach the service some other way, and it
    # runs after a test that changed the state
    assert route_hits(get, sent, ids) == {"t.py::test_read", "t.py::test_other_client"}
    assert reaching(route_hits(get, sent, ids), sent, ids) == ids
    assert route_hits(health, sent, ids) is None  # sent outside a test body: all depend on it
    fixture = [*sent, Sent("t.py::test_read", "setup", "DELETE", "/books/9")]
    assert route_hits(delete, fixture, ids) is None  # a fixture's request: every test
    assert reaching(None, sent, ids) == ids and reaching(set(), sent, ids) == []


def test_measured_lines_say_which_test_bodies_ran_a_statement() -> None:
    source = "x = 1\nif (a and\n        b):\n    y = {\n        'k': 1}\n"
    assert statement_lines(source, 3) == {2, 3}  # the header of the if
    assert statement_lines(source, 5) == {4, 5}
    assert statement_lines("def (", 1) is None
    lines = {"": {"app.py": {1}}, "call:t.py::test_a": {"app.py": {4, 9}},
             "call:t.py::test_b": {"app.py": {9}}, "setup:t.py::test_b": {"app.py": {12}}}
    assert line_hits(lines, "app.py", {4, 5}) == {"t.py::test_a"}
    assert line_hits(lines, "app.py", {9}) == {"t.py::test_a", "t.py::test_b"}
    assert line_hits(lines, "app.py", {7}) == set()  # no test ran it: not reached
    assert line_hits(lines, "app.py", {1}) is None  # start-up code: every test
    assert line_hits(lines, "app.py", {12}) is None  # a fixture ran it
    assert line_hits(lines, "other.py", {4}) == set()


@pytest.mark.slow
def test_reaching_gives_the_kill_matrix_of_running_every_test(tmp_path: Path) -> None:
    from pipeline.execution import ensure_task_env
    from pipeline.mutation import mutation_report
    from pipeline.offline.generate import generate_cases
    from pipeline.spec import load_spec
    from pipeline.stages.execute import EXEC_HOOKS, REQUEST_LOG
    from pipeline.suites import conftest_source, module_source

    fixture = Path(__file__).parents[1] / "offline" / "fixtures" / "reading-list"
    task = tmp_path / "reading-list"
    shutil.copytree(fixture, task)
    spec = load_spec(task / "README.md")
    env = ensure_task_env(task / "oracle", "python")
    reports = {}
    for mode in ("all", "reaching"):
        suite = tmp_path / f"suite-{mode}"
        suite.mkdir()
        (suite / "conftest.py").write_text(conftest_source(spec, 8000) + EXEC_HOOKS)
        (suite / "test_it.py").write_text(module_source(generate_cases("reading-list", spec)))
        reports[mode] = mutation_report(task, suite, None, cap=24, jobs=2, selection=mode,
                                        request_log=REQUEST_LOG,
                                        env_bin=env.bin if env else None)
    every, some = reports["all"], reports["reaching"]
    assert every["valid"] >= 20 and every["killed"] > 0
    differ = [(a["id"], sorted(set(a["killed_by"]) ^ set(b["killed_by"])))
              for a, b in zip(some["mutants_detail"], every["mutants_detail"], strict=True)
              if a != b]
    assert differ == [] and some["killed"] == every["killed"]
    assert some["per_test"] == every["per_test"]
    ran = some["selection"]
    assert ran["mode"] == "reaching" and (ran["not_reached"] + ran["deselected"]) > 0, ran
    assert every["selection"]["mode"] == "all"
