"""HTTPie commands in a requirement document (`http POST URL field=value`): endpoints, bodies,
the Authorization header as an auth marker, and a summary from the sentence above a block."""

from __future__ import annotations

from pipeline.spec import extract_spec
from pipeline.spec.curl import parse_httpie

README = """# Books API

Only authenticated users can use the API.

## Accounts

First we need to create an account
```
http POST http://h/api/v1/auth/register/ username="PERSON" password="PASS@123"
```

To get a token we request
```
http http://h/api/v1/auth/token/ username="PERSON" password="PASS@123"
```
after that, we get the token
```
{"access": "eyJhbGci.eyJ1c2Vy.abc", "refresh": "eyJhbGci.eyJ4Ijp9.def"}
```

## Commands

| Description | HTTP Command |
|---|---|
| Get all books | `http http://h/api/v1/books/ "Authorization: Bearer {T}"` |
| Create a book | `http POST http://h/api/v1/books/ "Authorization: Bearer T" title="Dune" year=1` |
| Delete a book | `http DELETE http://h/api/v1/books/{book_id}/ "Authorization: Bearer {T}"` |
"""


def test_parse_httpie_reads_method_url_headers_and_fields() -> None:
    line = ('`http PUT http://localhost:8000/x/1/ "Authorization: Bearer T" title="A B" '
            'year=2018 tags:=\'["a"]\' page==2`')
    (cmd,) = parse_httpie([line])
    assert (cmd.method, cmd.url) == ("PUT", "http://localhost:8000/x/1/")
    assert cmd.headers == ("Authorization: Bearer T",)
    assert cmd.data == '{"title": "A B", "year": 2018, "tags": ["a"]}'
    # HTTPie's defaults: GET without fields, POST with them; prose with a URL is no command
    assert parse_httpie(["http http://127.0.0.1/a/"])[0].method == "GET"
    assert parse_httpie(["http http://127.0.0.1/a/ name=x"])[0].method == "POST"
    assert parse_httpie(["see http://example.com for details"]) == []


def test_httpie_document_yields_endpoints_bodies_and_auth() -> None:
    spec = extract_spec(README)
    eps = {(e.method, e.path): e for e in spec.endpoints}
    assert set(eps) == {("POST", "/api/v1/auth/register/"), ("POST", "/api/v1/auth/token/"),
                        ("GET", "/api/v1/books/"), ("POST", "/api/v1/books/"),
                        ("DELETE", "/api/v1/books/{book_id}/")}
    token = eps[("POST", "/api/v1/auth/token/")]
    assert token.request_example == {"username": "PERSON", "password": "PASS@123"}
    assert set(token.response_example) == {"access", "refresh"}  # the block after the command
    assert token.summary == "To get a token we request"
    create = eps[("POST", "/api/v1/books/")]
    assert create.request_example == {"title": "Dune", "year": 1}
    assert create.auth_required is True
    assert eps[("GET", "/api/v1/books/")].summary == "Get all books"
