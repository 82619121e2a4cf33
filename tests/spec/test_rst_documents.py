"""A Sphinx-style API reference appended to a README: RST section titles underlined with `~`
(a Markdown code fence otherwise, which hid every section after the first), grid tables for
the received and returned objects, HTTP Digest with a configured default account, and the
`Accept` header choosing JSON over HTML; and a path whose parameter is a regex group."""

from __future__ import annotations

import textwrap

from pipeline.spec import extract_spec
from pipeline.spec.rst import rst_to_markdown
from pipeline.urlpath import param_patterns

README = textwrap.dedent("""\
    notes
    =====

    A private notes service.

    # docs/api.rst

    API
    ===

    The returned content (``application/json`` or ``text/html``) is controlled by
    the ``Accept:`` HTTP header.

    Some methods will require digest authentication.

    GET ``/note/``
    ~~~~~~~~~~~~~~

    It lists the notes.

    Returned object:

    +---------+---------+------------------------------+
    | Key     | Type    | Description                  |
    +=========+=========+==============================+
    | total   | Integer | Total number of notes        |
    +---------+---------+------------------------------+
    | notes   | List    | List of objects              |
    +---------+---------+------------------------------+

    The ``notes`` list will have objects with the following format:

    +---------+---------+------------------------------+
    | Key     | Type    | Description                  |
    +=========+=========+==============================+
    | note_id | Integer | Numeric unique ID            |
    +---------+---------+------------------------------+

    POST ``/note/``
    ~~~~~~~~~~~~~~~

    It will add a note. It requires authentication.

    Received object:

    +---------+---------+------------------------------+
    | Key     | Type    | Description                  |
    +=========+=========+==============================+
    | title   | String  | The title. Optional,         |
    |         |         | defaults to None             |
    +---------+---------+------------------------------+
    | text    | String  | The note's text              |
    +---------+---------+------------------------------+

    DELETE ``/note/<note_id>/``
    ~~~~~~~~~~~~~~~~~~~~~~~~~~~

    It will remove a note.

    Configuration
    -------------

    +----------+----------------+-------------+
    | Key      | Default        | Description |
    +==========+================+=============+
    | USERNAME | 'notes'        | Username    |
    +----------+----------------+-------------+
    | PASSWORD | hash of 'test' | Password    |
    +----------+----------------+-------------+
    """)


def test_titles_and_grid_tables_become_markdown_on_the_same_lines() -> None:
    out = rst_to_markdown(README)
    assert len(out.split("\n")) == len(README.split("\n"))
    lines = out.split("\n")
    title = README.split("\n").index("GET ``/note/``")
    assert lines[title].startswith("### GET ``/note/``")
    assert "| title | String | The title. Optional, defaults to None |" in lines
    assert "~~~" not in out and "+====" not in out


def test_every_section_is_read_with_its_tables() -> None:
    spec = extract_spec(README)
    eps = {(e.method, e.path): e for e in spec.endpoints}
    assert set(eps) == {("GET", "/note/"), ("POST", "/note/"), ("DELETE", "/note/{note_id}/")}
    create = eps[("POST", "/note/")]
    body = {p.name: p.required for p in create.params if p.location == "body"}
    assert body == {"title": False, "text": None}
    listing = eps[("GET", "/note/")]
    assert set(listing.response_schema["properties"]) == {"total", "notes"}
    assert not [p for p in listing.params if p.location == "query"]  # answer fields, no query


def test_digest_with_the_configured_account_and_json_on_request() -> None:
    spec = extract_spec(README)
    assert spec.auth is not None and spec.auth.scheme == "digest"
    assert spec.auth.account == ("notes", "test")
    assert spec.accept == "application/json"
    assert "accept" not in extract_spec("# A\n\n## GET /a\n\nReturns JSON.\n").model_dump()


def test_a_regex_group_pins_its_pattern_on_the_parameter() -> None:
    assert param_patterns("/api/v1/client/([0-9]*)") == {"id": "[0-9]*"}
    assert param_patterns("/a/(?P<pk>\\d+)/b/{slug}") == {"pk": "\\d+"}
    assert param_patterns("/x/<int:id>/<name>") == {"id": "[0-9]+"}
    spec = extract_spec("# C\n\n| Method | URL |\n|---|---|\n| GET | /client/([0-9]*) |\n")
    (ep,) = spec.endpoints
    assert ep.path == "/client/{id}"
    assert [p.constraints for p in ep.params if p.location == "path"] == [{"pattern": "[0-9]*"}]
