"""The router's thresholds live in rubrics/rubric.yaml only: editing them changes routes."""

from __future__ import annotations

from pathlib import Path

from tiny_store import build_tiny_store

from pipeline.rubric import DEFAULT_RUBRIC_PATH, from_text
from pipeline.stages.build import BuildOptions, BuildRun, review_and_route


def rubric_with(old: str, new: str):
    text = DEFAULT_RUBRIC_PATH.read_text(encoding="utf-8")
    assert old in text
    return from_text(text.replace(old, new))


def test_changing_accept_mean_in_the_rubric_changes_what_is_accepted(tmp_path: Path) -> None:
    store = build_tiny_store(tmp_path / "state.db")
    options = BuildOptions(data_dir=tmp_path)
    spec = store.get_task("alpha").spec
    cases = [c for c in store.cases_for_round("alpha", 0)
             if c.name != "test_case_4"]  # not the conflict

    def routes(rubric) -> dict[str, str]:
        return {c.case_id: review_and_route(c, spec, "", "verified",
                                            BuildRun(options, store, print, rubric))[3].route
                for c in cases}

    shipped = routes(rubric_with("accept_mean: 7", "accept_mean: 7"))
    lenient = routes(rubric_with("accept_mean: 7", "accept_mean: 3"))
    strict = routes(rubric_with("accept_mean: 7", "accept_mean: 10"))
    conflicts = {c for c, r in shipped.items() if r == "area_chair"}  # spread > 3: any mean
    assert {c for c, r in lenient.items() if r == "area_chair"} == conflicts
    assert "accepted" not in strict.values()
    assert {c for c, r in lenient.items() if r != "area_chair"} == set(shipped) - conflicts
    assert set(lenient.values()) - {"area_chair"} == {"accepted"}
    assert "refine" in shipped.values()  # so 7 -> 3 accepted more
    store.close()


def test_max_refine_rounds_in_the_rubric_ends_refining(tmp_path: Path) -> None:
    store = build_tiny_store(tmp_path / "state.db")
    options = BuildOptions(data_dir=tmp_path)
    spec = store.get_task("alpha").spec
    case = store.cases_for_round("alpha", 0)[0]
    strict = rubric_with("accept_mean: 7", "accept_mean: 10")
    assert review_and_route(case, spec, "", "verified",
                            BuildRun(options, store, print, strict))[3].route \
        == "refine"
    none_left = rubric_with("max_refine_rounds: 5", "max_refine_rounds: 0")
    none_left = none_left.model_copy(update={"routing": none_left.routing.model_copy(
        update={"accept_mean": 10.0})})
    decision = review_and_route(case, spec, "", "verified",
                                BuildRun(options, store, print, none_left))[3]
    assert (decision.route, decision.discard_reason) == ("discarded", "low_quality")
    store.close()
