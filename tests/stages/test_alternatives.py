"""Cases run on the oracle and on every alternative: one that passes on the oracle and fails on
an independent correct implementation is over-specified. A generated one is refined (loosened
to what the document states) and the refined version accepted; a human-written one waits for
the Area Chair on verified and is discarded as `over_specified` on train; an alternative that
does not start fails `check` and that task's build with a one-line reason."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from pipeline.backend import OfflineBackend
from pipeline.execution import free_port
from pipeline.records import Spec, TestCase
from pipeline.stages.build import BuildOptions, build
from pipeline.stages.check import check_task
from pipeline.stages.publish import publish
from pipeline.store import Store
from pipeline.tasks import load_task

pytestmark = pytest.mark.slow

README = textwrap.dedent("""\
    # Notes service

    ## Endpoints

    ### POST /notes

    Creates a note from `{"text": "buy milk"}` and returns `201` with the stored note
    `{"id": 7, "text": "buy milk"}`. A body without `text` is refused with a client error.

    ### GET /notes/{id}

    Returns the note `{"id": 7, "text": "buy milk"}` with `200`; `404` when it does not exist.
    """)

# Oracle and alternative differ only where the README leaves a choice open: the refusal's
# status (400 / 422) and the ids' format (1, 2, ... / hex strings).
SERVER = textwrap.dedent("""\
    import json, os, re, uuid
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    REFUSAL = {refusal}
    HEX_IDS = {hex_ids}
    NOTES = {{}}

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            size = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(size) or b"null")
            except ValueError:
                body = None
            if self.path != "/notes":
                return self.reply(404, {{"error": "no route"}})
            if not isinstance(body, dict) or not isinstance(body.get("text"), str):
                return self.reply(REFUSAL, {{"error": "text is required"}})
            note_id = uuid.uuid4().hex if HEX_IDS else len(NOTES) + 1
            NOTES[str(note_id)] = {{"id": note_id, "text": body["text"]}}
            self.reply(201, NOTES[str(note_id)])

        def do_GET(self):
            m = re.fullmatch(r"/notes/([^/]+)", self.path)
            if m and m.group(1) in NOTES:
                return self.reply(200, NOTES[m.group(1)])
            self.reply(404, {{"error": "not found"}})

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

START = '#!/usr/bin/env bash\nset -e\ncd "$(dirname "$0")"\nexec python3 server.py\n'

REFUSED = '''def test_create_note_without_text_is_refused(base_url, session):
    """A note without text is refused and a note with text is stored as sent."""
    refused = session.post(f"{base_url}/notes", json={})
    assert refused.status_code == 400
    created = session.post(f"{base_url}/notes", json={"text": "buy milk"})
    assert created.status_code == 201
    note_id = created.json()["id"]
    fetched = session.get(f"{base_url}/notes/{note_id}")
    assert fetched.status_code == 200
    assert fetched.json()["text"] == "buy milk"
'''

HUMAN = '''import os

import requests

BASE = os.environ.get("SERVICE_BASE_URL", "http://localhost:8080")


def test_first_note_has_id_one():
    created = requests.post(f"{BASE}/notes", json={"text": "first"}, timeout=10)
    assert created.status_code == 201
    assert created.json()["id"] == 1
'''


class OneCase(OfflineBackend):
    """The offline backend (its reviewers and refiner) with one hand-written generated case."""

    def generate(self, task_id: str, spec: Spec, readme: str) -> list[TestCase]:
        return [TestCase(case_id=f"{task_id}::test_create_note_without_text_is_refused",
                         task_id=task_id, round=0, category="error_handling",
                         name="test_create_note_without_text_is_refused", code=REFUSED,
                         endpoints=["POST /notes", "GET /notes/{id}"])]


def make_notes(root: Path, task_id: str, split: str, *, alt_start: str = START) -> Path:
    d = root / task_id
    for sub, refusal, hex_ids in (("oracle", 400, False), ("alternatives/a", 422, True)):
        (d / sub).mkdir(parents=True)
        (d / sub / "server.py").write_text(SERVER.format(refusal=refusal, hex_ids=hex_ids))
        (d / sub / "start.sh").write_text(START if sub == "oracle" else alt_start)
        (d / sub / "start.sh").chmod(0o755)
    (d / "README.md").write_text(README)
    (d / "tests").mkdir()
    (d / "tests" / "test_notes.py").write_text(HUMAN)
    (d / "task.toml").write_text(textwrap.dedent(f"""\
        id = "{task_id}"
        language = "python"
        framework = "stdlib"
        domain = "test"
        source = "expert"
        port = {free_port()}
        split = "{split}"
        """))
    return d


def test_over_specified_cases_are_refined_chaired_or_discarded(tmp_path: Path) -> None:
    data = tmp_path / "data"
    raw = data / "raw"
    train = make_notes(raw, "notes-train", "train")
    verified = make_notes(raw, "notes-verified", "verified")
    broken = make_notes(raw, "notes-broken", "train",
                        alt_start="#!/usr/bin/env bash\necho 'no server here' >&2\nexit 3\n")
    lines: list[str] = []
    with Store.open(data / ".repogenesis" / "state.db") as store:
        results = build(BuildOptions(data_dir=data, backend=OneCase(), mutation_cap=0),
                        store, lambda task, msg: lines.append(f"{task}: {msg}"))
        states = {r.task_id: r for r in results}
        assert states["notes-train"].state == states["notes-verified"].state == "done"
        assert states["notes-broken"].state == "failed"
        reason = states["notes-broken"].reason
        assert "alternatives/a/start.sh" in reason and "\n" not in reason

        # the generated case: over-specified in round 0, loosened, accepted in round 1
        case_id = "notes-train::test_create_note_without_text_is_refused"
        first = store.evidence_for(case_id, 0)
        assert first.passed and [a.outcome for a in first.alternatives] == ["failed"]
        round0 = [r for r in store.routes_for(case_id) if r.round == 0]
        assert [r.route for r in round0] == ["refine"]
        assert "over-specified" in round0[0].reason
        refined = [c for c in store.latest_cases("notes-train") if c.case_id == case_id][0]
        assert refined.round == 1
        assert "400 <= refused.status_code < 500" in refined.code
        assert "fetched.json()[\"text\"] == \"buy milk\"" in refined.code  # the rest stays
        second = store.evidence_for(case_id, 1)
        assert [a.outcome for a in second.alternatives] == ["passed"]
        assert store.latest_route(case_id).route == "accepted"

        # the human-written case: the Area Chair on verified, discarded on train
        human = {t: next(c for c in store.latest_cases(t) if c.origin == "existing")
                 for t in ("notes-train", "notes-verified")}
        on_train = store.latest_route(human["notes-train"].case_id)
        assert (on_train.route, on_train.discard_reason) == ("discarded", "over_specified")
        on_verified = store.latest_route(human["notes-verified"].case_id)
        assert on_verified.route == "area_chair"
        assert "'a'" in on_verified.reason and "Area Chair" in on_verified.reason
        reviews = store.reviews_for(human["notes-verified"].case_id, 0)
        execution = next(r for r in reviews if r.reviewer == "offline:execution")
        assert execution.scores.correctness == 0
        assert "independent correct implementation 'a'" in execution.rationale

        publish(data, store, {t: load_task(d) for t, d in
                              (("notes-train", train), ("notes-verified", verified))})
    shipped = json.loads((data / "train" / "notes-train" / "task.json").read_text())
    assert [c["name"] for c in shipped["test_cases"]] == [
        "test_create_note_without_text_is_refused"]
    assert not (data / "train" / "notes-broken").exists()
    assert not any((data / split / task / "alternatives").exists()
                   for split in ("train", "verified") for task in ("notes-train",
                                                                   "notes-verified"))

    # `check` starts the alternative too: a broken one is an error naming its start.sh
    ok = check_task(verified, run_tests=False)
    assert ok.ok and ok.alternatives == ["a"]
    bad = check_task(broken, run_tests=False)
    assert not bad.ok
    assert any("alternatives/a/start.sh" in f.line() for f in bad.findings)
    assert broken.is_dir()
