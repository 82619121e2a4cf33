"""Path normalisation and joining, shared by every extractor."""

from __future__ import annotations

import pytest

from pipeline.routes.model import join_paths, normalize_path, regex_to_path, split_wildcard


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("/items/:id", "/items/{id}"),
        ("/items/<id>", "/items/{id}"),
        ("/items/<int:item_id>", "/items/{item_id}"),
        ("/files/<path:name>/raw", "/files/{name}/raw"),
        ("/items/{id:int}", "/items/{id}"),
        ("/files/{path:.+}", "/files/{path}"),
        ("/items/{id: [0-9]+}", "/items/{id}"),
        ("/items/{id:[0-9]{3}}/x", "/items/{id}/x"),
        ("/search{?max,offset}", "/search"),
        ("items", "/items"),
        ("//api//items/", "/api/items/"),
        ("/v1/items:batchGet", "/v1/items:batchGet"),
        ("/users/{user-id}", "/users/{user-id}"),
    ],
)
def test_normalize_path(raw: str, expected: str) -> None:
    assert normalize_path(raw) == expected


@pytest.mark.parametrize(
    ("prefix", "path", "expected"),
    [
        ("/api", "/items", "/api/items"),
        ("/api/", "/items", "/api/items"),
        ("/api", "items/", "/api/items/"),
        ("/api", "/", "/api/"),
        ("/api", "", "/api"),
        ("", "/items", "/items"),
    ],
)
def test_join_paths_keeps_the_trailing_slash_as_written(prefix, path, expected) -> None:
    assert join_paths(prefix, path) == expected


@pytest.mark.parametrize(
    ("regex", "expected"),
    [
        (r"^items/(?P<pk>[0-9]+)/$", ("items/{pk}/", False)),
        (r"^items/(?P<pk>\d+)/?$", ("items/{pk}", False)),
        (r"^archive/([0-9]{4})/(\d+)/$", ("archive/{arg1}/{arg2}/", False)),
        (r"^api/", ("api/", True)),
        (r"^files/.*$", ("files/", True)),
        (r"^a\.json$", ("a.json", False)),
    ],
)
def test_django_regex_to_path(regex: str, expected: tuple[str, bool]) -> None:
    assert regex_to_path(regex) == expected


def test_split_wildcard() -> None:
    assert split_wildcard("/static/*") == ("/static", True)
    assert split_wildcard("/api/**") == ("/api", True)
    assert split_wildcard("/*") == ("/", True)
    assert split_wildcard("/items") == ("/items", False)
