"""Services that answer with HTML pages (the published `rock-paper-scissors-flask` style),
fixtures of our own in English and Chinese: nested "- API Name: X" / "- Method:" / "- Path:"
items, inputs as "`name` (query|form): type, enum {...}" bullets, and an "Output: HTML ..."
line whose quoted text (up to a `<placeholder>`) is what the page must show."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from pipeline.records import Endpoint, Spec
from pipeline.spec import load_spec
from pipeline.spec.texts import fixed_part, placeholder

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def spec(name: str) -> Spec:
    return load_spec(FIXTURES / f"{name}.md")


def ep(name: str, method: str, path: str) -> Endpoint:
    found = {e.key: e for e in spec(name).endpoints}
    assert (method, path) in found, sorted(found)
    return found[(method, path)]


def test_page_texts_and_summaries() -> None:
    home = ep("html_pages", "GET", "/")
    assert home.summary == "Start page"
    assert home.response_text == ["Dice Roller"]  # not the path `/roll` nor the field `sides`
    assert home.params == []  # "a form ... with the field `sides`" is output, not input
    roll = ep("html_pages", "GET", "/roll")
    assert roll.summary == "Roll (query)"
    assert roll.response_text == ["You rolled: <value>", "Dice used: d<sides>"]
    assert [fixed_part(t) for t in roll.response_text] == ["You rolled:", "Dice used: d"]
    assert [placeholder(t) for t in roll.response_text] == ["value", "sides"]


def test_inputs_with_location_type_and_allowed_values() -> None:
    get = next(p for p in ep("html_pages", "GET", "/roll").params if p.name == "sides")
    assert (get.location, get.type, get.constraints) == ("query", "integer", {"enum": [6, 8, 20]})
    post = next(p for p in ep("html_pages", "POST", "/roll").params if p.name == "sides")
    assert (post.location, post.type, post.constraints) == ("body", "integer",
                                                            {"enum": [6, 8, 20]})


def test_same_as_output_copies_the_page_texts() -> None:
    assert ep("html_pages", "POST", "/roll").response_text == ["You rolled: <value>",
                                                                "Dice used: d<sides>"]


def test_chinese_edition() -> None:
    assert ep("zh_html_pages", "GET", "/").summary == "首页"
    assert ep("zh_html_pages", "GET", "/").response_text == ["掷骰子"]
    roll = ep("zh_html_pages", "GET", "/roll")
    assert [fixed_part(t) for t in roll.response_text] == ["点数：", "骰子：d"]
    sides = next(p for p in roll.params if p.name == "sides")
    assert (sides.location, sides.type, sides.constraints) == ("query", "integer",
                                                               {"enum": [6, 8, 20]})


@pytest.mark.parametrize("doc", ["html_pages", "zh_html_pages"])
def test_json_documents_get_no_page_text(doc: str) -> None:
    # the texts are only for responses documented as pages; every other fixture has none
    others = [p for p in FIXTURES.glob("*.md") if "html_pages" not in p.name]
    assert others
    assert not [(p.name, e.key) for p in others for e in load_spec(p).endpoints
                if e.response_text]
