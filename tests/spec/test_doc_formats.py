"""A document-wide "timestamps are ISO 8601" rule marks the answers' time fields
(pipeline/spec/doc_formats.py) and the generator checks them (body checks)."""

from __future__ import annotations

from pipeline.offline.generate import generate_cases
from pipeline.spec import extract_spec
from pipeline.spec.doc_formats import iso_times_rule

README = """# Clock Service

#### Health
- **API Name**: `GET /health`
- **Output Schema**:
```json
{"status": "string", "timestamp": "string", "version": "string"}
```

## Technical Specifications
- Logging and timestamp fields as ISO 8601 strings
"""


def test_the_rule_is_read_only_when_said_for_the_whole_service() -> None:
    assert iso_times_rule("- Logging and timestamp fields as ISO 8601 strings")
    assert iso_times_rule("All dates are ISO 8601.")
    assert not iso_times_rule("- `due_date`: Due date, optional, ISO 8601 format")


def test_time_fields_are_marked_and_checked() -> None:
    spec = extract_spec(README)
    props = spec.endpoints[0].response_schema["properties"]
    assert props["timestamp"]["format"] == "date-time"
    assert "format" not in props["version"]
    code = next(c.code for c in generate_cases("clock", spec) if "health" in c.name)
    assert "re.match(" in code and 'body["timestamp"]' in code


def test_without_the_rule_nothing_is_marked() -> None:
    spec = extract_spec(README.replace("as ISO 8601 strings", "as strings"))
    assert "format" not in spec.endpoints[0].response_schema["properties"]["timestamp"]
