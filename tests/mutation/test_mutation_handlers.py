"""Mutants mapped to the endpoint whose handler they change, and a case's own mutants."""

from __future__ import annotations

from pathlib import Path

from pipeline.mutation.handlers import (
    mutant_endpoints,
    oracle_mutant_endpoints,
    own_mutants,
    parse_keys,
    python_spans,
)
from pipeline.mutation.operators import python_mutants
from pipeline.routes import Route

APP = '''from flask import Flask, jsonify, request

app = Flask(__name__)
LINKS = {}


def db():
    return LINKS


def matches(link, tag):
    return tag is None or tag in link["tags"]


@app.get("/links")
def list_links():
    tag = request.args.get("tag")
    return jsonify([v for v in db().values() if matches(v, tag)])


@app.post("/links")
def create_link():
    data = request.get_json()
    db()[data["code"]] = data
    return jsonify(data), 201


@app.get("/links/<code>")
def get_link(code):
    if code not in db():
        return jsonify({"error": "not_found"}), 404
    return jsonify(db()[code])
'''
ROUTES = [Route("GET", "/links", file="app.py", line=15),
          Route("POST", "/links", file="app.py", line=21),
          Route("GET", "/links/{code}", file="app.py", line=28)]
KEYS = ["GET /links", "POST /links", "GET /links/{id}"]


def _line(text: str) -> int:
    return next(i for i, ln in enumerate(APP.splitlines(), 1) if text in ln)


def test_a_handler_span_starts_at_its_decorator_and_takes_its_own_helpers():
    spans = python_spans(APP, {"GET /links": 15, "POST /links": 21})
    # the handler (decorator to last line) and `matches`, which only it calls; `db()` is
    # called by both handlers here, under the plumbing limit, so it is theirs too
    assert (15, 18) in spans["GET /links"]
    assert (_line("def matches"), _line("return tag is None")) in spans["GET /links"]
    assert (_line("def matches"), _line("return tag is None")) not in spans["POST /links"]


def test_each_mutant_maps_to_the_endpoint_whose_code_it_changes():
    mutants = [m.summary() for m in python_mutants("app.py", APP)]
    by_mutant = mutant_endpoints({"app.py": APP}, ROUTES, parse_keys(KEYS), mutants)
    on = {m["line"]: by_mutant.get(m["id"], []) for m in mutants}
    assert on[_line("return tag is None")] == ["GET /links"]  # the filter helper
    assert on[_line('return jsonify(data), 201')] == ["POST /links"]
    assert on[_line('"not_found"}), 404')] == ["GET /links/{id}"]  # documented name differs
    assert _line("LINKS = {}") not in on or on[_line("LINKS = {}")] == []


def test_a_mutant_outside_every_handler_maps_to_no_endpoint():
    mutants = [{"id": "app.py:4:x:1", "file": "app.py", "line": 4},
               {"id": "other.py:16:x:1", "file": "other.py", "line": 16}]
    assert mutant_endpoints({"app.py": APP}, ROUTES, parse_keys(KEYS), mutants) == {}


def test_own_mutants_count_only_those_that_ran_and_name_other_killers():
    by_mutant = {"m1": ["GET /links"], "m2": ["GET /links"], "m3": ["POST /links"],
                 "m4": ["GET /links"]}
    detail = [{"id": "m1", "status": "killed", "killed_by": ["other"]},
              {"id": "m2", "status": "survived", "killed_by": []},
              {"id": "m3", "status": "killed", "killed_by": ["other"]},
              {"id": "m4", "status": "stillborn", "killed_by": []}]
    own = own_mutants("mine", ["GET /links"], by_mutant, detail)
    assert own.mutants == ["m1", "m2"] and own.killed_by_others == ["m1"]
    alone = own_mutants("other", ["GET /links"], by_mutant, detail)
    assert alone.killed_by_others == []  # its own kill is not someone else's


def test_the_bundled_oracle_maps_realistic_mutants_to_their_endpoint():
    oracle = Path(__file__).resolve().parents[2] / "data/raw/url-shortener/oracle"
    text = (oracle / "app.py").read_text(encoding="utf-8")
    mutants = [m.summary() for m in python_mutants("app.py", text)]
    by_mutant = oracle_mutant_endpoints(oracle, {"app.py": text},
                                        ["GET /short-links", "POST /short-links"], mutants)
    def kinds(key: str) -> set[str]:
        return {m["operator"] for m in mutants if by_mutant.get(m["id"]) == [key]}

    assert "sort_ignored" in kinds("GET /short-links") - kinds("POST /short-links")
    assert "write_not_persisted" in kinds("POST /short-links") - kinds("GET /short-links")
    assert {k for v in by_mutant.values() for k in v} <= {"GET /short-links", "POST /short-links"}


def test_a_round_report_gives_each_case_its_endpoint_evidence():
    """The build stage's per-case evidence carries its endpoints' mutants and other kills."""
    from pipeline.records import TestCase
    from pipeline.stages.mutate import _case_evidence

    def case(name: str, endpoint: str) -> TestCase:
        return TestCase(case_id=f"t::{name}", task_id="t", round=0, category="api_compliance",
                        name=name, code="def test_x():\n    assert True\n",
                        endpoints=[endpoint])

    shape, values = case("shape", "GET /links"), case("values", "GET /links")
    create = case("create", "POST /links")
    report = {"valid": 3, "killed": 2, "per_test": {
        "t::shape": {"killed": ["m3"], "score": 1 / 3},
        "t::values": {"killed": ["m1"], "score": 1 / 3},
        "t::create": {"killed": ["m3"], "score": 1 / 3}},
        "mutants_detail": [
            {"id": "m1", "status": "killed", "killed_by": ["t::values"]},
            {"id": "m2", "status": "survived", "killed_by": []},
            {"id": "m3", "status": "killed", "killed_by": ["t::create", "t::shape"]}]}
    by_mutant = {"m1": ["GET /links"], "m2": ["GET /links"], "m3": ["POST /links"]}
    weak = _case_evidence(shape, report, by_mutant)
    assert weak.endpoint_mutants == ["m1", "m2"] and weak.endpoint_killed_by_others == ["m1"]
    strong = _case_evidence(values, report, by_mutant)
    assert strong.endpoint_killed_by_others == [] and strong.killed == ["m1"]
    assert _case_evidence(create, report, by_mutant).endpoint_killed_by_others == ["m3"]
