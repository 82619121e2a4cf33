import subprocess
import sys
from pathlib import Path

from pipeline.stages.existing import existing_cases, guess_category
from pipeline.stages.split import existing_module_source


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
                                       "test_create_with_invalid_name_returns_422",
                                       "test_inside"]
    first, second, method = cases
    assert method.case_id == "svc::test_api::TestGrouped::test_inside"
    assert method.node_name == "TestGrouped::test_inside" and first.node_name == first.name
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


CLASS_MODULE = """\
import pytest

BASE = 40


def helper():
    return BASE + 2


@pytest.mark.usefixtures("tmp_path")
class TestOrders:
    \"\"\"Grouped checks.\"\"\"

    factor = 2

    @pytest.fixture
    def doubled(self):
        return helper() * self.factor

    def test_doubled(self, doubled):
        assert doubled == 84

    @pytest.mark.parametrize("n", [1, 2])
    def test_positive(self, n):
        assert n * self.factor > 0

    def test_dropped_later(self):
        assert False


class Helper:
    def test_not_collected(self):
        pass


class TestWithInit:
    def __init__(self):
        pass

    def test_not_collected_either(self):
        pass


def test_plain():
    assert helper() == 42
"""


def test_test_methods_become_cases_and_ship_back_inside_their_class(tmp_path: Path) -> None:
    """Each method of a collected Test* class is a case (dedented, for the reviewers); the
    module written back holds each class once, with only the accepted methods, and pytest
    collects exactly their node ids."""
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    (src / "test_orders.py").write_text(CLASS_MODULE)
    cases = existing_cases("svc", src)
    assert [c.node_name for c in cases] == [
        "TestOrders::test_doubled", "TestOrders::test_positive",
        "TestOrders::test_dropped_later", "test_plain"]
    doubled = cases[0]
    assert doubled.code.startswith("def test_doubled(self, doubled):")
    assert "factor = 2" in doubled.test_class and "def doubled(self)" in doubled.test_class
    assert "test_positive" not in doubled.test_class
    assert "class Helper" not in doubled.prelude and "def helper" in doubled.prelude
    kept = [c for c in cases if c.name != "test_dropped_later"]
    (out / "test_orders.py").write_text(existing_module_source(kept))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-rA", str(out)], capture_output=True, text=True, cwd=out,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    passed = sorted(line.split("::", 1)[1] for line in run.stdout.splitlines()
                    if line.startswith("PASSED"))
    assert passed == ["TestOrders::test_doubled", "TestOrders::test_positive[1]",
                      "TestOrders::test_positive[2]", "test_plain"]
    assert existing_module_source(kept).count("class TestOrders") == 1
