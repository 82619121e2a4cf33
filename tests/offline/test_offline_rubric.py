"""The rubric file: loads, validates against Scores, hashes canonically, renders for prompts."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from pipeline.records import RUBRIC_DIMENSIONS
from pipeline.rubric import (
    DEFAULT_RUBRIC_PATH,
    from_text,
    hash_text,
    load_rubric,
    render_text,
    rubric_hash,
)


@pytest.fixture()
def rubric_text() -> str:
    return DEFAULT_RUBRIC_PATH.read_text(encoding="utf-8")


def test_load_rubric_has_four_dimensions_with_anchors_for_every_level():
    rubric = load_rubric()
    assert tuple(d.key for d in rubric.dimensions) == RUBRIC_DIMENSIONS
    assert [(d.min, d.max) for d in rubric.dimensions] == [(0, 3), (0, 3), (0, 2), (0, 2)]
    assert rubric.total.max == 10
    for d in rubric.dimensions:
        assert sorted(d.anchors) == list(range(d.min, d.max + 1))
        assert all(len(text.split()) >= 8 for text in d.anchors.values()), d.key
    assert rubric.routing.accept_mean == 7
    assert rubric.routing.conflict_spread == 3
    assert rubric.routing.max_refine_rounds == 5


def test_rubric_routing_helpers():
    rubric = load_rubric()
    assert rubric.accepts(7.0) and not rubric.accepts(6.99)
    assert rubric.conflicts([9, 5, 8]) and not rubric.conflicts([9, 6, 8])
    assert rubric.clamp("readability", 5) == 2 and rubric.clamp("correctness", -1) == 0


def test_hash_is_short_hex_and_stable(rubric_text):
    h = rubric_hash()
    assert len(h) == 16 and int(h, 16) >= 0
    assert rubric_hash() == h == load_rubric().hash == hash_text(rubric_text)


def test_hash_ignores_comments_and_layout_but_not_content(rubric_text, tmp_path: Path):
    relaid = "# a new comment\n" + yaml.safe_dump(yaml.safe_load(rubric_text), sort_keys=True)
    assert hash_text(relaid) == hash_text(rubric_text)
    changed = rubric_text.replace("accept_mean: 7", "accept_mean: 8")
    assert changed != rubric_text
    assert hash_text(changed) != hash_text(rubric_text)
    reworded = rubric_text.replace("Hard to follow", "Very hard to follow", 1)
    assert hash_text(reworded) != hash_text(rubric_text)
    path = tmp_path / "rubric.yaml"
    path.write_text(changed, encoding="utf-8")
    assert load_rubric(path).hash == rubric_hash(path) == hash_text(changed)


def test_rubric_must_match_scores_ranges(rubric_text):
    data = yaml.safe_load(rubric_text)
    data["dimensions"][2]["max"] = 3
    data["dimensions"][2]["anchors"][3] = "an extra level"
    with pytest.raises(ValidationError, match="differs from Scores"):
        from_text(yaml.safe_dump(data))


def test_rubric_needs_an_anchor_for_every_level(rubric_text):
    data = yaml.safe_load(rubric_text)
    del data["dimensions"][0]["anchors"][1]
    with pytest.raises(ValidationError, match="anchors must be exactly"):
        from_text(yaml.safe_dump(data))


def test_rubric_needs_the_four_dimensions_in_order(rubric_text):
    data = yaml.safe_load(rubric_text)
    data["dimensions"].reverse()
    with pytest.raises(ValidationError, match="dimensions must be"):
        from_text(yaml.safe_dump(data))


def test_render_text_lists_every_anchor_and_the_hash():
    rubric = load_rubric()
    text = render_text(rubric)
    assert text == rubric.render_text()
    assert rubric.hash in text
    for d in rubric.dimensions:
        assert f"[{d.key}] ({d.min}-{d.max})" in text
        for level, anchor in d.anchors.items():
            assert f"  {level}: {' '.join(anchor.split())}" in text
    assert "mean total >= 7" in text and "> 3" in text
