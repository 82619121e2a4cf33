"""A list under a record that neither the document nor the oracle shows (the example that
would make a child fails on the oracle, so nothing was observed) is still read back: the
parent is made by the test, so its list holds only the test's records and no page can
hide the new one. A top-level list stays unchecked that way (it may be paged)."""

from __future__ import annotations

import textwrap

from pipeline.offline.generate import generate_cases
from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Boards

    ## POST /boards

    Request: `{"title": "Trip"}`. Response `201`: `{"id": 3, "title": "Trip"}`.

    ## GET /boards

    All boards.

    ## GET /boards/{board_id}

    Response `200`: `{"id": 3, "title": "Trip"}`.

    ## POST /boards/{board_id}/cards

    Request: `{"text": "Buy tickets"}`. Response `201`: `{"id": 7, "text": "Buy tickets"}`.

    ## GET /boards/{board_id}/cards

    The cards of a board.
    """)


def test_a_new_child_is_looked_for_in_its_fresh_parents_list() -> None:
    cases = {c.name: c for c in generate_cases("boards", extract_spec(README))}
    card = cases.get("test_created_card_appears_in_list")
    assert card is not None, sorted(cases)
    assert "records_in(listed_body)" in card.code and "/boards/{" in card.code, card.code
    assert "test_created_board_appears_in_list" not in cases
