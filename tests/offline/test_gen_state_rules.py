"""Actions on a record whose rules the document states as conflicts and resets
(pipeline/offline/gen_state_rules.py), and pages that show an input back (gen_pages.py).

The fixture documents its errors only once, for the whole service, and its output only by
schema (no example): the turn rule and the taken cell come from the conflict's examples.
"""

from __future__ import annotations

from pipeline.offline.generate import generate_cases
from pipeline.spec import extract_spec

README = """# Board Service

- **Base Path**: `/api`

### Error Response Format

```json
{"error": {"code": "string", "message": "string"}}
```

Common Error Codes:
- `404`: Resource not found (e.g., `board_id` does not exist)
- `409`: Resource conflict (e.g., non-current player placing a stone, cell already taken)
- `422`: Data validation failed

#### Create Board
- **API Name**: `POST /api/boards`
- **Input Schema**:
```json
{"name": "string (required, 1-20 chars)"}
```
- **Output Schema**:
```json
{"board_id": "string", "cells": ["string|null"], "next_player": "string (enum: ['B', 'W'])",
 "state": "string (enum: ['open'])"}
```

#### Get Board
- **API Name**: `GET /api/boards/{board_id}`
- **Output Schema**:
```json
{"board_id": "string", "cells": ["string|null"], "next_player": "string", "state": "string",
 "updated_at": "string"}
```

#### Place Stone
- **API Name**: `POST /api/boards/{board_id}/stones`
- **Input Schema**:
```json
{"player": "string (enum: ['B', 'W'])", "cell": "integer (required, 0-8)"}
```
- **Output Schema**:
```json
{"board_id": "string", "cells": ["string|null"], "next_player": "string", "state": "string",
 "last_stone": {"player": "string", "cell": "integer"}, "updated_at": "string"}
```

#### Restart Board
- **API Name**: `POST /api/boards/{board_id}/restart`
- **Function**: Reset the board to its initial state
- **Output Schema**:
```json
{"board_id": "string", "cells": ["string|null"], "next_player": "string", "state": "string"}
```
"""

PAGE = """# Coin Service

- API Name: Flip page
  - Method: GET
  - Path: `/flip`
  - Input Schema:
    - `side` (query): string, enum {`heads`,`tails`}. Not provided or invalid: treated as `heads`.
  - Output: HTML document containing the following text segments:
    - `You called: <user_side>`
    - `The coin showed: <coin_side>`
"""


def _cases(readme: str = README) -> dict[str, str]:
    return {c.name: c.code for c in generate_cases("board", extract_spec(readme))}


def test_id_key_comes_from_the_output_schema() -> None:
    code = _cases()["test_get_board_returns_created_board"]
    assert 'board_board_id = board["board_id"]' in code
    assert 'body["name"]' not in code  # `name` is sent but the schema does not answer it


def test_a_created_field_with_one_allowed_value_is_checked() -> None:
    code = _cases()["test_create_board_succeeds_with_record"]
    assert 'assert board["state"] == "open"' in code
    assert 'board["next_player"] ==' not in code  # two allowed values: not pinned


def test_the_current_player_move_is_echoed_and_read_back() -> None:
    code = _cases()["test_post_board_stones_is_applied_and_read_back"]
    assert 'sent["player"] = board["next_player"]' in code
    assert 'assert {k: answer["last_stone"][k] for k in sent} == sent' in code
    assert 'assert stored["cells"] == answer["cells"]' in code
    assert 'stored["updated_at"]' not in code  # a time stamp moves on


def test_a_non_current_player_is_refused_and_nothing_changes() -> None:
    code = _cases()["test_post_board_stones_by_non_current_player_returns_409"]
    assert 'if v != board["next_player"])' in code
    assert "assert response.status_code == 409, response.text" in code
    assert "assert after.json() == before.json()" in code


def test_a_taken_cell_is_refused_for_the_player_whose_turn_it_is() -> None:
    code = _cases()["test_post_board_stones_on_a_taken_target_returns_409"]
    lines = [ln.strip() for ln in code.splitlines()]
    assert 'again["player"] = now.json()["next_player"]' in lines
    assert lines.index('again["player"] = now.json()["next_player"]') < lines.index(
        "assert response.status_code == 409, response.text")


def test_reset_restores_the_created_values_after_a_move() -> None:
    code = _cases()["test_post_board_restart_restores_the_created_state"]
    lines = [ln.strip() for ln in code.splitlines()]
    move = next(i for i, ln in enumerate(lines) if ln.startswith("changed = "))
    clear = next(i for i, ln in enumerate(lines) if "/restart" in ln)
    assert move < clear
    assert 'assert answer["cells"] == board["cells"]' in lines
    assert 'assert fetched.json()["next_player"] == board["next_player"]' in lines


def test_document_wide_codes_give_exact_refusals() -> None:
    names = set(_cases())
    assert "test_get_board_unknown_id_returns_404" in names
    assert "test_create_board_without_name_returns_422" in names
    assert not any(n.endswith("_is_refused_with_4xx") for n in names)


def test_no_conflict_document_no_turn_rule() -> None:
    plain = README.replace("non-current player placing a stone, cell already taken",
                           "a name used twice")
    names = set(_cases(plain))
    assert not any("non_current" in n or "taken_target" in n for n in names)


def test_a_page_shows_each_allowed_value_and_the_fallback() -> None:
    cases = _cases(PAGE)
    each = cases["test_get_flip_shows_each_allowed_side"]
    assert 'params={"side": "heads"}' in each and 'params={"side": "tails"}' in each
    assert 'assert shown.group(1) == "tails"' in each
    assert 'other.group(1) in ["heads", "tails"]' in each
    assert "for " not in each  # written out, no assertion inside a loop
    assert 'assert shown.group(1) == "heads"' in cases["test_get_flip_without_side_shows_heads"]
    assert 'params={"side": unique("unlisted")}' in cases[
        "test_get_flip_with_unlisted_side_shows_heads"]
