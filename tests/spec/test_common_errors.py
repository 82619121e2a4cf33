"""A document-wide error-code list applied per endpoint (pipeline/spec/common_errors.py)."""

from __future__ import annotations

from pipeline.spec import extract_spec
from pipeline.spec.common_errors import common_error_codes

README = """# Board Service

- **Base Path**: `/api`

### Error Response Format

```json
{"error": {"code": "string", "message": "string"}}
```

Common Error Codes:
- `400`: Request parameter error
- `404`: Resource not found (e.g., `board_id` does not exist)
- `409`: Resource conflict (e.g., non-current player placing a stone, cell already taken)
- `422`: Data validation failed
- `500`: Internal server error

#### Create Board
- **API Name**: `POST /api/boards`
- **Input Schema**:
```json
{"name": "string (required, 1-20 chars)"}
```

#### List Boards
- **API Name**: `GET /api/boards`
- **Query Parameters**:
  - `limit`: integer (optional, default: 10, max: 100)

#### Get Board
- **API Name**: `GET /api/boards/{board_id}`

#### Place Stone
- **API Name**: `POST /api/boards/{board_id}/stones`
- **Input Schema**:
```json
{"player": "string (enum: ['B', 'W'])", "cell": "integer (required, 0-8)"}
```

#### Clear Board
- **API Name**: `POST /api/boards/{board_id}/clear`
- **Responses**:
  - `404`: no board with this id
"""


def _codes() -> dict[str, dict[int, str]]:
    return {f"{e.method} {e.path}": e.status_codes for e in extract_spec(README).endpoints}


def test_the_list_is_read_with_its_texts() -> None:
    codes = common_error_codes(README)
    assert sorted(codes) == [400, 404, 409, 422, 500]
    assert codes[422] == "Data validation failed"


def test_not_found_goes_to_endpoints_naming_a_record() -> None:
    codes = _codes()
    assert 404 in codes["GET /api/boards/{board_id}"]
    assert 404 in codes["POST /api/boards/{board_id}/stones"]
    assert 404 not in codes["POST /api/boards"]


def test_validation_goes_to_endpoints_taking_input() -> None:
    codes = _codes()
    assert {400, 422} <= set(codes["POST /api/boards"])
    assert 422 not in codes["GET /api/boards/{board_id}"]


def test_beside_a_validation_status_400_stays_for_bodies() -> None:
    codes = _codes()
    assert 422 in codes["GET /api/boards"]
    assert 400 not in codes["GET /api/boards"]


def test_a_conflict_goes_only_to_the_endpoint_its_examples_name() -> None:
    codes = _codes()
    assert "non-current player" in codes["POST /api/boards/{board_id}/stones"][409]
    assert 409 not in codes["POST /api/boards"]
    assert 409 not in codes["POST /api/boards/{board_id}/clear"]


def test_an_endpoint_own_status_text_is_kept_and_5xx_is_never_copied() -> None:
    codes = _codes()
    assert codes["POST /api/boards/{board_id}/clear"][404] == "no board with this id"
    assert all(500 not in c for c in codes.values())


def test_no_list_changes_nothing() -> None:
    assert common_error_codes("# T\n\n- `404`: not found\n") == {}


HEADINGS = """# Quiz Service

### Error Handling

Errors come back as JSON.

#### 400: Bad Request

This is returned when the request is malformed. (i.e. Required info is missing)

#### 404: Not Found

This is returned when the resource does not exist. (i.e. Attempting to view a page of
cards that don't exist)

#### 405: Method Not Allowed

This is returned for a wrong method. (i.e. Attempting to delete without naming a card)

#### 422: Unprocessable Entity

This is returned when the request cannot be fulfilled. (i.e. Attempting to update a card
that has previously been deleted)

### Endpoints

#### GET /cards

Retrieve a page of cards

Parameters:

- page (int) [optional]: the page, 10 per page

#### GET /decks

Retrieve all decks

#### POST /cards

Create a new card

Parameters:

- front (str): the front

#### PATCH /cards/<card_id>

Update a card's score

Parameters:

- score (int): the score

#### DELETE /cards/<card_id>

Delete a card
"""


def _heading_codes() -> dict[str, dict[int, str]]:
    return {f"{e.method} {e.path}": e.status_codes for e in extract_spec(HEADINGS).endpoints}


def test_a_heading_per_status_under_an_error_heading_is_read_with_its_paragraph() -> None:
    codes = common_error_codes(HEADINGS)
    assert sorted(codes) == [400, 404, 405, 422]
    assert "page of cards" in codes[404] and codes[404].startswith("Not Found")


def test_a_not_found_naming_a_page_goes_to_paged_lists_too() -> None:
    codes = _heading_codes()
    assert 404 in codes["GET /cards"]
    assert 404 not in codes["GET /decks"]  # no page parameter
    assert 404 in codes["DELETE /cards/{card_id}"] and 404 not in codes["POST /cards"]


def test_examples_that_name_an_action_go_only_to_that_method() -> None:
    codes = _heading_codes()
    assert 422 in codes["PATCH /cards/{card_id}"]
    assert 422 not in codes["DELETE /cards/{card_id}"]  # "been deleted" is not the action
    assert 422 not in codes["POST /cards"]
    assert all(405 not in c for c in codes.values())


def test_a_sentence_naming_error_types_labels_a_bullet_list() -> None:
    doc = ("# T\n\n### Error Handling\n\nErrors are JSON objects.\n\n"
           "The API will return three error types when requests fail:\n\n"
           "- 400: Bad Request\n- 404: Resource Not Found\n- 422: Not Processable\n")
    assert sorted(common_error_codes(doc)) == [400, 404, 422]
