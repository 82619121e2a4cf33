"""Bearer auth with no endpoint that issues tokens (the published `Customization` style):
the generated suite still reaches the protected endpoints, with a fresh token per user."""

from __future__ import annotations

from pipeline.offline.conftest_template import conftest_source
from pipeline.offline.gen_model import build_model
from pipeline.offline.generate import generate_cases
from pipeline.records import AuthSpec, Endpoint, Spec

NOTE = Endpoint(method="POST", path="/notes", auth_required=True,
                request_example={"text": "hello"}, response_example={"id": 1, "text": "hello"},
                status_codes={201: "Created", 401: "Unauthorized"})
LIST = Endpoint(method="GET", path="/notes", auth_required=True,
                response_example={"items": []}, status_codes={200: "OK", 401: "Unauthorized"})


def spec(*extra: Endpoint, login_path: str | None = None) -> Spec:
    return Spec(title="Notes", port=8123, auth=AuthSpec(scheme="bearer", login_path=login_path),
                endpoints=[NOTE, LIST, *extra])


def test_no_issuing_endpoint_means_opaque_tokens() -> None:
    assert build_model(spec()).opaque_tokens
    assert build_model(spec()).auth_usable
    login = Endpoint(method="POST", path="/auth/login", request_example={"user": "a"})
    assert not build_model(spec(login, login_path="/auth/login")).opaque_tokens
    # a token endpoint the document does not name as the login still rules the mode out
    assert not build_model(spec(Endpoint(method="POST", path="/tokens"))).opaque_tokens
    api_key = Spec(auth=AuthSpec(scheme="api-key", header="X-API-Key"), endpoints=[NOTE])
    assert not build_model(api_key).opaque_tokens


def test_conftest_gives_two_distinct_users() -> None:
    namespace: dict[str, object] = {}
    exec(compile(conftest_source(spec(), 8123), "conftest.py", "exec"), namespace)  # noqa: S102
    new_user_headers = namespace["new_user_headers"]
    first, second = new_user_headers("http://unused"), new_user_headers("http://unused")
    assert first["Authorization"].startswith("Bearer user-")
    assert first != second
    assert callable(namespace["auth_headers"]) and callable(namespace["other_auth_headers"])


def test_protected_endpoints_get_cases_with_auth_headers() -> None:
    cases = generate_cases("notes", spec())
    with_auth = {e for c in cases if "auth_headers" in c.code for e in c.endpoints}
    assert {"POST /notes", "GET /notes"} <= with_auth
