"""A table of endpoints whose body columns link to model sections (`Ref [Client](#client)`),
with paths written as regex groups (Tornado's `/client/([0-9]*)`): paths are read as
templates, the linked models become the bodies, and the create takes the update's body."""

from __future__ import annotations

import textwrap

import pytest

from pipeline.spec import extract_spec
from pipeline.urlpath import normalise_params

README = textwrap.dedent("""\
    # Clients

    | HTTP Method | URL | REQUEST BODY | RESPONSE BODY |
    |---|---|---|---|
    | GET | /api/v1/client | | Ref [Array Client](#array-client) |
    | POST | /api/v1/client | | Ref [Client](#client) |
    | GET | /api/v1/client/([0-9]*) | | Ref [Client](#client) |
    | PUT | /api/v1/client/([0-9]*) | Ref [Client](#client) | Ref [Client](#client) |

    ### Model

    #### Client
    ```javascript
    {"name": "string", "email": "string", "birth_date": "date"}
    ```
    """)


@pytest.mark.parametrize("written,path", [
    ("/api/v1/client/([0-9]*)", "/api/v1/client/{id}"),
    ("/a/(?P<pk>[0-9]+)/b/([^/]+)", "/a/{pk}/b/{id}"),
    (r"/r/(\w+)/(\d+)", "/r/{id}/{id2}"),
    ("/plain/(note)", "/plain/(note)"),  # words in brackets, not a pattern
])
def test_regex_groups_are_path_parameters(written: str, path: str) -> None:
    assert normalise_params(written) == path


def test_linked_models_are_the_bodies_and_the_create_takes_the_updates() -> None:
    eps = {(e.method, e.path): e for e in extract_spec(README).endpoints}
    assert set(eps) == {("GET", "/api/v1/client"), ("POST", "/api/v1/client"),
                        ("GET", "/api/v1/client/{id}"), ("PUT", "/api/v1/client/{id}")}
    put = eps[("PUT", "/api/v1/client/{id}")]
    assert set(put.request_example) == {"name", "email", "birth_date"}
    assert put.request_schema["properties"]["birth_date"]["format"] == "date"
    assert eps[("POST", "/api/v1/client")].request_example == put.request_example
    listed = eps[("GET", "/api/v1/client")].response_schema
    assert listed["type"] == "array" and "email" in listed["items"]["properties"]
    assert eps[("GET", "/api/v1/client")].request_example is None  # no body on a read
