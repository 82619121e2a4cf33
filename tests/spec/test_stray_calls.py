"""Endpoints listed in a table, calls shown in an "Example Requests" section of their own: each
call that names exactly one documented endpoint gives it the body the table left out, and never
overrides what the endpoint's own section says."""

from __future__ import annotations

from pipeline.spec import extract_spec

README = """# Gadgets

| Method | Endpoint | Description |
|--------|----------|-------------|
| `GET` | `/api/gadgets/` | List gadgets |
| `POST` | `/api/gadgets/` | Create a gadget |
| `PUT` | `/api/gadgets/{id}` | Update a gadget |
| `DELETE` | `/api/gadgets/{id}` | Delete a gadget |

## PUT details

PUT /api/gadgets/{id} takes a body:

```json
{"colour": "teal"}
```

### Example Requests

```bash
curl -X POST http://localhost:8000/api/gadgets/ \\
  -H "Content-Type: application/json" -H "X-Api-Key: K" \\
  -d '{"name": "Lamp", "watts": 40}'

curl -X PUT http://localhost:8000/api/gadgets/3 -d '{"name": "Other"}'
curl -X PATCH http://localhost:8000/api/gadgets/3 -d '{"name": "Nobody documents PATCH"}'
curl -X DELETE http://localhost:8000/api/gadgets/3
```
"""


def _by_key() -> dict:
    return {(e.method, e.path): e for e in extract_spec(README).endpoints}


def test_a_call_in_an_examples_section_gives_the_table_endpoint_its_body_and_auth() -> None:
    create = _by_key()[("POST", "/api/gadgets/")]
    assert create.request_example == {"name": "Lamp", "watts": 40}
    assert {p.name for p in create.params if p.location == "body"} == {"name", "watts"}
    assert create.auth_required is True


def test_the_endpoints_own_section_speaks_first() -> None:
    assert _by_key()[("PUT", "/api/gadgets/{id}")].request_example == {"colour": "teal"}


def test_a_call_of_no_documented_endpoint_adds_nothing() -> None:
    keys = _by_key()
    assert ("PATCH", "/api/gadgets/{id}") not in keys
    assert keys[("DELETE", "/api/gadgets/{id}")].request_example is None
    assert keys[("GET", "/api/gadgets/")].request_example is None


TRANSCRIPTS = """# Kites

| Method | Path |
|---|---|
| POST | /kites |
| GET | /kites/{id} |
| PUT | /kites/{id} |

Examples:

    $ curl -i -X POST localhost:8000/kites -d '{"name": "Red"}'
    HTTP/1.1 201 Created
    Location: /kites/4
    Content-Type: application/json

    {"id": 4, "name": "Red"}

    $ curl localhost:8000/kites/4
    {"id": 4, "name": "Red", "flown": 0}

    $ curl -X PUT localhost:8000/kites/4 -d '{"name": "Blue"}'
"""


def test_a_transcript_gives_its_status_answer_and_location_and_a_bare_answer_its_success(
) -> None:
    by = {(e.method, e.path): e for e in extract_spec(TRANSCRIPTS).endpoints}
    create = by[("POST", "/kites")]
    assert create.response_examples == {201: {"id": 4, "name": "Red"}}
    assert create.location_header
    assert by[("GET", "/kites/{id}")].response_example == {"id": 4, "name": "Red", "flown": 0}
    update = by[("PUT", "/kites/{id}")]
    assert update.request_example == {"name": "Blue"} and update.response_example is None
