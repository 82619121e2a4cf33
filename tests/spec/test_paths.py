"""Path normalisation, base-path application, method lists."""

from __future__ import annotations

import pytest

from pipeline.spec.paths import apply_base, normalise_base, normalise_target, split_methods


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ("/users/:id", "/users/{id}"),
        ("/users/<id>", "/users/{id}"),
        ("/users/<int:id>", "/users/{id}"),
        ("/files/<path:file_path>", "/files/{file_path}"),
        ("/items/{item_id:int}", "/items/{item_id}"),
        ("/items/{id:[0-9]+}", "/items/{id}"),
        ("/items/{ id }", "/items/{id}"),
        ("/items/{{itemId}}", "/items/{itemId}"),
        ("/items/${itemId}/tags", "/items/{itemId}/tags"),
        ("/items/$ID", "/items/{ID}"),
        ("/posts/[slug]", "/posts/{slug}"),
        ("/todos/:id(\\d+)", "/todos/{id}"),
        ("http://localhost:5000/users", "/users"),
        ("https://api.example.com:8443/v1/users/", "/v1/users/"),
        ("localhost:8080/health", "/health"),
        ("{{baseUrl}}/orders", "/orders"),
        ("/reports/2024.v2/summary.csv", "/reports/2024.v2/summary.csv"),
        ("/user-profiles/", "/user-profiles/"),
        ("/users.", "/users"),
        ("/users/{id}),", "/users/{id}"),
        ("/v1/items:batchGet", "/v1/items:batchGet"),
        ("http://localhost:8000", "/"),
    ],
)
def test_normalise_target(raw: str, path: str) -> None:
    target = normalise_target(raw)
    assert target is not None
    assert target.path == path


def test_query_string_becomes_params() -> None:
    target = normalise_target("/items?limit=10&offset=0#top")
    assert target is not None
    assert target.path == "/items"
    assert target.query == ("limit", "offset")


def test_uri_template_query_becomes_params() -> None:
    target = normalise_target("/notes{?page,per_page}")
    assert target is not None
    assert (target.path, target.query) == ("/notes", ("page", "per_page"))


def test_full_url_is_absolute_relative_is_not() -> None:
    full = normalise_target("http://localhost:8080/api/users")
    rel = normalise_target("/users")
    assert full is not None and full.absolute
    assert rel is not None and not rel.absolute


def test_not_a_path() -> None:
    assert normalise_target("users") is None


@pytest.mark.parametrize(
    ("raw", "base"),
    [
        ("http://localhost:8080/api/v1", "/api/v1"),
        ("http://localhost:8080/api/v1/", "/api/v1"),
        ("http://localhost:8080", ""),
        ("/v2", "/v2"),
    ],
)
def test_normalise_base(raw: str, base: str) -> None:
    assert normalise_base(raw) == base


@pytest.mark.parametrize(
    ("path", "base", "result"),
    [
        ("/users", "/api/v1", "/api/v1/users"),
        ("/api/v1/users", "/api/v1", "/api/v1/users"),
        ("/api/v1", "/api/v1", "/api/v1"),
        ("/api/v10/users", "/api/v1", "/api/v1/api/v10/users"),
        ("/users", "", "/users"),
        ("/users", "/api/", "/api/users"),
    ],
)
def test_apply_base(path: str, base: str, result: str) -> None:
    assert apply_base(path, base) == result


def test_split_methods_keeps_order_and_drops_repeats() -> None:
    assert split_methods("get, PUT|get / Delete") == ["GET", "PUT", "DELETE"]


def test_a_method_then_a_path_without_its_leading_slash_is_an_endpoint() -> None:
    from pipeline.spec.paths import ENDPOINT_RE, TARGET_ONLY_RE

    m = ENDPOINT_RE.search("3. Get one user - GET api/v1/users/<int:user_id>")
    assert m is not None and normalise_target(m.group("target")).path == "/api/v1/users/{user_id}"
    assert ENDPOINT_RE.search("send a GET request and/or wait") is None  # no word/ path
    # a bare `movies/:id` table cell is no endpoint: only "METHOD path" lines take the form
    assert TARGET_ONLY_RE.match("movies/:id") is None
