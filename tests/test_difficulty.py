from pathlib import Path

import pytest

from pipeline.records import DifficultyMetrics
from pipeline.stages.difficulty import load_table, measure_source, points_for, score_difficulty

TABLE = load_table()


def metrics(**kw: int) -> DifficultyMetrics:
    return DifficultyMetrics(**kw)


@pytest.mark.parametrize(
    ("loc", "expected"), [(0, 0.5), (500, 0.5), (501, 1.0), (900, 1.0), (901, 1.5), (1501, 2.5)]
)
def test_loc_ladder_boundaries_are_strict(loc: int, expected: float) -> None:
    assert points_for(loc, TABLE.ladder("loc", "python")) == expected


def test_smallest_service_is_easy_with_minimum_points() -> None:
    d = score_difficulty(
        metrics(loc=120, cyclomatic_complexity=30, files=2, endpoints=4, functions_classes=12),
        "python",
        TABLE,
    )
    # 0.5 + 0.6 + 0.3 + 0.3 + 0.3
    assert d.score == pytest.approx(2.0)
    assert d.level == "Easy"
    assert d.points.cyclomatic_complexity == 0.6


def test_medium_boundary_is_inclusive() -> None:
    # 1.0 (loc 600) + 2.0 (cc 301) + 0.6 (files 6) + 0.6 (endpoints 6) + 0.3 = 4.5
    d = score_difficulty(
        metrics(loc=600, cyclomatic_complexity=301, files=6, endpoints=6, functions_classes=10),
        "python",
        TABLE,
    )
    assert d.score == pytest.approx(4.5)
    assert d.level == "Medium"


def test_hard_service() -> None:
    # 2.5 + 3.0 + 1.5 + 1.5 + 1.5 = 10.0
    d = score_difficulty(
        metrics(loc=4000, cyclomatic_complexity=900, files=40, endpoints=30, functions_classes=300),
        "python",
        TABLE,
    )
    assert d.score == pytest.approx(10.0)
    assert d.level == "Hard"


def test_just_below_hard_is_medium() -> None:
    # 2.5 + 3.0 + 0.6 + 0.3 + 0.3 = 6.7
    d = score_difficulty(
        metrics(loc=2000, cyclomatic_complexity=600, files=6, endpoints=2, functions_classes=5),
        "python",
        TABLE,
    )
    assert d.score == pytest.approx(6.7)
    assert d.level == "Medium"


def test_java_uses_its_own_thresholds() -> None:
    m = metrics(loc=100, cyclomatic_complexity=10, files=10, endpoints=9, functions_classes=70)
    py = score_difficulty(m, "python", TABLE)
    java = score_difficulty(m, "java", TABLE)
    assert (py.points.files, py.points.endpoints, py.points.functions_classes) == (0.6, 1.0, 1.0)
    assert (java.points.files, java.points.endpoints, java.points.functions_classes) == (
        1.0,
        0.6,
        0.6,
    )


def test_measure_python_source_excludes_tests_and_counts_classes(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(
        "class Store:\n"
        "    def get(self, key):\n"
        "        if key in self.__dict__:\n"
        "            return 1\n"
        "        return 0\n"
        "\n"
        "def main():\n"
        "    return Store()\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_app.py").write_text("def test_x():\n    assert True\n")
    (tmp_path / "test_other.py").write_text("def test_y():\n    assert True\n")
    m = measure_source(tmp_path, "python", endpoints=3)
    assert m.files == 1
    assert m.loc == 7
    assert m.functions_classes == 3  # get, main, Store
    assert m.cyclomatic_complexity == 3  # get: 2, main: 1
    assert m.endpoints == 3


def test_measure_java_source(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "Main.java").write_text(
        "// class Fake in a comment\n"
        "public class Main {\n"
        '  static String s = "class InString";\n'
        "  interface Handler { void run(); }\n"
        "  public static void main(String[] a) {\n"
        "    for (String x : a) { if (x.isEmpty()) { return; } }\n"
        "  }\n"
        "}\n"
    )
    m = measure_source(tmp_path, "java", endpoints=0)
    assert m.files == 1
    assert m.functions_classes == 3  # main + Main + Handler
    assert m.cyclomatic_complexity == 3
