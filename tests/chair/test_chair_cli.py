"""The Area Chair's terminal path, as a user runs it: queue, show, decide (each outcome),
export/import, add-user, stats, publish; errors are one line with exit status 1."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from pipeline.cli import app
from tests.chair.conftest import TASK

A, B = f"{TASK}::test_a", f"{TASK}::test_b"


def run(data, *args: str):
    result = CliRunner().invoke(app, [*args, "--data", str(data)])
    return result.exit_code, result.stdout, result.stderr


def test_queue_show_decide_and_publish(chair_data) -> None:
    data, store = chair_data
    code, out, _ = run(data, "chair", "queue", "--json")
    assert code == 0
    listed = json.loads(out)
    assert [c["case_id"] for c in listed["cases"]] == [A, B]
    assert listed["counts"]["waiting"] == 2
    code, out, _ = run(data, "chair", "show", A)
    assert code == 0 and "def test_a" in out and "offline:spec" in out and "kills 3 of 5" in out
    code, out, _ = run(data, "chair", "decide", A, "--accept", "3,2,2,2", "--chair", "alice")
    assert code == 0 and "accept by alice" in out and "published 1 verified" in out
    task = json.loads((data / "verified" / TASK / "task.json").read_text())
    assert A in [c["id"] for c in task["test_cases"]]
    code, out, _ = run(data, "status", "--json")
    entry = json.loads(out)["tasks"][TASK]
    assert (entry["chair_accepted"], entry["area_chair"]) == (1, 1)
    code, out, _ = run(data, "status")
    assert code == 0 and f"{TASK}: 1 case(s) wait for the Area Chair" in out
    code, out, _ = run(data, "chair", "decide", B, "--refine", "check the body",
                       "--chair", "bob")
    assert code == 0 and "repogenesis build" in out
    code, out, _ = run(data, "chair", "stats", "--json")
    assert set(json.loads(out)["chairs"]) == {"alice", "bob"}
    code, out, _ = run(data, "chair", "show", B, "--json")
    assert json.loads(out)["state"] == "chair_refine"


def test_show_gives_the_readme_passages_and_the_alternatives_runs(chair_data) -> None:
    data, _ = chair_data
    code, out, _ = run(data, "chair", "show", B)
    assert code == 0
    assert "README on GET /ping (lines 5-7):" in out and 'Returns `{"pong": true}`' in out
    assert "README on 200: line 7, in GET /ping" in out
    assert "README on 'X-Served-By': not stated" in out
    assert "README on 'ping-1': not stated" in out
    assert "alternative a: failed (AssertionError: assert None == 'ping-1')" in out
    code, out, _ = run(data, "chair", "show", B, "--json")
    passages = {p["about"]: p for p in json.loads(out)["passages"]}
    assert passages["GET /ping"]["lines"][0] == {"line": 5, "text": "### GET /ping"}
    assert passages["200"]["within"] == ["GET /ping"] and passages["200"]["stated"]
    assert passages["'ping-1'"]["stated"] is False
    code, out, _ = run(data, "chair", "show", A)
    assert "not stated" not in out and "alternative a: passed" in out


def test_bad_decisions_are_one_line_errors(chair_data) -> None:
    data, _ = chair_data
    for args, needle in [
        (("chair", "decide", A, "--accept", "3,2,9,2"), "readability 9 is outside"),
        (("chair", "decide", A), "exactly one of"),
        (("chair", "decide", A, "--reject", "x", "--refine", "y"), "exactly one of"),
        (("chair", "decide", "ping::nope", "--reject", "x"), "no case 'ping::nope'"),
        (("chair", "show", "zzz"), "no case"),
        (("chair", "queue", "--state", "odd"), "state 'odd'"),
        (("chair", "import", str(data / "none.jsonl")), "no such file"),
        (("chair", "add-user", "bad name!"), "chair name"),
    ]:
        code, out, err = run(data, *args)
        assert code == 1, args
        assert needle in err and err.count("\n") == 1, (args, err)


def test_export_import_and_add_user(chair_data, tmp_path) -> None:
    data, store = chair_data
    run(data, "chair", "decide", B, "--reject", "undocumented", "--chair", "bob")
    code, out, _ = run(data, "chair", "export", "--out", str(tmp_path / "d.jsonl"))
    assert code == 0 and "wrote 1 decision" in out
    code, out, _ = run(data, "chair", "import", str(tmp_path / "d.jsonl"))
    assert code == 0 and "imported 0 decision(s) (1 already there)" in out
    code, out, _ = run(data, "chair", "add-user", "alice")
    token = out.split("token ", 1)[1].split()[0]
    assert code == 0 and len(token) > 30 and token not in store.chair_token_hash("alice")
    code, out, _ = run(data, "publish")
    assert code == 0 and "wrote 1 verified" in out


def test_no_state_is_a_clear_error(tmp_path) -> None:
    code, _, err = run(tmp_path, "chair", "queue")
    assert code == 1 and "run `repogenesis build" in err
