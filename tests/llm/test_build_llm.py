"""`build` with the three providers configured against the loopback fake server.

The real SDKs run (OpenAI, Anthropic, Gemini wire protocols); the fake server's responder
plays the models: it answers generate prompts with test code and review prompts with scores.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from pipeline.llm.fake_server import FakeProviderServer
from pipeline.llm.fake_server.models import OfflineModels, strings

ROOT = Path(__file__).resolve().parents[2]
TASKS = ("todo-tasks", "secure-notes", "inventory-java")  # the fault and batch runs
#: one of each kind the corpus has (human files beside the generated tests, an HTTPie document
#: with JWT, HTML pages, Java, the train split): the whole corpus took four minutes more of
#: CI for no path these do not take
KINDS = ("customization", "django-rest-framework-crud", "inventory-java",
         "rock-paper-scissors-flask", "todo-tasks")
pytestmark = pytest.mark.slow


class Models(OfflineModels):
    def __init__(self) -> None:
        super().__init__(ROOT / "data" / "raw")


@pytest.fixture(scope="module")
def models() -> Models:
    return Models()


def make_data(tmp: Path, tasks: tuple[str, ...] = TASKS) -> Path:
    data = tmp / "data"
    for task in tasks:
        shutil.copytree(ROOT / "data" / "raw" / task, data / "raw" / task)
    return data


def build_cmd(data: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pipeline", "build", "--data", str(data), *extra]


def run_build(data: Path, fake: FakeProviderServer, *extra: str,
              mutants: int = 0) -> subprocess.CompletedProcess:
    env = {**os.environ, **fake.env(), "REPOGENESIS_MUTATION_CAP": str(mutants)}
    return subprocess.run(build_cmd(data, *extra), capture_output=True, text=True, env=env,
                          timeout=900)


def db_rows(data: Path, sql: str) -> list[tuple]:
    import sqlite3

    with sqlite3.connect(data / ".repogenesis" / "state.db") as conn:
        return conn.execute(sql).fetchall()


def assert_no_key_anywhere(data: Path, fake: FakeProviderServer, *texts: str) -> None:
    keys = [v for k, v in fake.env().items() if k.endswith("_KEY")]
    assert keys
    blobs = [p.read_bytes() for p in data.rglob("*") if p.is_file()]
    for key in keys:
        assert all(key.encode() not in blob for blob in blobs), key
        assert all(key not in text for text in texts)


def test_llm_build_is_valid_cached_and_keyless(tmp_path: Path, models: Models) -> None:
    data = make_data(tmp_path, KINDS)
    with FakeProviderServer(responder=models) as fake:
        first = run_build(data, fake)
        assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
        assert "mode: llm" in first.stdout or "llm" in first.stdout.splitlines()[0]
        assert fake.invalid == []
        providers = Counter(r.provider for r in fake.calls())
        assert set(providers) == {"openai", "anthropic", "gemini"}
        reviewers = {r[0] for r in db_rows(data, "SELECT DISTINCT reviewer FROM reviews")}
        assert len(reviewers) == 3 and all(":" in r for r in reviewers)
        assert {r.split(":")[0] for r in reviewers} == {"openai", "anthropic", "gemini"}
        missing = db_rows(data, "SELECT t.case_id, t.round FROM test_cases t LEFT JOIN reviews r"
                          " USING (case_id, round) GROUP BY 1, 2 HAVING COUNT(r.reviewer) != 3")
        assert missing == []
        written = list(data.glob("*/*/task.json"))
        assert len(written) == len(KINDS)
        assert json.loads(written[0].read_text())["offline"] is False

        before = len(fake.requests)
        again = run_build(data, fake)
        assert again.returncode == 0, again.stderr[-2000:]
        assert len(fake.requests) == before  # nothing changed: zero provider requests
        assert_no_key_anywhere(data, fake, first.stdout, first.stderr, again.stdout)


def test_llm_reviewers_are_shown_the_mutant_kills(tmp_path: Path, models: Models) -> None:
    data = make_data(tmp_path, ("order-desk",))
    with FakeProviderServer(responder=models) as fake:
        proc = run_build(data, fake, mutants=4)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        reviews = [(r.provider, "\n".join(strings(r.body))) for r in fake.calls()
                   if "Execution evidence on the oracle" in "\n".join(strings(r.body))]
        shown = {provider for provider, text in reviews
                 if re.search(r"Mutants of the oracle .*: it fails on \d+ of the \d+ that ran",
                              text)}
        assert shown == {"openai", "anthropic", "gemini"}
        killed = re.compile(r"it fails on [1-9]\d* of the \d+ that ran: [\w/]+\.py:\d+:")
        assert any(killed.search(text) for _, text in reviews)
    task_json = json.loads(next(data.glob("*/order-desk/task.json")).read_text())
    assert task_json["mutation"]["valid"] > 0


class Rebutting(Models):
    """A refiner that changes the test (one more assertion) and answers each reviewer."""

    def __call__(self, provider: str, body: dict) -> dict:
        text = "\n".join(strings(body))
        if "Revise the test" in text:
            code = re.search(r"Current code:\n```python\n(.*?)\n```", text, re.S).group(1)
            names = re.findall(r"^- ([a-z]+:[\w.-]+): ", text, re.M)
            return {"changes": "one more check", "code": code + "\n    assert True\n",
                    "answers": [{"reviewer": n, "changed": f"REBUTTAL-FOR-{n}",
                                 "disagree": "the runs show it passes"} for n in names]}
        answer = super().__call__(provider, body)
        if "rationale" in answer and "round 0" in text:
            answer.update(correctness=1, coverage=1)  # low: every first version is refined
        return answer


def test_refined_versions_reviewers_receive_the_refiners_answer(tmp_path: Path) -> None:
    data = make_data(tmp_path, ("todo-tasks",))
    with FakeProviderServer(responder=Rebutting()) as fake:
        proc = run_build(data, fake, "--task", "todo-tasks")
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        texts = [(r.provider, "\n".join(strings(r.body))) for r in fake.calls()]
    second = [(p, t) for p, t in texts if "Execution evidence on the oracle" in t
              and re.search(r"round 1\)", t)]
    assert second, "no refined version was reviewed"
    for _provider, text in second:
        assert "The refiner's answer to the reviews of the previous version" in text
        assert re.search(r"- to [a-z]+:[\w.-]+: changed: REBUTTAL-FOR-", text)
        assert "disagrees: the runs show it passes" in text
    assert {p for p, _ in second} == {"openai", "anthropic", "gemini"}
    stored = db_rows(data, "SELECT rebuttal FROM test_cases WHERE round = 1 LIMIT 1")
    assert "REBUTTAL-FOR-" in stored[0][0]
    published = json.loads(next(data.glob("*/todo-tasks/task.json")).read_text())
    answered = [c for c in published["test_cases"] if c["rebuttal"]]
    assert answered and all(c["provenance"]["round"] >= 1 for c in answered)
    assert all(a["changed"].startswith("REBUTTAL-FOR-") for c in answered
               for a in c["rebuttal"])


def test_llm_build_survives_thirty_percent_faults(tmp_path: Path, models: Models) -> None:
    data = make_data(tmp_path)
    with FakeProviderServer(responder=models) as fake:
        fake.random_faults(0.3, seed=7)
        proc = run_build(data, fake)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert fake.invalid == []
        missing = db_rows(data, "SELECT t.case_id, t.round FROM test_cases t LEFT JOIN reviews r"
                          " USING (case_id, round) GROUP BY 1, 2 HAVING COUNT(r.reviewer) != 3")
        assert missing == []
        # A request body is sent again only as a retry of a faulted answer.
        sent = Counter(json.dumps(r.body, sort_keys=True) for r in fake.calls())
        faulted = Counter(json.dumps(r.body, sort_keys=True) for r in fake.calls() if r.fault)
        for body, count in sent.items():
            assert count <= 1 + faulted[body] + 1, body[:200]  # +1: one truncation re-ask
        assert_no_key_anywhere(data, fake, proc.stdout, proc.stderr)


def test_killed_batch_round_resumes_polling_the_same_batches(tmp_path: Path,
                                                             models: Models) -> None:
    data = make_data(tmp_path)
    with FakeProviderServer(responder=models, batch_polls=10**9) as fake:
        env = {**os.environ, **fake.env(), "REPOGENESIS_MUTATION_CAP": "0"}
        proc = subprocess.Popen(build_cmd(data, "--batch", "--task", "todo-tasks"), env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        deadline = time.monotonic() + 120
        while not any(submits(fake.requests)):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.1)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        sent_ids = {cid for r in submits(fake.requests) for cid in r.custom_ids}
        ids = {row[0] for row in db_rows(data, "SELECT batch_id FROM llm_batches")}
        assert ids, "the batch id was not stored before the kill"
        fake.batch_polls = 1  # the provider finishes the job now
        mark = len(fake.requests)
        done = subprocess.run(build_cmd(data, "--batch", "--task", "todo-tasks"), env=env,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        after = fake.requests[mark:]
        polled = [r.path for r in after if r.endpoint == "batch" and r.method == "GET"]
        assert any(batch_id in path for batch_id in ids for path in polled)
        resent = [r for r in submits(after) if sent_ids & set(r.custom_ids)]
        assert resent == []


def submits(requests: list) -> list:
    """Requests that hand a provider batch work (OpenAI's JSONL upload, the batch creates)."""
    return [r for r in requests
            if r.endpoint in ("batch", "file") and r.method == "POST" and r.custom_ids]
