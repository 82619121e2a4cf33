"""The offline generator writes behaviour tests: values, filters, pages, guards, error codes.

Unit tests read the generated code (fast); the slow tests run generated suites against the
bundled oracles and against realistic faulty copies of them (`faulty_oracles.py`).
"""

from __future__ import annotations

import ast
import tempfile
from pathlib import Path

import pytest
from faulty_oracles import FAULTS, apply_fault

from pipeline.offline.gen_docs import allowed_values, error_tokens, error_value_asserts
from pipeline.offline.generate import generate_cases
from pipeline.records import Endpoint, Param, Spec
from pipeline.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
RAW = ROOT / "data" / "raw"
TASKS = sorted(p for p in RAW.iterdir() if (p / "task.toml").is_file())


def _cases_of(task_dir: Path) -> dict[str, str]:
    spec = load_spec(task_dir / "README.md")
    return {c.name: c.code for c in generate_cases(task_dir.name, spec)}


def _cases(task: str) -> dict[str, str]:
    return _cases_of(RAW / task)


def test_error_tokens_read_the_documented_codes() -> None:
    ep = Endpoint(method="POST", path="/x", status_codes={
        409: "code_taken — the custom code is already used",
        422: "invalid_url, invalid_code or invalid_expiry",
        404: "（NOTE_NOT_FOUND）", 400: "if the body is not JSON"})
    assert error_tokens(ep, 409) == ("code_taken",)
    assert error_tokens(ep, 422) == ("invalid_url", "invalid_code", "invalid_expiry")
    assert error_tokens(ep, 404) == ("NOTE_NOT_FOUND",)
    assert error_tokens(ep, 400) == ()
    assert error_tokens(ep, 500) == ()


def test_error_value_asserts_follow_the_error_format() -> None:
    nested = error_value_asserts("r", {"error": {"code": "x_y", "message": "m"}}, 409, ("a_b",))
    assert nested == ['assert r.json()["error"]["code"] == "a_b", r.text']
    flat = error_value_asserts("r", {"error": "file_not_found", "message": "m"}, 404, ("c_d",))
    assert flat == ['assert r.json()["error"] == "c_d", r.text']
    problem = error_value_asserts("r", {"type": "about:blank", "status": 409}, 409, ())
    assert problem == ['assert r.json()["status"] == 409']
    assert error_value_asserts("r", None, 409, ("a_b",)) == []


def test_redirect_target_is_the_stored_url() -> None:
    code = _cases("url-shortener")["test_get_r_returns_302"]
    assert 'assert result.headers["Location"] == payload["url"]' in code


def test_guarded_delete_expects_documented_conflict_and_record_survives() -> None:
    code = _cases("library-books")["test_delete_book_in_guarded_state_returns_409"]
    lines = [ln.strip() for ln in code.splitlines()]
    loan = lines.index(next(ln for ln in lines if "/loan" in ln and "session.post" in ln))
    refused = lines.index(next(ln for ln in lines if ln.startswith("refused = session.delete")))
    assert loan < refused
    assert 'assert refused.json()["error"]["code"] == "book_on_loan", refused.text' in lines
    assert 'assert still.json()["id"] == book_id' in lines


def test_tag_filter_expects_exactly_the_marked_record() -> None:
    cases = _cases("library-books")
    code = cases["test_list_books_filtered_by_tag_returns_only_matching_book"]
    assert 'params={"tag": wanted}' in code
    assert 'assert [record["id"] for record in listed.json()["items"]] == [match_id]' in code
    notes = _cases("secure-notes")
    assert "test_list_notes_filtered_by_tag_returns_only_matching_note" in notes


def test_update_is_read_back_with_the_values_sent() -> None:
    code = _cases("library-books")["test_put_book_applies_changes"]
    assert "reread = session.get(" in code
    assert 'assert stored["title"] == changes["title"]' in code
    assert 'assert stored["year"] == changes["year"]' in code


def test_rule_cases_from_documented_ranges_and_required_fields() -> None:
    spec = Spec(endpoints=[Endpoint(
        method="POST", path="/widgets", status_codes={201: "created", 422: "invalid body"},
        request_example={"name": "w", "size": 3},
        params=[Param(name="name", location="body", type="string", required=True),
                Param(name="size", location="body", type="integer", required=False,
                      description="1–10, default 5"),
                Param(name="kind", location="body", type="string",
                      description="one of small, large")])])
    names = {c.name: c.code for c in generate_cases("w", spec)}
    assert 'sent["size"] = 11' in names["test_post_widgets_with_size_above_range_returns_422"]
    assert 'sent["size"] = 0' in names["test_post_widgets_with_size_below_range_returns_422"]
    assert 'del sent["name"]' in names["test_post_widgets_without_name_returns_422"]
    assert "test_post_widgets_with_unlisted_kind_returns_422" in names


def _loops_asserting_over_response(tree: ast.AST) -> list[int]:
    """Lines of `for` loops over a response's data whose body asserts (a loop over a range
    or over values the test wrote always runs: it is no vacuous check)."""
    out = []
    for node in ast.walk(tree):
        written = isinstance(node, ast.For) and (
            isinstance(node.iter, ast.List | ast.Tuple)
            or (isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name)
                and node.iter.func.id == "range"))
        if isinstance(node, ast.For) and not written and any(
                isinstance(n, ast.Assert) for n in ast.walk(node)):
            out.append(node.lineno)
    return out


@pytest.mark.parametrize("task_dir", TASKS, ids=lambda p: p.name)
def test_no_assertion_inside_a_loop(task_dir: Path) -> None:
    for case in generate_cases(task_dir.name, load_spec(task_dir / "README.md")):
        assert _loops_asserting_over_response(ast.parse(case.code)) == [], case.name


@pytest.mark.slow
@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f"{f.task}-{f.name}")
def test_generated_suite_catches_realistic_fault(fault) -> None:
    """The suite generated from the README fails on a faulty copy of the oracle."""
    from pipeline.stages.generated_run import run_generated

    with tempfile.TemporaryDirectory() as tmp:
        task = apply_fault(ROOT, fault, Path(tmp))
        result = run_generated(task, runs=1)
    assert result.outcomes, "the suite did not run"
    assert result.failing(), f"no generated test caught {fault.name}"


@pytest.mark.slow
@pytest.mark.parametrize("task", sorted({f"{f.root}/{f.task}" for f in FAULTS}))
def test_generated_suite_passes_on_the_clean_oracle(task: str) -> None:
    """The same suites pass on the golden implementation, twice (once in reverse order)."""
    from pipeline.stages.generated_run import first_error, run_generated

    result = run_generated(ROOT / task, runs=2)
    failing = {n: first_error(result.outputs.get(n, "")) for n in result.failing()}
    assert len(result.outcomes) == 2 and failing == {}


def test_batch_sends_several_items_after_creating_what_they_reference() -> None:
    code = _cases("order-desk")["test_post_orders_batch_with_two_orders_creates_both"]
    lines = [ln.strip() for ln in code.splitlines()]
    product = lines.index('ref0_made = session.post(f"{base_url}/products", json=ref0)')
    batch = next(i for i, ln in enumerate(lines) if "/orders/batch" in ln)
    assert product < batch
    assert 'item1["items"][0]["sku"] = ref0["sku"]' in lines
    assert 'assert [r["status"] for r in answer["results"]] == [201, 201]' in lines


def test_list_caps_and_lower_bounds_are_tested() -> None:
    cases = _cases("url-shortener")
    above = cases["test_list_short_links_with_limit_above_range_returns_400"]
    assert 'params={"limit": 201}' in above
    assert '["error"]["code"] == "invalid_parameter"' in above
    assert 'params={"offset": -1}' in cases[
        "test_list_short_links_with_offset_below_range_returns_400"]


def test_other_user_can_neither_change_nor_delete() -> None:
    code = _cases("secure-notes")["test_other_user_cannot_change_or_delete_note"]
    assert "headers=other_auth_headers" in code
    assert 'assert still.json()["title"] == payload["title"]' in code


def test_allowed_values_read_enumerations() -> None:
    def values(text: str) -> list[str]:
        return allowed_values(Param(name="p", description=text))

    assert values("low / normal / high") == ["low", "normal", "high"]
    assert values("one of pending, paid, shipped; anything else is a 400") == [
        "pending", "paid", "shipped"]
    assert values("`asc` (default) or `desc`") == ["asc", "desc"]
    assert values("case-insensitive substring of the title") == []


def test_enum_filter_checks_each_value_against_marked_records() -> None:
    code = _cases("todo-tasks")[
        "test_list_todos_filtered_by_priority_value_returns_only_matching_todo"]
    assert '"priority": "high"}' in code and '"priority": "low"}' in code
    assert 'assert [record["id"] for record in listed.json()] == [first_id]' in code
    assert 'assert [record["id"] for record in listed_other.json()] == [second_id]' in code


def test_sort_is_checked_in_both_directions() -> None:
    code = _cases_of(ROOT / "tests" / "offline" / "fixtures" / "reading-list")[
        "test_list_books_sorted_by_pages_both_directions"]
    assert '"sort": "pages", "order": "asc"' in code and '"order": "desc"' in code
    assert 'items"]] == [low_id, high_id]' in code and 'items"]] == [high_id, low_id]' in code


def test_documented_query_defaults_are_checked() -> None:
    code = _cases("file-vault")["test_list_files_uses_documented_defaults"]
    assert 'assert body["limit"] == 50' in code and 'assert body["offset"] == 0' in code


def test_refused_create_leaves_the_collection_unchanged() -> None:
    code = _cases("todo-tasks")["test_create_todo_with_empty_body_returns_422"]
    lines = [ln.strip() for ln in code.splitlines()]
    assert lines.index('count_before = session.get(f"{base_url}/todos")') < lines.index(
        'response = session.post(f"{base_url}/todos", json={})')
    assert lines[-1] == "assert len(count_after.json()) == len(count_before.json())"
    duplicate = _cases("library-books")["test_create_book_twice_returns_409"]
    assert 'assert count_after.json()["total"] == count_before.json()["total"]' in duplicate


def test_error_code_without_a_known_body_shape_is_looked_for_in_the_text() -> None:
    fixture = ROOT / "tests" / "offline" / "fixtures" / "reading-list"
    code = _cases_of(fixture)["test_get_book_unknown_id_returns_404"]
    assert 'assert "not_found" in response.text, response.text' in code


def test_catalogue_post_then_list_holds_the_entry() -> None:
    code = _cases("order-desk")["test_products_list_holds_the_posted_entry"]
    assert "assert len(after.json()) == len(before.json()) + 1" in code
    assert 'assert payload["sku"] in [entry["sku"] for entry in after.json()]' in code
