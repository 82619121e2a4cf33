"""Fast pieces of evaluate: the start-script rule, the workspace copy, test-outcome merging."""

from __future__ import annotations

import os
from dataclasses import dataclass

from pipeline.evaluate import find_start_script
from pipeline.evaluate.run import merge_outcomes
from pipeline.evaluate.workspace import workspace


def test_start_script_rule(tmp_path):
    assert find_start_script(tmp_path) is None
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "start.sh").write_text("#!/bin/sh\n")
    assert find_start_script(tmp_path) == "bin/start.sh"
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "start.sh").write_text("#!/bin/sh\n")
    assert find_start_script(tmp_path) == "scripts/start.sh"
    (tmp_path / "start.sh").mkdir()  # a folder named start.sh is not a script
    assert find_start_script(tmp_path) == "scripts/start.sh"
    (tmp_path / "start.sh").rmdir()
    (tmp_path / "start.sh").write_text("#!/bin/sh\n")
    assert find_start_script(tmp_path) == "start.sh"


def test_workspace_copies_wraps_and_cleans_up(tmp_path):
    cand = tmp_path / "cand"
    (cand / "scripts").mkdir(parents=True)
    (cand / "scripts" / "start.sh").write_text("#!/bin/sh\nexec true\n")
    (cand / ".git").mkdir()
    (cand / ".git" / "HEAD").write_text("ref")
    with workspace(cand, "scripts/start.sh") as ws:
        assert os.access(ws.repo / "start.sh", os.X_OK)
        assert os.access(ws.repo / "scripts" / "start.sh", os.X_OK)
        assert "./scripts/start.sh" in (ws.repo / "start.sh").read_text()
        assert not (ws.repo / ".git").exists()
        (ws.repo / "data").mkdir()
        (ws.repo / "data" / "db").write_text("x")
        (ws.repo / "data").chmod(0o500)  # a read-only folder does not stop the clean-up
        root = ws.root
    assert not root.exists()
    assert not os.access(cand / "scripts" / "start.sh", os.X_OK)  # the original is untouched
    assert not (cand / "start.sh").exists()


@dataclass
class _Outcome:
    nodeid: str
    outcome: str


def test_merge_outcomes_maps_cases_and_keeps_strays():
    cases = [
        {"id": "t::test_a", "name": "test_a", "file": "tests/test_x.py"},
        {"id": "t::test_b", "name": "test_b", "file": "tests/existing/test_y.py"},
        {"id": "t::test_c", "name": "test_c", "file": "tests/test_x.py"},
    ]
    run = [_Outcome("test_x.py::test_a", "passed"),
           _Outcome("existing/test_y.py::Group::test_b[1]", "failed"),
           _Outcome("test_z.py::test_new", "passed")]
    assert merge_outcomes(cases, run) == [
        {"id": "t::test_a", "nodeid": "test_x.py::test_a", "outcome": "passed"},
        {"id": "t::test_b", "nodeid": "existing/test_y.py::Group::test_b[1]",
         "outcome": "failed"},
        {"id": "t::test_c", "outcome": "not_run"},
        {"id": "test_z.py::test_new", "nodeid": "test_z.py::test_new", "outcome": "passed"},
    ]
    assert merge_outcomes(cases[:1], None) == [{"id": "t::test_a", "outcome": "not_run"}]


def test_report_lines():
    from pipeline.evaluate.report import candidate_lines, samples_lines, split_lines

    result = {"task": "t", "language": "python", "port": 8000, "candidate": "/c", "dsr": True,
              "dsr_reason": "start.sh answered", "pass_at_1": 0, "tests_passed": 1,
              "tests_total": 2, "test_pass_rate": 0.5, "api_coverage": 0.5, "routes_found": 1,
              "missing_endpoints": ["POST /x"],
              "tests": [{"id": "a", "outcome": "passed"}, {"id": "b", "outcome": "failed"}]}
    text = "\n".join(candidate_lines(result))
    assert "DSR            yes" in text and "50.0%" in text
    assert "POST /x" in text and "b (failed)" in text
    samples = {"task": "t", "n": 1, "c": 0, "pass_at_k": {"1": 0.0}, "samples": [result]}
    assert "Pass@1 0.0000" in "\n".join(samples_lines(samples))
    metrics = {"dsr": 1.0, "pass_at_1": 0.0, "test_pass_rate": 0.5, "api_coverage": None}
    row = {"id": "t", "candidate": False, **metrics, "dsr": True, "pass_at_1": 0,
           "tests_passed": 1, "tests_total": 2}
    summary = {"tasks": [row], "n_tasks": 1, "metrics": metrics,
               "by_language": {"python": {"n_tasks": 1, **metrics}}}
    text = "\n".join(split_lines(summary))
    assert "no candidate folder" in text and "AC n/a" in text and "python (1)" in text
