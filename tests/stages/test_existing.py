from pathlib import Path

from pipeline.stages.existing import existing_cases, guess_category


def test_each_test_function_becomes_a_case_with_its_module_prelude(tmp_path: Path) -> None:
    (tmp_path / "test_api.py").write_text(
        "import uuid\n\nLIMIT = 3\n\n\ndef helper():\n    return uuid.uuid4().hex\n\n\n"
        "@pytest.mark.slow\ndef test_list_items(base_url):\n    assert helper()\n\n\n"
        "def test_create_with_invalid_name_returns_422(base_url):\n    assert LIMIT == 3\n\n\n"
        "class TestGrouped:\n    def test_inside(self):\n        assert True\n"
    )
    (tmp_path / "notes.py").write_text("def test_not_collected():\n    pass\n")
    cases = existing_cases("svc", tmp_path)
    assert [c.name for c in cases] == ["test_list_items",
                                       "test_create_with_invalid_name_returns_422"]
    first, second = cases
    assert first.code.startswith("@pytest.mark.slow\ndef test_list_items")
    assert first.case_id == "svc::test_api::test_list_items"
    assert "LIMIT = 3" in first.prelude and "def helper" in first.prelude
    assert "class TestGrouped" not in first.prelude
    assert second.category == "error_handling"
    assert {c.origin for c in cases} == {"existing"} and {c.author for c in cases} == {"human"}


def test_unparsable_module_yields_nothing(tmp_path: Path) -> None:
    (tmp_path / "test_broken.py").write_text("def test_x(:\n")
    assert existing_cases("svc", tmp_path) == []


def test_guess_category() -> None:
    assert guess_category("test_full_order_lifecycle", "") == "integration"
    assert guess_category("test_unknown_book_returns_404", "") == "error_handling"
    assert guess_category("test_empty_list", "") == "edge_case"
    assert guess_category("test_get_book", "") == "api_compliance"
