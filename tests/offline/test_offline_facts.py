"""The AST facts and endpoint matching the offline reviewers rely on."""

from __future__ import annotations

import review_samples as S

from pipeline.offline.endpoints import Target, find_endpoint, parse_target, same_endpoint
from pipeline.offline.facts import code_facts


def test_good_case_facts():
    f = code_facts(S.GOOD.code, S.GOOD.name)
    assert f.ok and f.docstring and f.name == S.GOOD.name
    assert f.params == ["base_url", "session"]
    assert [(r.method, r.path) for r in f.requests] == [
        ("POST", "/items"), ("GET", "/items/{}"), ("DELETE", "/items/{}")]
    assert f.status_codes == [200, 201]
    assert {c.kind for c in f.strong_checks} == {"type", "value"}
    assert f.fields == ["id", "name", "quantity"]
    assert f.imports == ["uuid"] and not f.foreign_imports
    assert not (f.sleeps or f.unseeded_random or f.swallows or f.hardcoded_host)


def test_hostile_case_facts():
    f = code_facts(S.HOSTILE.code, S.HOSTILE.name)
    assert f.foreign_imports == ["app.models"]
    assert f.sleeps == 1 and f.unseeded_random


def test_assertion_strength_classes():
    code = '''
def test_x(base_url, session):
    r = session.get(base_url + "/items")
    assert True
    assert r.status_code == 200
    assert r.json()
    assert "items" in r.json()
    assert isinstance(r.json()["total"], int)
    assert len(r.json()["items"]) == 1
    assert r.json()["items"][0]["name"] == "Hex bolt"
    assert r.status_code in (200, 404)
    assert r.headers["Content-Type"].startswith("application/json")
    r.raise_for_status()
'''
    kinds = [(c.kind, c.permissive) for c in code_facts(code).checks]
    assert kinds == [("trivial", False), ("status", False), ("truthy", False),
                     ("presence", False), ("type", False), ("length", False),
                     ("value", False), ("status", True), ("value", False), ("status", False)]


def test_request_urls_from_fstrings_concatenation_and_variables():
    code = '''
def test_x(base_url, client):
    url = f"{base_url}/orders/{order_id}"
    client.patch(f"{url}/status", json={})
    client.get(base_url + "/orders?limit=0")
    client.request("DELETE", "http://localhost:8000/orders/5")
    body = {"a": 1}
    body.get("a")
'''
    f = code_facts(code)
    assert [(r.method, r.path, r.query) for r in f.requests] == [
        ("PATCH", "/orders/{}/status", ()), ("GET", "/orders", ("limit",)),
        ("DELETE", "/orders/5", ())]
    assert f.hardcoded_host
    assert "pagination/limits" in f.edge_signals


def test_swallowed_assertions_and_syntax_errors():
    code = '''
def test_x(base_url, session):
    try:
        assert session.get(base_url + "/items").status_code == 200
    except Exception:
        pass
'''
    assert code_facts(code).swallows
    broken = code_facts("def test_x(:\n    pass\n")
    assert not broken.ok and "syntax error" in broken.error


def test_endpoint_matching_normalises_path_parameters():
    spec = S.make_spec()
    assert find_endpoint(spec, Target("GET", "/items/123")).path == "/items/{item_id}"
    assert find_endpoint(spec, Target("GET", "/items/{}")).path == "/items/{item_id}"
    assert find_endpoint(spec, Target("GET", "/items/{id}")).path == "/items/{item_id}"
    assert find_endpoint(spec, Target("PUT", "/items/1")) is None
    assert find_endpoint(spec, Target("GET", "/admin/stats")) is None
    assert parse_target("get /items/7?x=1") == Target("GET", "/items/7", ("x",))
    assert same_endpoint(Target("GET", "/items/7"), Target("GET", "/items/{item_id}"))
    assert not same_endpoint(Target("GET", "/items/7"), Target("DELETE", "/items/7"))


def test_literal_segment_beats_parameter():
    spec = S.make_spec()
    spec.endpoints.append(spec.endpoints[3].model_copy(update={"path": "/items/stats"}))
    assert find_endpoint(spec, Target("GET", "/items/stats")).path == "/items/stats"
    assert find_endpoint(spec, Target("GET", "/items/9")).path == "/items/{item_id}"


def test_base_path_is_tried_when_the_client_carries_it():
    spec = S.make_spec().model_copy(update={"base_path": "/api/v1"})
    spec.endpoints = [e.model_copy(update={"path": "/api/v1" + e.path}) for e in spec.endpoints]
    assert find_endpoint(spec, Target("GET", "/items/3")).path == "/api/v1/items/{item_id}"
    assert find_endpoint(spec, Target("GET", "/api/v1/items")).path == "/api/v1/items"


def test_a_class_range_does_not_assert_its_exclusive_bound():
    """`200 <= code < 300` accepts any 2xx: 300 is the bound, not a status the test asserts
    (the spec reviewer used to read it as an undocumented 300 and cap correctness)."""
    facts = code_facts('''
def test_x(base_url, session):
    r = session.get(f"{base_url}/a")
    assert 200 <= r.status_code < 300, r.text
    assert r.status_code in (200, 300)
''')
    first, second = [c for c in facts.checks if c.kind == "status"]
    assert first.codes == (200,) and not first.permissive
    assert second.codes == (200, 300)  # a listed 300 is asserted


def test_a_loop_over_values_the_test_wrote_always_runs():
    """Checks inside `for zone in ["UTC", "Asia/Kolkata"]` run every time; checks inside a
    loop over a response's records assert nothing when it is empty."""
    code = '''
def test_x(base_url, session):
    for zone in ["UTC", "Asia/Kolkata"]:
        r = session.get(base_url + "/events", params={"tz": zone})
        assert r.json()[0]["start"] == "x"
    for row in r.json():
        assert row["start"] == "x"
'''
    assert [c.looped for c in code_facts(code).checks] == [False, True]
