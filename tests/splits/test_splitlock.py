"""Stable split membership: the lock, incremental quotas, expert preference, resplit, moves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from tiny_store import build_tiny_data, build_tiny_store, write_raw

from pipeline.rubric import load_rubric
from pipeline.stages.resplit import locked_splits, move_task, resplit
from pipeline.stages.splitlock import AutoTask, Entry, LockError, assign, read_lock, write_lock

ROOT = Path(__file__).resolve().parents[2]


def pool(n: int, level: str = "Easy", source: str = "github", start: int = 0):
    return [AutoTask(f"{level.lower()}-{i}", level, source) for i in range(start, start + n)]


def test_selecting_one_task_then_all_never_moves_it(tmp_path: Path) -> None:
    tasks = pool(10)
    first = locked_splits(tmp_path, [tasks[3]], "s", 0.3, True)
    everyone = locked_splits(tmp_path, tasks, "s", 0.3, True)
    assert everyone[tasks[3].id] == first[tasks[3].id]
    # and asking again with any selection gives the recorded answer
    assert locked_splits(tmp_path, tasks[2:5], "s", 0.3, True) == {
        t.id: everyone[t.id] for t in tasks[2:5]}


def test_adding_tasks_moves_no_existing_one_and_keeps_the_share(tmp_path: Path) -> None:
    before = locked_splits(tmp_path, pool(10), "s", 0.3, True)
    after = locked_splits(tmp_path, pool(10) + pool(10, start=10), "s", 0.3, True)
    assert {k: after[k] for k in before} == before
    assert sum(v == "verified" for v in before.values()) == 3
    assert sum(v == "verified" for v in after.values()) == 6  # 0.3 * 20


def test_one_at_a_time_keeps_the_share_per_level() -> None:
    locked: dict[str, Entry] = {}
    for task in pool(25) + pool(8, "Hard"):
        locked |= assign([task], locked, "s", 0.28)
    easy = [e for e in locked.values() if e.level == "Easy"]
    hard = [e for e in locked.values() if e.level == "Hard"]
    assert sum(e.split == "verified" for e in easy) == 7  # round(0.28 * 25) = 7
    assert sum(e.split == "verified" for e in hard) == 2  # round(0.28 * 8) = 2


def test_expert_written_tasks_are_preferred_for_verified() -> None:
    tasks = pool(6, source="github") + [AutoTask("x-1", "Easy", "expert"),
                                        AutoTask("x-2", "Easy", "expert")]
    chosen = assign(tasks, {}, "s", 0.25)
    assert {i for i, e in chosen.items() if e.split == "verified"} == {"x-1", "x-2"}
    unpreferred = assign(tasks, {}, "s", 0.25, prefer_expert=False)
    assert sum(e.split == "verified" for e in unpreferred.values()) == 2


def test_lock_file_round_trips_and_bad_lines_are_named(tmp_path: Path) -> None:
    entries = assign(pool(4), {}, "s", 0.5)
    write_lock(tmp_path / "splits.lock", entries)
    assert read_lock(tmp_path / "splits.lock") == entries
    (tmp_path / "bad.lock").write_text("a verified Easy expert\nb maybe Easy expert\n")
    with pytest.raises(LockError, match=r"bad.lock:2: .*b maybe"):
        read_lock(tmp_path / "bad.lock")


def test_resplit_cli_says_what_moved_and_fixed_tasks_stay(tmp_path: Path) -> None:
    for i in range(6):
        write_raw(tmp_path / "raw", f"t{i}")
    write_raw(tmp_path / "raw", "fixed", split="verified")

    def run(*args: str) -> str:
        out = subprocess.run([sys.executable, "-m", "pipeline", "resplit", *args,
                              "--data", str(tmp_path)], capture_output=True, text=True,
                             cwd=ROOT, check=True)
        return out.stdout

    run("--seed", "a", "--share", "0.5")
    before = read_lock(tmp_path / "splits.lock")
    assert "fixed" not in before and len(before) == 6
    shown = run("--seed", "b", "--share", "0.5")
    after = read_lock(tmp_path / "splits.lock")
    moved = {i for i in before if before[i].split != after[i].split}
    assert moved, "seeds a and b should place at least one task differently"
    for task_id in moved:
        assert f"{task_id}: {before[task_id].split} -> {after[task_id].split}" in shown
    assert f"{len(moved)} task(s) moved" in shown
    assert resplit(tmp_path, None, "b", 0.5, True) == []  # same policy: nothing moves


def test_moving_a_task_reroutes_only_split_dependent_cases(tmp_path: Path) -> None:
    store = build_tiny_store(tmp_path / "state.db")
    rules = load_rubric().routing
    cases_before = store.latest_cases("alpha")
    reviews_before = store.all_reviews("alpha")
    routes_before = {c.case_id: store.latest_route(c.case_id) for c in cases_before}
    assert move_task(store, "alpha", "train", rules, 3) == 1
    assert store.get_task("alpha").split == "train"
    assert store.latest_cases("alpha") == cases_before
    assert store.all_reviews("alpha") == reviews_before
    for case in cases_before:
        now = store.latest_route(case.case_id)
        if case.name == "test_case_4":  # the conflict: Area Chair on verified only
            assert routes_before[case.case_id].route == "area_chair"
            assert (now.route, now.discard_reason) == ("discarded", "conflict")
        else:
            assert now == routes_before[case.case_id]
    assert move_task(store, "alpha", "verified", rules, 3) == 1
    assert store.latest_route("alpha::test_case_4").route == "area_chair"
    store.close()


def test_moving_a_task_keeps_its_human_written_tests(tmp_path: Path) -> None:
    """A human-written case with the Area Chair on verified is accepted on train (the
    build's rule, `routing.keep_human`), not discarded as a conflict by the move."""
    store = build_tiny_store(tmp_path / "state.db")
    rules = load_rubric().routing
    conflict = store.latest_cases("alpha")[4]  # test_case_4: the conflict (totals 2, 9, 6)
    assert conflict.name == "test_case_4"
    store.save_case(conflict.model_copy(update={"origin": "existing", "author": "human",
                                                "module": "test_upstream"}))
    assert move_task(store, "alpha", "train", rules, 3) == 1
    moved = store.latest_route(conflict.case_id)
    assert (moved.route, moved.discard_reason) == ("accepted", None)
    assert "kept: a human-written test" in moved.reason and "train has no Area Chair" in \
        moved.reason
    store.close()


def test_build_resolution_of_one_task_then_all_then_a_new_one(tmp_path: Path) -> None:
    """Through the build's own steps: `build --task X` then a full build never move X, and a
    task added to data/raw moves nobody."""
    from pipeline.stages.build import BuildOptions, prepare, resolve_splits
    from pipeline.store import Store

    raw = tmp_path / "raw"
    for i in range(8):
        write_raw(raw, f"t{i}", source="github" if i % 2 else "expert")
    write_raw(raw, "fixed", split="train")
    options = BuildOptions(data_dir=tmp_path, seed="s", verified_share=0.28)
    store = Store.open(tmp_path / "state.db")

    def resolve(names: list[str]) -> dict[str, str]:
        return resolve_splits(prepare([raw / n for n in names], store, print), options)

    alone = resolve(["t5"])
    everyone = resolve([f"t{i}" for i in range(8)] + ["fixed"])
    assert everyone["t5"] == alone["t5"] and everyone["fixed"] == "train"
    write_raw(raw, "t8")
    grown = resolve([f"t{i}" for i in range(9)] + ["fixed"])
    assert {k: grown[k] for k in everyone} == everyone
    assert "fixed" not in read_lock(tmp_path / "splits.lock")
    store.close()


class NoWork:
    """A backend that fails the test if the build asks it for anything."""

    name = "offline"
    reviewer_count = 3

    def __getattr__(self, attr: str):
        raise AssertionError(f"a moved task must not call the backend ({attr})")


def test_build_of_a_moved_task_redoes_nothing_but_its_split_routes(tmp_path: Path) -> None:
    from pipeline.rubric import load_rubric
    from pipeline.stages.build import BuildOptions, BuildRun, build_task, input_hash, prepare

    data = tmp_path / "data"
    store = build_tiny_data(data)
    item = prepare([data / "raw" / "alpha"], store, print)[0]
    extra = "same-inputs"
    store.upsert_task("alpha", input_hash=input_hash(item.task.dir, extra))
    cases = store.latest_cases("alpha")
    reviews = store.all_reviews("alpha")
    options = BuildOptions(data_dir=data, backend=NoWork())
    said: list[str] = []
    result = build_task(item, "train", BuildRun(
        options, store, lambda _task, message: said.append(message), load_rubric(), extra))
    assert (result.state, result.split) == ("reused", "train")
    assert said == ["moved from verified to train: 1 case(s) routed anew, nothing else redone"]
    assert store.latest_cases("alpha") == cases and store.all_reviews("alpha") == reviews
    assert store.latest_route("alpha::test_case_4").discard_reason == "conflict"
    store.close()


def test_moving_a_task_sends_its_shape_only_human_test_to_the_area_chair(tmp_path: Path) -> None:
    """A human-written test that asserts only a status, accepted on train (its author stands
    in), waits for the Area Chair once its task moves to verified, and back again."""
    store = build_tiny_store(tmp_path / "state.db")
    rules = load_rubric().routing
    first = next(c for c in store.latest_cases("alpha")
                 if store.latest_route(c.case_id).route == "accepted")
    code = (f"def {first.name}(base_url):\n    r = requests.get(base_url + '/items')\n"
            "    assert r.status_code == 200\n")
    with store.transaction() as conn:  # the same version, its code as a human wrote it
        conn.execute("UPDATE test_cases SET code = ?, origin = 'existing', author = 'human', "
                     "module = 'test_upstream' WHERE case_id = ?", (code, first.case_id))
    move_task(store, "alpha", "train", rules, 3)
    assert store.latest_route(first.case_id).route == "accepted"
    move_task(store, "alpha", "verified", rules, 3)
    waiting = store.latest_route(first.case_id)
    assert waiting.route == "area_chair" and "only status codes, keys or types" in waiting.reason
    move_task(store, "alpha", "train", rules, 3)
    assert store.latest_route(first.case_id).route == "accepted"
    store.close()


def test_moving_a_task_does_not_send_a_finished_human_test_back_to_refine(tmp_path: Path) -> None:
    """A human test whose refine came back unchanged was decided at its round (discarded by
    the reviewers, then kept): a move decides it again the same way, it does not route it to
    a refine that no build would run."""
    store = build_tiny_store(tmp_path / "state.db")
    rules = load_rubric().routing
    low = store.latest_cases("alpha")[1]  # test_case_1: discarded low quality at round 0
    assert (low.round, store.latest_route(low.case_id).discard_reason) == (0, "low_quality")
    with store.transaction() as conn:
        conn.execute("UPDATE test_cases SET origin = 'existing', author = 'human', "
                     "module = 'test_upstream' WHERE case_id = ?", (low.case_id,))
    move_task(store, "alpha", "train", rules, 3)
    kept = store.latest_route(low.case_id)
    assert (kept.route, kept.discard_reason) == ("accepted", None)
    assert "the refiner could not change the test" in kept.reason
    move_task(store, "alpha", "verified", rules, 3)
    assert store.latest_route(low.case_id).route == "area_chair"
    store.close()
