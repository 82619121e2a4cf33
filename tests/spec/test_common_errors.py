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
