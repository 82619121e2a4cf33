"""curl bodies written over several lines (`-d '{` ... `}'`), the way most walkthroughs show
them: the body is the endpoint's documented request, and the next command is still read."""

from __future__ import annotations

from pipeline.spec import extract_spec
from pipeline.spec.curl import parse_curls

README = """# Staff API

Create Staff
To add someone:

```bash
curl -X POST http://localhost:8000/staff \\
-H "Content-Type: application/json" \\
-d '{
    "name": "Ada",
    "grade": 3
}'
```
Update Staff

```bash
curl -X PUT http://localhost:8000/staff/7 -d '{"name": "Bea",
  "grade": 4}' -H "Authorization: Bearer T"
curl -X DELETE http://localhost:8000/staff/7
```
"""


def test_a_body_over_several_lines_is_read_whole_and_the_next_command_too() -> None:
    found = parse_curls(README.split("\n"))
    assert [(c.method, c.url) for c in found] == [
        ("POST", "http://localhost:8000/staff"), ("PUT", "http://localhost:8000/staff/7"),
        ("DELETE", "http://localhost:8000/staff/7")]
    assert found[0].data is not None and '"grade": 3' in found[0].data
    assert found[1].headers == ("Authorization: Bearer T",)


def test_the_body_is_the_endpoints_request_example() -> None:
    spec = {(e.method, e.path): e for e in extract_spec(README).endpoints}
    assert spec[("POST", "/staff")].request_example == {"name": "Ada", "grade": 3}
    assert spec[("PUT", "/staff/{staff_id}")].request_example == {"name": "Bea", "grade": 4}
    assert {p.name for p in spec[("POST", "/staff")].params} == {"name", "grade"}


def test_an_apostrophe_in_prose_does_not_swallow_the_lines_after_it() -> None:
    lines = ["Run curl http://localhost:8000/staff and you'll see the list.", "", "More prose."]
    found = parse_curls(lines)
    assert [(c.method, c.url) for c in found] == [("GET", "http://localhost:8000/staff")]


def test_a_form_body_is_read_as_fields_and_a_jq_read_as_the_answers_field() -> None:
    typed, plain, single, json_body = parse_curls([
        'T=$(curl -X POST http://h/token -H "Content-Type: application/x-www-form-urlencoded" '
        '-d "username=a%40b.c&password=x" | jq -r .access_token)',
        "curl -X POST http://h/login --data 'user=a&pass=b'",
        "curl -X POST http://h/one -d 'user=a'",
        """curl -X POST http://h/j -d '{"a=b": 1}' | jq '.id'""",
    ])
    assert typed.form == {"username": "a@b.c", "password": "x"}
    assert typed.reads == ("access_token",)
    assert plain.form == {"user": "a", "pass": "b"}  # key=value pairs need no header
    assert single.form == {"user": "a"}  # curl sends `-d` form-encoded: one pair is a form
    assert json_body.form is None and json_body.reads == ("id",)
