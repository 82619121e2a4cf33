"""A thin README that names its credential header in one sentence ("In request header, we
need api-token, which is generated while creating new user or while logging in"): the header
is that name, every endpoint but sign-up and sign-in is protected, and the sign-up is open."""

from __future__ import annotations

import textwrap

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    Site API

    1. Create User - POST api/v1/users
    2. Login User - POST api/v1/users/login
    3. Get All users - GET api/v1/users
    4. Create a site - POST api/v1/sites

    In request header, we need api-token, which is generated while creating new user or
    while logging in.
    """)


def test_the_named_header_protects_all_but_the_account_endpoints() -> None:
    spec = extract_spec(README)
    assert spec.auth is not None
    assert (spec.auth.scheme, spec.auth.header) == ("api-key", "api-token")
    protected = {(e.method, e.path): e.auth_required for e in spec.endpoints}
    assert protected == {("POST", "/api/v1/users"): False,
                         ("POST", "/api/v1/users/login"): False,
                         ("GET", "/api/v1/users"): True,
                         ("POST", "/api/v1/sites"): True}


def test_a_header_named_outside_a_sentence_about_headers_is_no_credential() -> None:
    spec = extract_spec(README.replace("In request header, we need api-token",
                                       "The api-token comes back"))
    assert spec.auth is None or spec.auth.header != "api-token"
