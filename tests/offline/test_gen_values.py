"""Generated tests check values, not only shape: error tests show the refusal had no effect
(or leaked nothing), health and summary answers carry their documented constants and counts,
list answers contain the record the test created. Reads the generated code (fast)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.offline.generate import generate_cases
from pipeline.offline.strength import shape_only_code
from pipeline.spec import load_spec

RAW = Path(__file__).resolve().parents[2] / "data" / "raw"


def _cases(task: str) -> dict[str, str]:
    spec = load_spec(RAW / task / "README.md")
    return {c.name: c.code for c in generate_cases(task, spec)}


@pytest.mark.parametrize("task,name,needle", [
    # a refused write on an unknown id leaves the collection as it was
    ("todo-tasks", "test_delete_todo_unknown_id_returns_404",
     "assert len(count_after.json()) == len(count_before.json())"),
    # a refused repeat leaves the record as it was
    ("todo-tasks", "test_post_todo_complete_twice_returns_409",
     "assert stored_after.json() == stored_before.json()"),
    # an unknown id is 404 while a known one is found (a service answering 404 always fails)
    ("todo-tasks", "test_get_todo_unknown_id_returns_404",
     'assert known.json()["id"] == todo_id'),
    # a read without a token does not carry the record the owner created
    ("secure-notes", "test_get_notes_without_token_returns_401",
     'assert payload["title"] not in response.text'),
    ("secure-notes", "test_get_notes_with_unknown_token_returns_401",
     'assert ascii(payload["title"])[1:-1] not in response.text'),
    ("secure-notes", "test_post_notes_without_token_returns_401",
     'assert count_after.json()["total"] == count_before.json()["total"]'),
    # another user's read is refused; the owner still reads the note as sent
    ("secure-notes", "test_other_user_cannot_read_note",
     'assert kept["title"] == payload["title"]'),
    ("secure-notes", "test_register_login_use_token_then_logout_revokes_it",
     'assert me.json()["username"] == credentials["username"]'),
    # documented constants and counts of a health answer
    ("library-books", "test_get_health_returns_200_with_documented_fields",
     'assert recount.json()["books"] == body["books"] + 1'),
    ("secure-notes", "test_get_health_returns_200_with_documented_fields",
     'assert body["status"] == "ok"'),
    ("todo-tasks", "test_get_todos_stats_returns_200_with_documented_fields",
     'assert recount.json()["total"] == body["total"] + 1'),
    # an action answers about the record in its URL, with the values sent
    ("todo-tasks", "test_post_todo_complete_returns_200", 'assert result.json()["id"] == todo_id'),
    ("library-books", "test_post_book_loan_returns_201",
     'assert result.json()["member"] == body_sent["member"]'),
    ("order-desk", "test_post_products_returns_201_with_documented_fields",
     'assert response.json()["sku"] == payload["sku"]'),
    # a plain list contains the record the test created
    ("todo-tasks", "test_get_todos_returns_200_with_documented_fields",
     'assert todo_id in [record["id"] for record in body]'),
])
def test_generated_case_checks_a_value(task: str, name: str, needle: str) -> None:
    code = _cases(task)[name]
    assert needle in code
    assert not shape_only_code(code, name)


def test_a_count_is_never_taken_for_a_constant() -> None:
    code = _cases("url-shortener")["test_get_health_returns_200_with_documented_fields"]
    assert 'assert body["status"] == "ok"' in code
    assert 'body["links"] == 17' not in code  # the documented example's count is not a rule



def test_value_checks_go_after_the_request_under_test_not_its_setup() -> None:
    code = _cases("library-books")["test_post_book_loan_returns_201"]
    setup, tested = code.split("body_sent = ", 1)
    assert "response.json()[" not in setup  # the book created to lend is not re-checked
    assert 'result.json()["book_id"] == book_id' in tested


def test_an_action_documented_by_schema_only_still_names_its_record() -> None:
    """No example body, only a response schema: the answer's `game_id` is the URL's."""
    code = _cases("tic-tac-toe")["test_post_game_moves_is_applied_and_read_back"]
    assert 'assert answer["game_id"] == game_game_id' in code
