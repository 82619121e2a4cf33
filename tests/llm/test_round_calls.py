"""A round's model calls go out together, bounded only by the per-provider limits.

The fake server counts the model calls open at once per provider; with a latency long enough
for every slot to fill, a round of ten cases must use each provider's whole limit (the old
loop never had more than one case's three reviews in flight) and never more.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.backend import OfflineBackend
from pipeline.llm import make_backend
from pipeline.llm.fake_server import FakeProviderServer
from pipeline.llm.settings import PROVIDERS, LLMSettings
from pipeline.offline.generate import generate_cases
from pipeline.records import Review, Scores
from pipeline.rubric import load_rubric
from pipeline.spec import load_spec
from pipeline.stages.round_calls import RoundContext, refine_round, review_round
from pipeline.store import Store

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "data" / "raw" / "todo-tasks" / "README.md"
LIMIT = 4


def _setup(tmp_path: Path, backend_of=None):
    spec = load_spec(README)
    rubric = load_rubric()
    store = Store.open(tmp_path / "state.db")
    settings = LLMSettings(concurrency=dict.fromkeys(PROVIDERS, LIMIT))
    backend = backend_of(store, settings) if backend_of else make_backend(store, settings)
    ctx = RoundContext(spec, README.read_text(encoding="utf-8"), "train", rubric,
                       rubric.routing, backend.reviewer_count)
    cases = generate_cases("todo-tasks", spec)[:10]
    return store, backend, ctx, cases


def test_round_reviews_then_refines_fill_every_providers_limit(fake: FakeProviderServer,
                                                               tmp_path: Path) -> None:
    fake.latency_s = 0.5
    store, backend, ctx, cases = _setup(tmp_path)
    decided = review_round(cases, ctx, backend, store)
    assert fake.max_in_flight == dict.fromkeys(("openai", "anthropic", "gemini"), LIMIT)
    assert [d[0].case_id for d in decided] == [c.case_id for c in cases]  # order kept
    for case, _, reviews, _ in decided:
        assert [r.case_id for r in reviews] == [case.case_id] * 3
        assert [r.reviewer for r in reviews] == backend.settings.reviewers
        assert all(r.scores is not None for r in reviews)
    assert len(fake.calls()) == 3 * len(cases)
    refining = [d for d in decided if d[3].route == "refine"]
    assert len(refining) == len(cases)  # the fake's lowest scores: every case is refined

    fake.reset()
    refined = refine_round(decided, ctx, backend)
    assert fake.max_in_flight == {"gemini": LIMIT}  # the refiner's provider, all its slots
    assert len(fake.calls()) == len(cases)
    assert [r.case_id for r in refined if r is not None] == [c.case_id for c in cases]
    store.close()


def test_complete_stored_reviews_are_not_asked_again(fake: FakeProviderServer,
                                                    tmp_path: Path) -> None:
    store, backend, ctx, cases = _setup(tmp_path)
    done = cases[0]
    store.upsert_task("todo-tasks", state="running")
    store.save_case(done)
    kept = [Review(case_id=done.case_id, round=0, reviewer=ref, rubric_hash=ctx.rubric.hash,
                   scores=Scores(correctness=3, coverage=3, readability=2, relevance=2),
                   rationale="stored") for ref in backend.settings.reviewers]
    for review in kept:
        store.save_review(review)
    decided = review_round(cases[:3], ctx, backend, store)
    assert [r.rationale for r in decided[0][2]] == ["stored"] * 3
    assert len(fake.calls()) == 3 * 2  # only the two other cases
    store.close()


class CountingOffline(OfflineBackend):
    """A backend without `review_many` / `refine_many`: called case by case."""

    def __init__(self) -> None:
        self.reviewed: list[str] = []
        self.refined: list[str] = []

    def review(self, case, evidence, spec, readme, rubric):  # type: ignore[no-untyped-def]
        self.reviewed.append(case.case_id)
        return super().review(case, evidence, spec, readme, rubric)

    def refine(self, case, evidence, reviews, spec, readme, note=None):  # type: ignore[no-untyped-def]
        self.refined.append(case.case_id)
        return super().refine(case, evidence, reviews, spec, readme, note)


def test_a_backend_without_round_calls_is_called_case_by_case(tmp_path: Path) -> None:
    store, backend, ctx, cases = _setup(tmp_path, lambda store, settings: CountingOffline())
    decided = review_round(cases, ctx, backend, store)
    assert backend.reviewed == [c.case_id for c in cases]
    refined = refine_round(decided, ctx, backend)
    wanted = [d[0].case_id for d in decided if d[3].route == "refine"]
    assert wanted and backend.refined == wanted
    assert [r is not None for r in refined] == [d[3].route == "refine" for d in decided]
    store.close()
