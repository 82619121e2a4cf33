"""`build --alternatives K` against the fake provider server: the generator model writes K
implementations of the README (canned here), each passing case runs on them, and a case that
fails on one passing the task's other accepted cases goes to the Area Chair with that evidence;
nothing is discarded for it, and a broken or refused implementation is left out."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.llm.fake_server import FakeProviderServer
from pipeline.llm.fake_server.models import strings
from tests.conftest import SERVER, make_task

pytestmark = pytest.mark.slow
TASK = "ping"

# a correct implementation that answers JSON with a charset (the README does not say either way)
CHARSET = SERVER.replace('"application/json"', '"application/json; charset=utf-8"')
BROKEN = "raise SystemExit('cannot start')\n"


def canned_test(name: str, path: str, body: str) -> str:
    return textwrap.dedent(f'''\
        def {name}(base_url, session):
            """{name.replace("_", " ")}."""
            response = session.get(f"{{base_url}}{path}")
        ''') + textwrap.indent(textwrap.dedent(body), "    ")


TESTS = {  # (endpoint, category) -> tests; one asserts what the README does not state
    ("GET /ping", "api_compliance"): [
        ("test_get_ping_is_200", "/ping", "assert response.status_code == 200\n"),
        ("test_get_ping_body_is_pong", "/ping", 'assert response.json() == {"pong": True}\n'),
        ("test_get_ping_content_type_exact", "/ping",
         'assert response.headers["Content-Type"] == "application/json"\n')],
    ("GET /ping", "edge_case"): [
        ("test_get_ping_twice_same", "/ping", 'assert response.json()["pong"] is True\n'
         'assert session.get(f"{base_url}/ping").json() == response.json()\n')],
    ("GET /items/{id}", "error_handling"): [
        ("test_get_unknown_item_is_404", "/items/nope", "assert response.status_code == 404\n")],
    ("GET /items/{id}", "edge_case"): [
        ("test_get_numeric_unknown_item_is_404", "/items/12345",
         "assert response.status_code == 404\n"),
        ("test_get_long_unknown_item_is_404", "/items/" + "x" * 40,
         "assert response.status_code == 404\n")],
    ("GET /items/{id}", "integration"): [
        ("test_ping_then_unknown_item", "/ping", "assert response.status_code == 200\n"
         'assert session.get(f"{base_url}/items/zz").status_code == 404\n')],
}


class Models:
    """Plays the generator (canned tests and implementations), the reviewers (score from the
    oracle runs in the evidence) and the refiner (hands the code back)."""

    def __call__(self, provider: str, body: dict) -> dict:
        text = "\n".join(strings(body))
        variant = re.search(r"Write variant (\d+) of (\d+)", text)
        if variant:
            files = {1: {"app.py": CHARSET, "requirements.txt": "# standard library only\n"},
                     2: {"app.py": BROKEN},
                     3: {"app.py": CHARSET, "../escape.py": "x = 1\n"}}[int(variant.group(1))]
            return {"files": [{"path": p, "content": c} for p, c in files.items()],
                    "notes": "JSON with an explicit charset"}
        wanted = re.search(r"Write \d+ test\(s\) of category `(\w+)`", text)
        if wanted:
            target = re.search(r"Target endpoint: (.+)", text).group(1).strip()
            return {"tests": [{"name": n, "endpoints": [target], "code": canned_test(n, p, b)}
                              for n, p, b in TESTS.get((target, wanted.group(1)), [])]}
        if "Revise the test" in text:
            code = re.search(r"Current code:\n```python\n(.*?)\n```", text, re.S)
            return {"changes": "none", "answers": [], "code": code.group(1) if code else ""}
        runs = re.search(r"Runs on fresh oracles: ([^;\n]*)", text)
        passed = runs is not None and all(
            run.strip().startswith("passed") for run in runs.group(1).split(","))
        scores = (3, 2, 2, 2) if passed else (0, 1, 1, 1)
        return {"rationale": f"{provider}: {'passed' if passed else 'failed'}",
                "correctness": scores[0], "coverage": scores[1], "readability": scores[2],
                "relevance": scores[3]}


def build(data: Path, fake: FakeProviderServer, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **fake.env(), "REPOGENESIS_MUTATION_CAP": "0"}
    return subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(data),
                           *extra], capture_output=True, text=True, env=env, timeout=900)


def routes(data: Path) -> dict[str, tuple[str, str, str | None]]:
    import sqlite3

    with sqlite3.connect(data / ".repogenesis" / "state.db") as conn:
        rows = conn.execute("SELECT case_id, route, reason, discard_reason FROM routes "
                            "ORDER BY round").fetchall()
    return {case.split("::")[1]: (route, reason, discard) for case, route, reason, discard
            in rows}


def test_a_case_failing_on_a_credible_model_implementation_goes_to_the_area_chair(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_task(data / "raw", TASK, 18997, toml=textwrap.dedent(f"""\
        id = "{TASK}"
        language = "python"
        framework = "stdlib"
        domain = "test"
        source = "expert"
        port = 18997
        split = "verified"
        """))
    with FakeProviderServer(responder=Models()) as fake:
        proc = build(data, fake, "--alternatives", "3")
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out[-3000:]
        asked = [r for r in fake.calls() if "Write variant" in "\n".join(strings(r.body))]
        assert len(asked) == 3
        assert "implementation m2 does not run" in out
        assert "implementation m3: file '../escape.py' refused" in out
        assert "(suspects: m1)" in out

        got = routes(data)
        route, reason, discard = got["test_get_ping_content_type_exact"]
        assert route == "area_chair" and reason.startswith("suspect: passes on the oracle, "
                                                           "failed on 'm1'")
        assert "passes 7 of the task's 7 other accepted cases" in reason
        assert all(r[0] == "accepted" for name, r in got.items()
                   if name != "test_get_ping_content_type_exact"), got
        assert not any(r[2] for r in got.values())  # nothing discarded for a suspect
        # the reviewers were shown the suspects' runs, as suspects
        reviews = ["\n".join(strings(r.body)) for r in fake.calls()
                   if "Runs on fresh oracles" in "\n".join(strings(r.body))]
        assert any("(suspects, not references" in t and "'m1': failed" in t for t in reviews)

        task_json = json.loads((data / "verified" / TASK / "task.json").read_text())
        case = next(c for c in task_json["test_cases"] if c["name"] == "test_get_ping_body_is_pong")
        assert case["provenance"]["suspect_runs"] == {"m1": "passed"}
        assert case["provenance"]["alternative_runs"] == {}  # a suspect is not an alternative
        assert task_json["alternatives"]["names"] == []
        assert task_json["alternatives"]["suspects"] == {
            "names": ["m1"], "published_tests_failing_on_one": 0}
        assert "suspects" in (data / "verified" / TASK / "task.json").read_text()

        # resumed: the written implementations are kept, the model is not asked again
        before = len(fake.calls())
        again = build(data, fake, "--alternatives", "3")
        assert again.returncode == 0, again.stderr[-2000:]
        assert len(fake.calls()) == before
        assert (data / ".repogenesis" / "suspects" / TASK).is_dir()
