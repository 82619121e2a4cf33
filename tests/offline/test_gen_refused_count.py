"""A refused create is checked against the collection's size even when the document gives
only a schema whose total sits one level down (`pagination.total`)."""

from __future__ import annotations

from pipeline.offline.generate import generate_cases
from pipeline.spec import extract_spec

DOC = """# Notes service

#### Create note
- **API Name**: `POST /api/v1/notes`
- **Input Schema**:
```json
{"title": "string (required, max 20 characters)", "body": "string"}
```
- **Output Schema**:
```json
{"id": "integer", "title": "string", "body": "string"}
```
- **Error Codes**: 422 - validation error

#### List notes
- **API Name**: `GET /api/v1/notes`
- **Output Schema**:
```json
{"notes": [{"id": "integer", "title": "string"}],
 "pagination": {"page": "integer", "total": "integer"}}
```

#### Get note
- **API Name**: `GET /api/v1/notes/{note_id}`
- **Output Schema**:
```json
{"id": "integer", "title": "string", "body": "string"}
```
- **Error Codes**: 404 - not found
"""


def test_a_refused_create_compares_the_nested_total_before_and_after() -> None:
    refused = [c for c in generate_cases("notes", extract_spec(DOC))
               if c.name.startswith("test_create_note_") and "returns_422" in c.name]
    assert refused, "no refused create generated"
    for case in refused:
        assert 'count_after.json()["pagination"]["total"] == ' \
               'count_before.json()["pagination"]["total"]' in case.code, case.code
        # counted before the refused request, compared after it
        assert case.code.index("count_before = ") < case.code.index("session.post(") \
            < case.code.index("count_after = ")
