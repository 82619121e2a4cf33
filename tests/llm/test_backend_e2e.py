"""End to end: the three real SDK adapters against the fake provider server, through the
client wrapper and LLMBackend.review (slow: starts a loopback server)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from pipeline.llm import make_backend, make_providers
from pipeline.llm.backend import LLMBackend
from pipeline.llm.client import LLMClient
from pipeline.llm.ledger import ledger_summary
from pipeline.llm.settings import LLMSettings
from pipeline.records import Evidence, RunResult, TestCase
from pipeline.rubric import load_rubric
from pipeline.spec import load_spec
from pipeline.store import Store

pytestmark = pytest.mark.slow

README = textwrap.dedent("""\
    # Ping service

    ## Endpoints

    ### GET /ping

    Returns `{"pong": true}` with status `200`.
    """)
CODE = '''def test_get_ping_returns_pong(base_url, session):
    """GET /ping answers pong."""
    response = session.get(f"{base_url}/ping")
    assert response.status_code == 200
    assert response.json() == {"pong": True}
'''
SETTINGS = LLMSettings(generator="gemini:gemini-test", refiner="gemini:gemini-test",
                       reviewers=["openai:gpt-test", "anthropic:claude-test",
                                  "gemini:gemini-test"])


def _review_answer(provider: str, request: dict) -> dict:
    return {"rationale": f"{provider} saw strong assertions", "correctness": 3, "coverage": 2,
            "readability": 2, "relevance": 2}


@pytest.fixture
def inputs(tmp_path: Path):
    path = tmp_path / "README.md"
    path.write_text(README, encoding="utf-8")
    case = TestCase(case_id="t::test_get_ping_returns_pong", task_id="t", round=0,
                    category="api_compliance", name="test_get_ping_returns_pong", code=CODE,
                    endpoints=["GET /ping"])
    evidence = Evidence(case_id=case.case_id, round=0, requests=["GET /ping"],
                        runs=[RunResult(outcome="passed", duration_s=0.05)] * 2)
    return load_spec(path), case, evidence


def test_review_through_the_three_real_adapters(fake, inputs, tmp_path: Path) -> None:
    spec, case, evidence = inputs
    fake.responder = _review_answer
    fake.fault("429", at=0, provider="openai", retry_after=3)
    fake.fault("malformed", at=0, provider="gemini")
    rubric = load_rubric()
    waits: list[float] = []
    with Store.open(tmp_path / "state.db") as store:
        client = LLMClient(make_providers(SETTINGS), store, SETTINGS, sleep=waits.append)
        reviews = LLMBackend(client, SETTINGS).review(case, evidence, spec, README, rubric)
        assert [r.reviewer for r in reviews] == SETTINGS.reviewers
        assert all(r.scores is not None and r.scores.total == 9 for r in reviews), [
            (r.reviewer, r.scores, r.error) for r in reviews]
        assert reviews[1].rationale == "anthropic saw strong assertions"
        assert not fake.invalid, [r.problems for r in fake.invalid]
        assert 3.0 in waits  # the openai Retry-After was honoured
        assert len(fake.calls()) == 5  # three answers + two retries, nothing else
        anthropic_body = fake.calls("anthropic")[0].body
        assert anthropic_body["system"][-1]["cache_control"] == {"type": "ephemeral"}
        summary = ledger_summary(store)
        assert summary["calls"] == 5 and summary["total_cost"] == 0  # unpriced test models

    # a rerun with nothing changed: zero provider requests
    with Store.open(tmp_path / "state.db") as store:
        again = make_backend(store, SETTINGS).review(case, evidence, spec, README, rubric)
        assert [r.scores for r in again] == [r.scores for r in reviews]
        assert len(fake.calls()) == 5
        assert ledger_summary(store)["cache_hits"] == 3

    blob = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    for key in fake.env().values():
        if "KEY" in key or key.startswith("sk-") or "key" in key:
            assert key.encode() not in blob


def test_out_of_range_scores_become_a_failed_review(fake, inputs, tmp_path: Path) -> None:
    spec, case, evidence = inputs

    def answer(provider: str, request: dict) -> dict:
        data = _review_answer(provider, request)
        return {**data, "correctness": 9} if provider == "anthropic" else data

    fake.responder = answer
    with Store.open(tmp_path / "state.db") as store:
        client = LLMClient(make_providers(SETTINGS), store, SETTINGS, sleep=lambda s: None)
        reviews = LLMBackend(client, SETTINGS).review(case, evidence, spec, README,
                                                      load_rubric())
        by = {r.reviewer: r for r in reviews}
        assert by["anthropic:claude-test"].scores is None
        assert "correctness" in (by["anthropic:claude-test"].error or "")
        assert len(fake.calls("anthropic")) == 1 + SETTINGS.invalid_retries
        assert by["openai:gpt-test"].scores is not None
        rows = store._conn.execute("SELECT outcome FROM llm_calls WHERE provider = "
                                   "'anthropic'").fetchall()
        assert [r[0] for r in rows] == ["invalid"] * 3
    assert json.dumps(fake.env())  # the fixture's env stayed usable


def test_batch_round_resumes_after_restart_then_reviews_hit_the_cache(
        fake, inputs, tmp_path: Path) -> None:
    from pipeline.llm.batch import run_batch_round

    spec, case, evidence = inputs
    fake.responder = _review_answer
    fake.batch_polls = 2
    other = case.model_copy(update={"case_id": "t::test_other", "name": "test_other"})
    rubric = load_rubric()
    db = tmp_path / "state.db"
    with Store.open(db) as store:  # first build: submits, then is "killed" while polling
        backend = make_backend(store, SETTINGS, batch=True)
        calls = [c for k in (case, other)
                 for c in backend.review_calls(k, evidence, spec, README, rubric)]
        first = run_batch_round(backend.client, calls, timeout_s=0)
        assert first.submitted == 6 and len(first.batch_ids) == 3
    submits = [r for r in fake.requests if r.endpoint == "batch" and r.method == "POST"]
    with Store.open(db) as store:  # restart: the same ids are polled, nothing resubmitted
        backend = make_backend(store, SETTINGS.model_copy(update={"batch_poll_s": 0.01}),
                               batch=True)
        backend.prefetch_reviews([(case, evidence), (other, evidence)], spec, README, rubric)
        again = [r for r in fake.requests if r.endpoint == "batch" and r.method == "POST"]
        assert len(again) == len(submits)
        reviews = backend.review(case, evidence, spec, README, rubric)
        assert all(r.scores is not None and r.scores.total == 9 for r in reviews)
        assert fake.calls() == []  # every answer came from the batch, through the cache
        assert not fake.invalid, [r.problems for r in fake.invalid]
        rows = store._conn.execute("SELECT DISTINCT batch_id FROM llm_calls WHERE "
                                   "batch_id IS NOT NULL").fetchall()
        assert sorted(r[0] for r in rows) == sorted(first.batch_ids)
