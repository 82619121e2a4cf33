"""Every route comes from one decision (`routing.decide`): a task built on train and then
moved to verified by `resplit` ends with exactly the routes of the same task built on verified
from the start, human-written tests (kept, shape-only, failing) included."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from pipeline.rubric import load_rubric
from pipeline.stages.build import BuildOptions, build
from pipeline.stages.resplit import move_task
from pipeline.store import Store
from tests.conftest import make_task

pytestmark = pytest.mark.slow

HUMAN = textwrap.dedent("""\
    import os

    import requests

    BASE = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:18996")


    def test_ping_answers():
        assert requests.get(BASE + "/ping", timeout=5).status_code == 200


    def test_ping_body_is_pong():
        assert requests.get(BASE + "/ping", timeout=5).json() == {"pong": True}


    def test_unknown_item_is_gone():
        assert requests.get(BASE + "/items/x", timeout=5).status_code == 410
    """)


def built_routes(tmp: Path, split: str) -> tuple[Store, dict[str, tuple]]:
    data = tmp / split / "data"
    task = make_task(data / "raw", "ping", 18996, toml=textwrap.dedent(f"""\
        id = "ping"
        language = "python"
        framework = "stdlib"
        domain = "test"
        source = "expert"
        port = 18996
        split = "{split}"
        """))
    (task / "tests").mkdir()
    (task / "tests" / "test_upstream.py").write_text(HUMAN)
    store = Store.open(data / ".repogenesis" / "state.db")
    results = build(BuildOptions(data_dir=data, mutation_cap=0), store, lambda *_: None)
    assert [r.state for r in results] == ["done"], results
    return store, routes(store)


def routes(store: Store) -> dict[str, tuple]:
    out = {}
    for case in store.latest_cases("ping"):
        r = store.latest_route(case.case_id)
        # a failure's memory addresses differ between two builds, not between decisions
        out[case.name] = (r.round, r.route, r.discard_reason,
                          re.sub(r"0x[0-9a-f]+", "0x…", r.reason))
    return out


def test_a_moved_task_has_the_routes_a_build_on_its_new_split_gives(tmp_path: Path) -> None:
    rules = load_rubric().routing
    verified_store, on_verified = built_routes(tmp_path, "verified")
    train_store, on_train = built_routes(tmp_path, "train")
    try:
        assert on_train != on_verified  # the split decides some routes (human work, conflicts)
        human = {k: v for k, v in on_verified.items() if k.startswith("test_ping_answers")}
        assert human and all(v[1] == "area_chair" for v in human.values())  # shape-only
        move_task(train_store, "ping", "verified", rules, 3)
        assert routes(train_store) == on_verified
        move_task(verified_store, "ping", "train", rules, 3)
        assert routes(verified_store) == on_train
    finally:
        verified_store.close()
        train_store.close()
