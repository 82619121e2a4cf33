from pipeline.records import TestCase
from pipeline.stages.split import assign_auto_splits, case_file


def tasks(level: str, n: int) -> list[tuple[str, str]]:
    return [(f"{level.lower()}-{i}", level) for i in range(n)]


def test_each_level_gets_its_share_rounded_half_up() -> None:
    chosen = assign_auto_splits(tasks("Easy", 4) + tasks("Medium", 3) + tasks("Hard", 1),
                                seed="s", verified_share=0.5)
    by_level = {}
    for task_id, split in chosen.items():
        level = task_id.split("-")[0]
        by_level.setdefault(level, []).append(split)
    assert by_level["easy"].count("verified") == 2  # 4 * 0.5
    assert by_level["medium"].count("verified") == 2  # 1.5 rounds up
    assert by_level["hard"].count("verified") == 1  # 0.5 rounds up


def test_choice_is_seeded_and_order_independent() -> None:
    pool = tasks("Easy", 10)
    a = assign_auto_splits(pool, seed="one", verified_share=0.3)
    assert a == assign_auto_splits(list(reversed(pool)), seed="one", verified_share=0.3)
    others = [assign_auto_splits(pool, seed=s, verified_share=0.3) for s in ("two", "three")]
    assert any(o != a for o in others)
    assert sum(v == "verified" for v in a.values()) == 3


def test_share_bounds() -> None:
    pool = tasks("Easy", 5)
    assert set(assign_auto_splits(pool, "s", 0.0).values()) == {"train"}
    assert set(assign_auto_splits(pool, "s", 1.0).values()) == {"verified"}


def test_case_files() -> None:
    gen = TestCase(case_id="t::a", task_id="t", round=0, category="edge_case", name="test_a",
                   code="def test_a():\n    assert 1\n")
    human = gen.model_copy(update={"origin": "existing", "module": "test_smoke"})
    assert case_file(gen) == "test_edge_case.py"
    assert case_file(human) == "existing/test_smoke.py"
