"""Which sent values a test may expect back unchanged: a calendar date the record's schema
types as a date, and an e-mail address already in lower case, come back as sent; an e-mail in
mixed case may be normalised and is left out."""

from __future__ import annotations

import textwrap

from pipeline.offline.gen_code import Writer
from pipeline.offline.gen_model import build_model
from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Patients

    | HTTP Method | URL | Request body | Response body |
    |---|---|---|---|
    | POST | /patients | Ref [Patient](#patient) | Ref [Patient](#patient) |
    | GET | /patients/{id} | | Ref [Patient](#patient) |

    ### Model

    #### Patient

    ```javascript
    {
        "id": "string",
        "name": "string",
        "email": "string",
        "born": "date",
        "seen_at": "datetime"
    }
    ```
    """)


def test_dates_typed_as_dates_and_lower_case_addresses_are_echoed() -> None:
    model = build_model(extract_spec(README))
    res = next(r for r in model.resources if r.noun == "patient")
    w = Writer(model)
    sent = {"name": "Ann", "email": "ann@example.com", "born": "1990-04-01",
            "seen_at": "2024-01-01"}
    assert w.echo_fields(res, sent) == ["name", "email", "born"]
    assert "email" not in w.echo_fields(res, {**sent, "email": "Ann@Example.com"})
