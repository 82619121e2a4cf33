"""Pure matching of documented endpoints against routes, with hand-worked values."""

from __future__ import annotations

import pytest

from pipeline.records import Endpoint
from pipeline.routes import Route, match_endpoints


def ep(method: str, path: str) -> Endpoint:
    return Endpoint(method=method, path=path)


def r(method: str, path: str, prefix: bool = False) -> Route:
    return Route(method, path, prefix, "app.py", 1, "flask")


def test_half_the_endpoints_missing_gives_coverage_one_half() -> None:
    endpoints = [
        ep("GET", "/items"),
        ep("POST", "/items"),
        ep("GET", "/items/{id}"),
        ep("DELETE", "/items/{id}"),
    ]
    routes = [r("GET", "/items"), r("GET", "/items/{item_id}")]
    m = match_endpoints(endpoints, routes)
    assert m.coverage == 0.5
    assert [(e.method, e.path) for e in m.missing] == [
        ("POST", "/items"),
        ("DELETE", "/items/{id}"),
    ]
    assert m.undocumented == []
    assert [(x.endpoint.path, x.route.path, x.how) for x in m.matched] == [
        ("/items", "/items", "exact"),
        ("/items/{id}", "/items/{item_id}", "exact"),  # param names do not matter
    ]


def test_no_endpoints_means_no_coverage_and_all_routes_undocumented() -> None:
    routes = [r("GET", "/a")]
    m = match_endpoints([], routes)
    assert m.coverage is None
    assert m.undocumented == routes


def test_method_must_agree_unless_route_takes_any() -> None:
    m = match_endpoints(
        [ep("PUT", "/items/{id}"), ep("PATCH", "/items/{id}")],
        [r("GET", "/items/{id}"), r("*", "/items/{x}")],
    )
    assert m.coverage == 1.0
    assert {x.route.method for x in m.matched} == {"*"}
    assert [x.method for x in m.undocumented] == ["GET"]


def test_exact_method_preferred_over_wildcard_and_head_served_by_get() -> None:
    get_route, any_route = r("GET", "/items"), r("*", "/items")
    m = match_endpoints([ep("GET", "/items"), ep("HEAD", "/items")], [any_route, get_route])
    assert m.route_for(ep("GET", "/items")) is get_route
    assert m.route_for(ep("HEAD", "/items")) is get_route
    assert m.undocumented == []


def test_param_must_not_swallow_a_literal_segment() -> None:
    m = match_endpoints([ep("GET", "/items/search")], [r("GET", "/items/{id}")])
    assert m.coverage == 0.0
    assert len(m.undocumented) == 1


def test_trailing_slash_difference_matches_but_is_reported() -> None:
    m = match_endpoints(
        [ep("GET", "/items/"), ep("POST", "/items")], [r("GET", "/items"), r("POST", "/items")]
    )
    assert m.coverage == 1.0
    assert [(x.endpoint.method, x.how) for x in m.trailing_slash] == [("GET", "trailing_slash")]
    assert [x.how for x in m.matched] == ["trailing_slash", "exact"]


def test_exact_path_beats_trailing_slash_variant() -> None:
    slash, plain = r("GET", "/items/"), r("GET", "/items")
    m = match_endpoints([ep("GET", "/items")], [slash, plain])
    assert m.route_for(ep("GET", "/items")) is plain


def test_prefix_routes_cover_what_is_beneath_them() -> None:
    items = r("*", "/api/items", prefix=True)
    health = r("*", "/health", prefix=True)
    admin = r("*", "/admin", prefix=True)
    endpoints = [
        ep("GET", "/api/items"),
        ep("DELETE", "/api/items/{id}"),
        ep("GET", "/health"),
        ep("GET", "/api/itemsx"),
        ep("GET", "/other"),
    ]
    m = match_endpoints(endpoints, [items, health, admin])
    assert m.coverage == pytest.approx(3 / 5)
    assert [(e.path) for e in m.missing] == ["/api/itemsx", "/other"]  # segment-wise, not text
    assert m.undocumented == [admin]  # nothing documented beneath /admin
    assert [(x.endpoint.path, x.how) for x in m.matched] == [
        ("/api/items", "exact"),  # the prefix route's own path
        ("/api/items/{id}", "prefix"),
        ("/health", "exact"),
    ]


def test_most_specific_route_wins_over_root_context() -> None:
    root, items = r("*", "/", prefix=True), r("GET", "/items/{id}")
    m = match_endpoints([ep("GET", "/items/{id}"), ep("GET", "/x")], [root, items])
    assert m.route_for(ep("GET", "/items/{id}")) is items
    assert m.route_for(ep("GET", "/x")) is root
    assert m.undocumented == []


def test_duplicate_endpoints_count_once() -> None:
    m = match_endpoints([ep("get", "/a"), ep("GET", "/a"), ep("GET", "/b")], [r("GET", "/a")])
    assert m.coverage == 0.5
    assert len(m.matched) == 1 and len(m.missing) == 1
