"""Never an empty suite: every documented endpoint gets generated cases."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipeline.offline.gen_fallback import fill_uncovered
from pipeline.offline.gen_fallback_calls import uncovered
from pipeline.offline.generate import generate_cases
from pipeline.records import AuthSpec, Endpoint, Spec, TestCase
from pipeline.spec import load_spec

PARCELS = Path(__file__).parent / "fallback_fixtures" / "parcels"


def _bare() -> Spec:
    return Spec(
        auth=AuthSpec(scheme="bearer", header="Authorization"),
        endpoints=[
            Endpoint(method="GET", path="/api/v1/widgets"),
            Endpoint(method="POST", path="/api/v1/widgets",
                     request_schema={"type": "object", "properties": {"name": {}},
                                     "required": ["name"]},
                     request_example={"name": "sample_name"}),
            Endpoint(method="GET", path="/api/v1/widgets/{widget_id}"),
            Endpoint(method="DELETE", path="/api/v1/widgets/{widget_id}", auth_required=True),
            Endpoint(method="POST", path="/api/v1/widgets/{widget_id}/spin"),
            Endpoint(method="PATCH", path="/api/v1/settings"),
        ])


def _by_name(cases: list[TestCase]) -> dict[str, TestCase]:
    return {c.name: c for c in cases}


def test_every_documented_endpoint_gets_a_success_and_an_error_case() -> None:
    spec = _bare()
    cases = fill_uncovered("w", spec, [], auth=False)
    for c in cases:
        ast.parse(c.code)
        assert c.code.startswith(f"def {c.name}(")
    assert not uncovered(spec, cases)
    by = _by_name(cases)
    assert len(by) == len(cases), "names are unique"
    # the obvious error for each shape of endpoint
    assert "status_code == 404" in by["test_get_widgets_item_unknown_id"].code
    assert "in (400, 401, 403)" in by["test_delete_widgets_item_without_token"].code
    assert "json={}" in by["test_post_widgets_empty_body"].code
    assert "data='{not json'" in by["test_patch_settings_malformed_json"].code
    assert "in (404, 405)" in by["test_get_widgets_delete_not_allowed"].code
    # a success needs the record its path names: created through the documented POST
    spin = by["test_post_widgets_item_spin_documented_success"]
    assert spin.endpoints == ["POST /api/v1/widgets/{widget_id}/spin", "POST /api/v1/widgets"]
    assert "unique('sample_name')" in spin.code and "{widget_id}" in spin.code
    # a protected endpoint without a usable login: no success case, only the refusal
    assert "test_delete_widgets_item_documented_success" not in by
    assert {c.category for c in cases} == {"api_compliance", "error_handling"}


def test_success_codes_are_the_documented_ones() -> None:
    spec = Spec(endpoints=[Endpoint(method="POST", path="/jobs", status_codes={202: "queued"}),
                           Endpoint(method="DELETE", path="/jobs")])
    by = _by_name(fill_uncovered("j", spec, [], auth=False))
    assert "status_code == 202" in by["test_post_jobs_documented_success"].code
    assert "in (200, 202, 204)" in by["test_delete_jobs_documented_success"].code


def test_covered_endpoints_get_nothing_more_and_names_do_not_clash() -> None:
    spec = _bare()
    taken = TestCase(case_id="w::test_get_widgets_documented_success", task_id="w", round=0,
                     category="api_compliance", name="test_get_widgets_documented_success",
                     code="def test_get_widgets_documented_success():\n    pass\n",
                     endpoints=[f"{e.method} {e.path}" for e in spec.endpoints[1:]])
    cases = fill_uncovered("w", spec, [taken], auth=False)
    assert {k for c in cases for k in c.endpoints} == {"GET /api/v1/widgets"}
    names = [c.name for c in cases]
    assert "test_get_widgets_documented_success_2" in names
    assert "def test_get_widgets_documented_success_2(" in cases[0].code


def test_generate_covers_every_endpoint_of_a_detail_poor_readme() -> None:
    spec = load_spec(PARCELS / "README.md")
    cases = generate_cases("parcels", spec)
    assert not uncovered(spec, cases)
    assert len(spec.endpoints) == 8


@pytest.mark.slow
def test_fallback_cases_pass_on_the_oracle() -> None:
    """A task most of whose endpoints document nothing: each has a case passing twice."""
    from pipeline.stages.generated_run import first_error, run_generated

    result = run_generated(PARCELS, runs=2)
    failing = {n: first_error(result.outputs.get(n, "")) for n in result.failing()}
    assert not failing, failing
    passed = {c.name for c in result.cases if all(r.get(c.name) == "passed"
                                                  for r in result.outcomes)}
    spec = load_spec(PARCELS / "README.md")
    for ep in spec.endpoints:
        key = f"{ep.method} {ep.path}"
        assert any(key in c.endpoints and c.name in passed for c in result.cases), key


def test_no_success_is_guessed_for_a_body_that_cannot_be_formed() -> None:
    from pipeline.records import Param

    spec = Spec(endpoints=[Endpoint(method="POST", path="/batch",
                                    params=[Param(name="orders", location="body")])])
    names = [c.name for c in fill_uncovered("b", spec, [], auth=False)]
    assert names == ["test_post_batch_malformed_json"]


def test_html_pages_get_text_checks_and_a_body_from_allowed_values() -> None:
    """A page endpoint's success case checks the quoted text; a form with allowed values gets
    the first one; no malformed-JSON error for fields that have a documented fallback."""
    from pathlib import Path

    from pipeline.spec import load_spec

    spec = load_spec(Path(__file__).parents[1] / "spec" / "fixtures" / "html_pages.md")
    cases = {c.name: c.code for c in fill_uncovered("dice", spec, [], auth=False)}
    home = cases["test_get_root_documented_success"]
    assert "assert 'Dice Roller' in response.text" in home
    post = cases["test_post_roll_documented_success"]
    assert "json={'sides': 6}" in post and "assert 'You rolled:' in response.text" in post
    assert not any("malformed_json" in n for n in cases)
    # "<value>" names no input: nothing is echoed; "d<sides>" shows the query input back
    get = cases["test_get_roll_documented_success"]
    assert "/roll?sides=8" in get
    assert "shown.group(1) == '8'" in get and get.count("shown = re.search") == 1


def test_only_the_callers_input_is_expected_back() -> None:
    """`<user_choice>` is the caller's `choice`; `<computer_choice>` is not."""
    from pipeline.records import Param

    ep = Endpoint(method="GET", path="/results",
                  params=[Param(name="choice", location="query",
                                constraints={"enum": ["rock", "paper", "scissors"]})],
                  response_text=["You chose: <user_choice>",
                                 "The computer chose: <computer_choice>"])
    code = next(c.code for c in fill_uncovered("r", Spec(endpoints=[ep]), [], auth=False)
                if c.name.endswith("documented_success"))
    assert "/results?choice=paper" in code
    assert code.count("shown = re.search") == 1 and "== 'paper'" in code
    compile(code, "case.py", "exec")


def test_unknown_id_404_only_for_records_the_document_creates_or_a_documented_404() -> None:
    stats = Endpoint(method="GET", path="/likes/stats/{content_id}",
                     response_example={"likes": 0})
    names = [c.name for c in fill_uncovered("s", Spec(endpoints=[stats]), [], auth=False)]
    assert not any("unknown_id" in n for n in names), names
    documented = stats.model_copy(update={"status_codes": {200: "OK", 404: "Not Found"}})
    names = [c.name for c in fill_uncovered("s", Spec(endpoints=[documented]), [], auth=False)]
    assert any("unknown_id" in n for n in names), names
    create = Endpoint(method="POST", path="/things", request_example={"name": "a"})
    item = Endpoint(method="GET", path="/things/{id}")
    names = [c.name for c in fill_uncovered("s", Spec(endpoints=[create, item]), [], auth=False)]
    assert "test_get_things_item_unknown_id" in names, names
