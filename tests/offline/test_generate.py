"""Unit tests of the offline generator: deterministic, parseable, asserting, unique names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipeline.offline.conftest_template import conftest_source
from pipeline.offline.generate import generate_cases
from pipeline.records import CATEGORIES, Endpoint, Spec
from pipeline.spec import load_spec
from pipeline.suites import module_source
from pipeline.tasks import load_task

ROOT = Path(__file__).resolve().parents[2]
TASKS = sorted(p for p in (ROOT / "data" / "raw").iterdir() if (p / "task.toml").is_file())
# Known gap on the imported published tasks (issue 9 stays open for it): their generated
# suites span fewer than three categories. The hand-written corpus and the fixtures are held
# to it. Every task, imported ones too (bearer with no login endpoint included), gets the
# auth_headers fixture when its document states an auth scheme.
EXPERT = [p for p in TASKS if load_task(p).config.source == "expert"]
FIXTURES = sorted(p for p in (Path(__file__).parent / "fixtures").iterdir()
                  if (p / "task.toml").is_file())
ALL = TASKS + FIXTURES


def _cases(task_dir: Path):
    return generate_cases(task_dir.name, load_spec(task_dir / "README.md"))


@pytest.mark.parametrize("task_dir", ALL, ids=lambda p: p.name)
def test_generate_is_deterministic(task_dir: Path) -> None:
    first, second = _cases(task_dir), _cases(task_dir)
    assert [c.model_dump() for c in first] == [c.model_dump() for c in second]


@pytest.mark.parametrize("task_dir", ALL, ids=lambda p: p.name)
def test_generate_cases_parse_and_assert(task_dir: Path) -> None:
    cases = _cases(task_dir)
    assert cases
    for case in cases:
        tree = ast.parse(case.code)
        funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert len(funcs) == 1 and funcs[0].name == case.name
        assert any(isinstance(n, ast.Assert) for n in ast.walk(tree)), case.name
        assert case.case_id == f"{task_dir.name}::{case.name}"
        assert case.round == 0 and case.origin == "generated" and case.author == "offline"
        assert case.category in CATEGORIES
        assert case.endpoints and all(" /" in e for e in case.endpoints)
        assert "sleep" not in case.code and "random" not in case.code


@pytest.mark.parametrize("task_dir", EXPERT + FIXTURES, ids=lambda p: p.name)
def test_generate_names_unique_and_categories(task_dir: Path) -> None:
    cases = _cases(task_dir)
    names = [c.name for c in cases]
    assert len(names) == len(set(names))
    assert all(n.startswith("test_") and n.isidentifier() for n in names)
    assert len({c.category for c in cases}) >= 3


@pytest.mark.parametrize("task_dir", ALL, ids=lambda p: p.name)
def test_generate_module_and_conftest_compile(task_dir: Path) -> None:
    spec = load_spec(task_dir / "README.md")
    cases = generate_cases(task_dir.name, spec)
    module = module_source(cases)
    compile(module, "test_generated.py", "exec")
    assert module.count("\ndef test_") == len(cases)
    conftest = conftest_source(spec, 8123)
    compile(conftest, "conftest.py", "exec")
    assert "SERVICE_BASE_URL" in conftest and "http://localhost:8123" in conftest
    assert ("def auth_headers" in conftest) == (spec.auth is not None)


def test_generate_skips_what_the_spec_does_not_say() -> None:
    # no documented status, no example: the templates write nothing; only the fallback's
    # success and obvious-error cases remain (never an empty suite), asserting no invention
    spec = Spec(endpoints=[Endpoint(method="POST", path="/things"),
                           Endpoint(method="PUT", path="/things/{id}")])
    cases = generate_cases("bare", spec)
    assert {k for c in cases for k in c.endpoints} == {"POST /things", "PUT /things/{id}"}
    assert all(c.name.endswith(("_documented_success", "_malformed_json", "_unknown_id"))
               for c in cases), [c.name for c in cases]
    assert not any("== 201" in c.code for c in cases)  # 200 or 201: not said


def test_generate_uses_documented_codes_only() -> None:
    spec = Spec(endpoints=[
        Endpoint(method="GET", path="/items", status_codes={200: "OK"},
                 response_example=[{"id": 1, "name": "x"}]),
        Endpoint(method="POST", path="/items", status_codes={201: "created", 422: "invalid"},
                 request_example={"name": "Widget", "size": 3}),
        Endpoint(method="GET", path="/items/{id}", status_codes={200: "OK", 404: "unknown"}),
        Endpoint(method="DELETE", path="/items/{id}", status_codes={204: "gone"}),
    ])
    cases = {c.name: c for c in generate_cases("mini", spec)}
    assert "test_create_item_with_empty_body_returns_422" in cases
    assert "test_get_item_unknown_id_returns_404" in cases
    # 404 is not documented for DELETE: no delete-twice or delete-unknown case
    assert not any("delete" in n and "404" in n for n in cases)
    create = cases["test_create_item_returns_201_with_record"].code
    assert 'unique("Widget")' in create and "status_code == 201" in create
    assert {c.category for c in cases.values()} >= {"api_compliance", "error_handling",
                                                    "edge_case", "integration"}


def test_conftest_auth_fixture_reads_documented_token_field() -> None:
    spec = load_spec(ROOT / "data" / "raw" / "secure-notes" / "README.md")
    conftest = conftest_source(spec, 8105)
    assert "TOKEN_FIELD = 'access_token'" in conftest
    assert "'/auth/register'" in conftest and "'/auth/login'" in conftest
    assert 'f"Bearer {token}"' in conftest


@pytest.mark.slow
@pytest.mark.parametrize("task_dir", FIXTURES, ids=lambda p: p.name)
def test_generate_unseen_tasks_pass_on_their_oracles(task_dir: Path) -> None:
    """Tasks the generator was never tuned on: most generated cases pass, twice."""
    from pipeline.stages.generated_run import first_error, run_generated

    result = run_generated(task_dir, runs=2)
    assert len(result.outcomes) == 2
    n = len(result.cases)
    failing = {name: first_error(result.outputs.get(name, "")) for name in result.failing()}
    assert result.passed(0) >= 0.8 * n and result.passed(1) >= 0.8 * n, failing
    assert len(result.categories_passing()) >= 3
