"""LLMBackend: prompts, generate (code checks), review (three reviewers, failures), refine."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from pydantic import BaseModel

from pipeline.backend import Backend
from pipeline.llm.backend import LLMBackend, readme_excerpt, render
from pipeline.llm.base import LLMRequest, LLMResponse, Usage
from pipeline.llm.client import LLMClient
from pipeline.llm.errors import ProviderError
from pipeline.llm.schemas import check_test_code
from pipeline.llm.settings import LLMSettings
from pipeline.records import Evidence, MutationEvidence, Review, RunResult, Scores, TestCase
from pipeline.rubric import load_rubric
from pipeline.spec import load_spec
from pipeline.store import Store

README = textwrap.dedent("""\
    # Ping service

    ## Endpoints

    ### GET /ping

    Returns `{"pong": true}` with status `200`.

    ### GET /items/{id}

    Returns one item; `404` when it does not exist.
    """)

GOOD = '''def test_get_ping_returns_pong(base_url, session):
    """GET /ping answers pong."""
    import datetime
    response = session.get(f"{base_url}/ping")
    assert response.status_code == 200
    assert response.json() == {"pong": True}
'''


def answer(data: dict) -> LLMResponse:
    return LLMResponse(text=json.dumps(data), parsed=data, finish="stop", model="m",
                       usage=Usage(input_tokens=10, output_tokens=5))


class StageProvider:
    """Answers by stage; `fail` maps a model to the exception its calls raise."""

    def __init__(self, name: str, review: dict | None = None, fail: Exception | None = None):
        self.name = name
        self.review_answer = review or {"rationale": "ok", "correctness": 3, "coverage": 2,
                                        "readability": 2, "relevance": 2}
        self.fail = fail
        self.requests: list[LLMRequest] = []

    def complete(self, request: LLMRequest, schema: type[BaseModel] | None) -> LLMResponse:
        self.requests.append(request)
        if self.fail is not None:
            raise self.fail
        if request.stage == "generate":
            return answer({"tests": [
                {"name": "test_get_ping_returns_pong", "endpoints": ["GET /ping", "GET /nope"],
                 "code": "import requests\nimport datetime\n\n\n" + GOOD},
                {"name": "test_bad", "endpoints": [], "code": "import os\n" + GOOD},
                {"name": "test_fixture", "endpoints": [],
                 "code": GOOD.replace("(base_url, session)", "(base_url, db)")},
            ]})
        if request.stage == "review":
            return answer(self.review_answer)
        return answer({"changes": "stronger", "answers": [
            {"reviewer": "openai:o", "changed": "renamed", "disagree": ""}],
            "code": GOOD.replace(
            "test_get_ping_returns_pong", "test_renamed_by_model")})

    def submit_batch(self, items, schema):  # pragma: no cover - not used here
        raise NotImplementedError

    def poll_batch(self, batch_id, schema):  # pragma: no cover
        raise NotImplementedError


SETTINGS = LLMSettings(generator="gemini:g", refiner="gemini:g",
                       reviewers=["openai:o", "anthropic:a", "gemini:g"], invalid_retries=1)


@pytest.fixture
def spec(tmp_path: Path):
    path = tmp_path / "README.md"
    path.write_text(README, encoding="utf-8")
    return load_spec(path)


@pytest.fixture
def store(tmp_path: Path):
    s = Store.open(tmp_path / "state.db")
    yield s
    s.close()


def backend(store: Store, **providers: StageProvider) -> tuple[LLMBackend, dict]:
    all_ = {"openai": StageProvider("openai"), "anthropic": StageProvider("anthropic"),
            "gemini": StageProvider("gemini"), **providers}
    client = LLMClient(all_, store, SETTINGS, sleep=lambda s: None)
    return LLMBackend(client, SETTINGS), all_


def case() -> TestCase:
    return TestCase(case_id="t::test_get_ping_returns_pong", task_id="t", round=0,
                    category="api_compliance", name="test_get_ping_returns_pong", code=GOOD,
                    endpoints=["GET /ping"])


def evidence() -> Evidence:
    return Evidence(case_id="t::test_get_ping_returns_pong", round=0, requests=["GET /ping"],
                    runs=[RunResult(outcome="passed", duration_s=0.1)] * 2)


def test_prompts_put_the_shared_prefix_first_and_mark_it_cached(spec, store) -> None:
    b, _ = backend(store)
    calls = b.review_calls(case(), evidence(), spec, README, load_rubric())
    messages = calls[0].request.messages
    assert [(m.role, m.cache) for m in messages] == [("system", True), ("user", False)]
    assert "Correctness [correctness] (0-3)" in messages[0].content
    assert "# Ping service" in messages[0].content and "SERVICE_BASE_URL" in messages[0].content
    assert GOOD.strip() in messages[1].content and "passed (under 2 s)" in messages[1].content
    assert "### GET /ping" in messages[1].content  # the README excerpt of the endpoint
    # every case of a task shares the prefix byte for byte
    other = b.review_calls(case().model_copy(update={"code": "x"}), None, spec, README,
                           load_rubric())
    assert other[0].request.messages[0] == messages[0]
    gen = b.generate_calls("t", spec, README)
    assert len(gen) == 2 * 4 and gen[0].request.messages[0].cache
    assert "`api_compliance`" in gen[0].request.messages[1].content
    assert [c.request.temperature for c in calls] == [0.0, 0.0, 0.0]
    gpt5 = LLMBackend(b.client, SETTINGS.model_copy(update={"reviewers": [
        "openai:gpt-5", "anthropic:a", "gemini:g"]}))
    temps = [c.request.temperature for c in gpt5.review_calls(case(), None, spec, README,
                                                              load_rubric())]
    assert temps == [None, 0.0, 0.0]


def test_generate_keeps_valid_tests_and_drops_invalid_ones(spec, store, caplog) -> None:
    b, providers = backend(store)
    cases = b.generate("t", spec, README)
    assert len(providers["gemini"].requests) == 8  # 2 endpoints x 4 categories
    names = [c.name for c in cases]
    assert names[0] == "test_get_ping_returns_pong" and names[1] == "test_get_ping_returns_pong_2"
    assert len(cases) == 8 and len(set(names)) == 8
    first = cases[0]
    assert first.case_id == "t::test_get_ping_returns_pong" and first.author == "gemini:g"
    assert first.endpoints == ["GET /ping"] and first.category == "api_compliance"
    assert not first.code.startswith("import")  # header imports dropped
    assert "    import datetime" in first.code
    assert "def test_get_ping_returns_pong_2(" in cases[1].code
    assert "imports 'os'" in caplog.text and "unknown fixture(s) db" in caplog.text
    as_backend: Backend = b  # the protocol, statically
    assert callable(as_backend.review) and callable(as_backend.refine)


def test_review_returns_three_reviews_named_by_model(spec, store) -> None:
    b, _ = backend(store)
    rubric = load_rubric()
    reviews = b.review(case(), evidence(), spec, README, rubric)
    assert [r.reviewer for r in reviews] == ["openai:o", "anthropic:a", "gemini:g"]
    assert all(r.scores == Scores(correctness=3, coverage=2, readability=2, relevance=2)
               for r in reviews)
    assert all(r.rubric_hash == rubric.hash and r.error is None for r in reviews)


def test_failed_and_out_of_range_reviews_are_failed_reviews(spec, store) -> None:
    out_of_range = StageProvider("anthropic", review={
        "rationale": "x", "correctness": 7, "coverage": 2, "readability": 2, "relevance": 2})
    broken = StageProvider("openai", fail=ProviderError(
        "spend limit", provider="openai", retryable=False, status=429))
    b, providers = backend(store, anthropic=out_of_range, openai=broken)
    reviews = b.review(case(), evidence(), spec, README, load_rubric())
    by = {r.reviewer: r for r in reviews}
    assert by["openai:o"].scores is None and "spend limit" in (by["openai:o"].error or "")
    assert by["anthropic:a"].scores is None and "correctness" in (by["anthropic:a"].error or "")
    assert len(providers["anthropic"].requests) == 2  # asked, then re-asked once
    assert len(providers["openai"].requests) == 1  # non-retryable: not retried
    assert by["gemini:g"].scores is not None


def test_review_rerun_costs_zero_calls(spec, store) -> None:
    b, providers = backend(store)
    b.review(case(), evidence(), spec, README, load_rubric())
    b2, providers2 = backend(store)
    again = b2.review(case(), evidence(), spec, README, load_rubric())
    assert all(r.scores is not None for r in again)
    assert sum(len(p.requests) for p in providers2.values()) == 0


def test_refine_keeps_the_name_and_bumps_the_round(spec, store) -> None:
    b, providers = backend(store)
    reviews = [Review(case_id="t::x", round=0, reviewer="openai:o", rationale="status only",
                      scores=Scores(correctness=1, coverage=1, readability=2, relevance=2),
                      rubric_hash="h")]
    failing = Evidence(case_id="t::x", round=0, runs=[RunResult(
        outcome="failed", output="E   assert 404 == 200")])
    refined = b.refine(case(), failing, reviews, spec, README, note="assert the body")
    assert refined.round == 1 and refined.origin == "refined" and refined.author == "gemini:g"
    assert "def test_get_ping_returns_pong(" in refined.code
    prompt = providers["gemini"].requests[0].messages[1].content
    assert "E   assert 404 == 200" in prompt and "status only" in prompt
    assert "assert the body" in prompt and "openai:o: total 6/10" in prompt


def test_refiner_answers_each_review_and_the_next_reviewers_read_it(spec, store) -> None:
    b, providers = backend(store)
    reviews = [Review(case_id="t::x", round=0, reviewer=name, rationale="status only",
                      scores=Scores(correctness=1, coverage=1, readability=2, relevance=2),
                      rubric_hash="h") for name in ("openai:o", "anthropic:a")]
    refined = b.refine(case(), evidence(), reviews, spec, README)
    refine_prompt = providers["gemini"].requests[0].messages[1].content
    assert '"answers"' in refine_prompt
    # openai:o answered by name; anthropic:a not answered -> an empty answer, never dropped
    assert [(a.reviewer, a.changed) for a in refined.rebuttal] == [
        ("openai:o", "renamed"), ("anthropic:a", "")]
    b.review(refined, evidence(), spec, README, load_rubric())
    shown = providers["openai"].requests[-1].messages[1].content
    assert "The refiner's answer to the reviews of the previous version" in shown
    assert "- to openai:o: changed: renamed; disagrees: nowhere" in shown
    b.review(case(), evidence(), spec, README, load_rubric())  # a first version: no answer
    assert "This is a refined version" not in providers["openai"].requests[-1].messages[1].content


def test_refine_failure_keeps_the_case(spec, store) -> None:
    b, _ = backend(store, gemini=StageProvider("gemini", fail=ProviderError(
        "bad request", provider="gemini", retryable=False, status=400)))
    assert b.refine(case(), None, [], spec, README) == case()


def test_backend_name_follows_models() -> None:
    a = LLMBackend(None, SETTINGS)  # type: ignore[arg-type]
    b = LLMBackend(None, SETTINGS.model_copy(update={"generator": "gemini:h"}))  # type: ignore
    assert a.name.startswith("llm:") and a.name != b.name


@pytest.mark.parametrize("code, why", [
    ("def helper():\n    pass\n", "must look like test_"),
    ("x = 1\ndef test_a(base_url):\n    pass\n", "top-level statement"),
    ("def test_a(base_url):\n    import subprocess\n", "imports 'subprocess'"),
    ("def test_a(base_url):\n    eval('1')\n", "calls eval()"),
    ("def test_a(base_url):\n    pass\ndef test_b(base_url):\n    pass\n", "exactly one"),
    ("def test_a(base_url)\n    pass\n", "does not parse"),
    ("@fixture\ndef test_a(base_url):\n    pass\n", "decorator"),
])
def test_check_test_code_rejects(code: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_test_code(code, {"base_url"})


def test_check_test_code_accepts_parametrize_and_moves_imports() -> None:
    code = ('import time\n\n@pytest.mark.parametrize("n", [1, 2])\n'
            'def test_a(base_url, n):\n    """Doc."""\n    assert n\n')
    source, name = check_test_code(code, {"base_url"})
    assert name == "test_a" and source.startswith("@pytest.mark.parametrize")
    assert '    """Doc."""\n    import time\n    assert n' in source


def test_render_splits_roles(tmp_path: Path) -> None:
    messages = render("review.j2", rubric_text="R", conftest="C", readme="D", fixtures=[],
                      header_imports=[], extra_imports=[], case=case(), code="X", excerpts=[],
                      evidence="E")
    assert [m.role for m in messages] == ["system", "user"]


def test_readme_excerpt_is_the_endpoint_section(spec) -> None:
    ep = spec.endpoints[0]
    assert readme_excerpt(README, ep, spec).startswith("### GET /ping")
    assert "items" not in readme_excerpt(README, ep, spec)


def test_evidence_text_hides_run_to_run_noise() -> None:
    from pipeline.llm.backend import evidence_text

    def ev(port: int, secs: float, tmp: str) -> Evidence:
        out = (f"{tmp}/test_x.py:3: AssertionError\nConnectionError: localhost:{port} at "
               f"0x7f3a2b1c9d80\n1 failed in {secs}s")
        return Evidence(case_id="c", round=0, runs=[RunResult(outcome="failed", output=out,
                                                              duration_s=secs)])

    a = evidence_text(ev(40123, 0.31, "/tmp/rg-abc123"))
    assert a == evidence_text(ev(51234, 0.52, "/tmp/rg-zz9"))
    assert "<service>" in a and "AssertionError" in a
    assert evidence_text(ev(1, 3.0, "/tmp/a")) != a  # a slow run is a different fact


def test_evidence_requests_shown_as_documented_templates(spec) -> None:
    from pipeline.llm.backend import evidence_text

    def ev(item: str) -> Evidence:
        return Evidence(case_id="c", round=0, requests=["GET /ping", f"GET /items/{item}",
                                                        "GET /secret/1"],
                        runs=[RunResult(outcome="passed", duration_s=0.1)])

    text = evidence_text(ev("ab12"), spec)
    assert text == evidence_text(ev("zz99"), spec)
    assert "GET /ping, GET /items/{id}, GET /secret/1" in text


def test_evidence_text_shows_real_mutant_kills() -> None:
    from pipeline.llm.backend import evidence_text

    runs = [RunResult(outcome="passed", duration_s=0.1)] * 2
    plain = Evidence(case_id="c", round=0, runs=runs)
    assert "Mutants" not in evidence_text(plain)
    killed = plain.model_copy(update={"mutation": MutationEvidence(
        valid=14, killed=["main.py:38:return:1", "main.py:90:status_code:2"],
        unique=["main.py:90:status_code:2"], round_killed=9)})
    text = evidence_text(killed)
    assert "it fails on 2 of the 14 that ran: main.py:38:return:1, main.py:90:status_code:2" \
        in text
    assert "1 of them no other test of its round catches (main.py:90:status_code:2)" in text
    assert "the round's tests together catch 9 of 14" in text
    none = plain.model_copy(update={"mutation": MutationEvidence(valid=14)})
    assert "fails on 0 of the 14 that ran: none" in evidence_text(none)
    excluded = plain.model_copy(update={"mutation": MutationEvidence(
        valid=14, excluded="did not pass on the unmutated oracle")})
    assert "no kill credit (did not pass on the unmutated oracle)" in evidence_text(excluded)
    own = plain.model_copy(update={"mutation": MutationEvidence(
        valid=14, killed=["main.py:38:return:1"], round_killed=9,
        endpoint_mutants=["main.py:90:filter_ignored:1", "main.py:91:return:1"],
        endpoint_killed_by_others=["main.py:90:filter_ignored:1"])})
    text = evidence_text(own)
    assert "in the handlers of the endpoints it targets: 2; it kills 0 of them, other tests " \
        "kill 1 (a success-path test" in text
    assert "evidence of a weak test" not in evidence_text(killed)


def test_generate_fills_endpoints_the_model_wrote_nothing_for(spec, store) -> None:
    """Never an empty suite: a generator that answers nothing still leaves a case per endpoint."""
    b, _ = backend(store, gemini=StageProvider("gemini", fail=ValueError("refused")))
    cases = b.generate("t", spec, README)
    assert {k for c in cases for k in c.endpoints} == {"GET /ping", "GET /items/{id}"}
    assert all(c.author == "offline" for c in cases)
    unknown = next(c for c in cases if c.endpoints == ["GET /items/{id}"])
    assert "status_code == 404" in unknown.code
