"""The README passages a case is about: each endpoint's section and where each literal the
assertions compare with is stated (or that it is not)."""

from __future__ import annotations

import textwrap

from pipeline.spec import extract_spec
from pipeline.spec.passages import case_passages, compared_literals, literal_pattern

README = textwrap.dedent("""\
    # Events

    ## Rules

    - `size` is at most 100; a larger `size` is refused with `400`.

    ## Endpoints

    ### GET /events

    (so `GET /events` means the list)

    Returns `{"items": [...], "total": 3}`.

    ### POST /events

    Creates an event; `201` and the record. Status starts as "open".
    """)

CODE = textwrap.dedent("""\
    def test_size(base_url, session):
        r = session.get(f"{base_url}/events", params={"size": 101})
        assert r.status_code in (400, 422)
        assert r.json()["error"] == "size_too_large"
        assert len(r.json().get("items", [])) == 0
    """)


def test_literals_are_the_constants_compared_with_once_each() -> None:
    assert compared_literals(CODE) == [400, 422, "error", "size_too_large", "items"]
    assert compared_literals("def f(:\n") == []  # unparsable code has none


def test_a_number_matches_only_as_a_whole_number() -> None:
    p = literal_pattern(100)
    assert p.search("at most 100;") and p.search("(100)")
    assert not p.search("1000") and not p.search("1.100") and not p.search("100.5")
    assert literal_pattern(2.0).search("page 2 of") and literal_pattern("open").search('"open"')
    assert not literal_pattern("open").search("reopened")


def test_passages_show_the_endpoint_and_where_each_literal_is_stated() -> None:
    spec = extract_spec(README)
    passages = case_passages(README, spec, ["GET /events"], CODE)
    by = {p.about: p for p in passages}
    assert [p.kind for p in passages][:1] == ["endpoint"]
    assert by["GET /events"].text.startswith("### GET /events")
    assert "POST" not in by["GET /events"].text
    # the limit is stated in a rules section the endpoint's passage does not reach
    assert [n for n, _ in by["400"].lines] == [5] and not by["400"].within
    assert not by["422"].stated and not by["'size_too_large'"].stated
    assert not by["'error'"].stated
    # a literal inside the endpoint's passage points there instead of repeating it
    assert by["'items'"].within == ("GET /events",)


def test_a_string_found_only_in_another_case_counts() -> None:
    by = {p.about: p for p in case_passages(README, None, [], 'assert b["s"] == "OPEN"')}
    assert [n for n, _ in by["'OPEN'"].lines] == [17]
