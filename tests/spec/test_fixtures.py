"""Every fixture README yields exactly its expected endpoint set (and in document order)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.spec import extract_spec, spec_json

FIXTURES = Path(__file__).parent / "fixtures"
DOCS = sorted(FIXTURES.glob("*.md"))


def test_fixture_set_is_varied() -> None:
    assert len(DOCS) >= 20
    assert all(d.with_suffix(".json").exists() for d in DOCS)


@pytest.mark.parametrize("doc", DOCS, ids=[d.stem for d in DOCS])
def test_endpoint_set_matches_expected(doc: Path) -> None:
    expected = json.loads(doc.with_suffix(".json").read_text(encoding="utf-8"))
    spec = extract_spec(doc.read_text(encoding="utf-8"))
    got = [(e.method, e.path) for e in spec.endpoints]
    want = [(e["method"], e["path"]) for e in expected]
    assert set(got) == set(want)
    assert len(got) == len(set(got)), "duplicates must be removed"
    assert got == want, "endpoints come in order of first appearance"


@pytest.mark.parametrize("doc", DOCS, ids=[d.stem for d in DOCS])
def test_spec_json_is_serialisable(doc: Path) -> None:
    payload = spec_json(extract_spec(doc.read_text(encoding="utf-8")))
    text = json.dumps(payload, ensure_ascii=False)
    for item in json.loads(text):
        assert list(item)[:2] == ["method", "path"]
