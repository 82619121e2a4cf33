"""Structured outputs the models must return, as pydantic models (sent through each SDK's
schema support, then validated again here: some SDKs move `minimum`/`maximum` into the
description, so a range is only trusted after `model_validate`).

Public API:
- `ReviewOutput` (rationale + the four rubric scores, ranges from `records.Scores`)
- `GeneratedTest`, `GenerateOutput`, `RefineOutput` (with `RefineAnswer`s: the rebuttal)
- `ImplementOutput`: the files of an implementation written from the README alone
- `check_review(output, rubric)`: the scores against the rubric's own ranges (ValueError)
- `parse_output(text, parsed, schema)`: the validated model from a response, or ValueError
"""

from __future__ import annotations

import ast
import copy
import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.records import RUBRIC_DIMENSIONS
from pipeline.rubric import Rubric

_JSON_SCHEMAS: dict[type, dict[str, Any]] = {}


class _SchemaOnce(BaseModel):
    """An output model whose default JSON Schema is generated once per class: the SDKs
    (google-genai's `t_schema`, anthropic's `transform_schema`) call `model_json_schema()` on
    every request, and pydantic takes milliseconds each time, a large share of a call's CPU.
    Callers get a fresh copy (the SDKs change it in place); other arguments are not cached."""

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if args or kwargs:
            return super().model_json_schema(*args, **kwargs)
        cached = _JSON_SCHEMAS.get(cls)
        if cached is None:
            cached = _JSON_SCHEMAS[cls] = super().model_json_schema()
        return copy.deepcopy(cached)


class ReviewOutput(_SchemaOnce):
    model_config = ConfigDict(extra="forbid")
    rationale: str = Field(description="Why these scores: the evidence, per dimension, briefly.")
    correctness: int = Field(ge=0, le=3, description="Correctness, an integer from 0 to 3.")
    coverage: int = Field(ge=0, le=3, description="Coverage & completeness, 0 to 3.")
    readability: int = Field(ge=0, le=2, description="Readability & maintainability, 0 to 2.")
    relevance: int = Field(ge=0, le=2, description="Relevance, an integer from 0 to 2.")

    def scores(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in RUBRIC_DIMENSIONS}


class GeneratedTest(_SchemaOnce):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="The test function's name; starts with test_.")
    endpoints: list[str] = Field(description='Targeted endpoints as "METHOD /path".')
    code: str = Field(description="One pytest function using only the conftest fixtures.")


class GenerateOutput(_SchemaOnce):
    model_config = ConfigDict(extra="forbid")
    tests: list[GeneratedTest]


class ImplementedFile(_SchemaOnce):
    model_config = ConfigDict(extra="forbid")
    path: str = Field(description="Path relative to the service's folder, e.g. app.py.")
    content: str = Field(description="The whole file.")


class ImplementOutput(_SchemaOnce):
    """A service written from the README alone (`build --alternatives K`)."""

    model_config = ConfigDict(extra="forbid")
    files: list[ImplementedFile]
    notes: str = Field(description="The choices made where the document leaves one open.")


class RefineAnswer(_SchemaOnce):
    """The refiner's answer to one review (the rebuttal the next reviewers read)."""

    model_config = ConfigDict(extra="forbid")
    reviewer: str = Field(description="The reviewer answered, exactly as named in the feedback.")
    changed: str = Field(description="What was changed for this review ('' if nothing).")
    disagree: str = Field(description="Where you disagree with this review and why, citing "
                                      "the code or the evidence ('' if nowhere).")


class RefineOutput(_SchemaOnce):
    model_config = ConfigDict(extra="forbid")
    changes: str = Field(description="What was changed and why, in one or two sentences.")
    answers: list[RefineAnswer] = Field(description="One answer per review, in their order.")
    code: str = Field(description="The complete revised test function.")


OUTPUT_SCHEMAS: tuple[type[BaseModel], ...] = (ReviewOutput, GenerateOutput, RefineOutput)


def check_review(output: ReviewOutput, rubric: Rubric) -> None:
    """Each score within the rubric's range for its dimension (ValueError otherwise)."""
    for key, value in output.scores().items():
        dim = rubric.dimension(key)
        if not dim.min <= value <= dim.max:
            raise ValueError(f"{key} must be an integer from {dim.min} to {dim.max}, got {value}")


_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*?)\n\s*```\s*$", re.S)


def _json_text(text: str) -> Any:
    m = _FENCE.match(text)
    body = m.group(1) if m else text.strip()
    if not body.startswith(("{", "[")):
        start = body.find("{")
        end = body.rfind("}")
        if start < 0 or end <= start:
            raise ValueError("the answer holds no JSON object")
        body = body[start:end + 1]
    return json.loads(body)


def parse_output(text: str, parsed: dict | None, schema: type[BaseModel]) -> BaseModel:
    """The response as a validated `schema` instance; ValueError says what is wrong."""
    try:
        data = parsed if parsed is not None else _json_text(text)
        return schema.model_validate(data)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the answer is not valid JSON: {exc}") from exc
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
            for e in exc.errors()[:8]
        )
        raise ValueError(f"the answer does not match the schema: {problems}") from exc


# --- generated test code ---------------------------------------------------------------------

HEADER_IMPORTS = ("json", "re", "uuid", "pytest", "requests")  # offline MODULE_HEADER
EXTRA_IMPORTS = ("base64", "collections", "copy", "datetime", "decimal", "hashlib",
                 "itertools", "math", "random", "string", "time", "urllib.parse")
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "open", "breakpoint", "input",
                   "globals", "locals", "setattr", "delattr"}
_NAME = re.compile(r"^test_[a-z0-9_]{1,90}$")


def _import_names(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return ["." * node.level + (node.module or "")]
    return [alias.name for alias in node.names]


def _check_import(node: ast.Import | ast.ImportFrom) -> None:
    for name in _import_names(node):
        if name not in HEADER_IMPORTS + EXTRA_IMPORTS:
            raise ValueError(f"imports {name!r}, which is not allowed")


def _parametrized(fn: ast.FunctionDef) -> set[str]:
    names: set[str] = set()
    for dec in fn.decorator_list:
        text = ast.unparse(dec)
        if not text.startswith("pytest.mark."):
            raise ValueError(f"decorator @{text} is not allowed (only pytest.mark.*)")
        if isinstance(dec, ast.Call) and text.startswith("pytest.mark.parametrize") and \
                dec.args and isinstance(dec.args[0], ast.Constant):
            names |= {n.strip() for n in str(dec.args[0].value).split(",")}
    return names


def check_test_code(code: str, fixtures: set[str] | None) -> tuple[str, str]:
    """(normalised source, function name) of one generated test, or ValueError with why.

    One top-level `test_` function using only known fixtures; top-level imports of the
    module header's modules are dropped, other allowed ones moved into the function.
    `fixtures=None` skips the fixture check (a human test with its own conftest).
    """
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise ValueError(f"does not parse: {exc.msg} (line {exc.lineno})") from exc
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    moved = _imports_to_move(tree)
    if len(funcs) != 1:
        raise ValueError(f"must define exactly one function, found {len(funcs)}")
    fn = funcs[0]
    if not _NAME.match(fn.name):
        raise ValueError(f"function name {fn.name!r} must look like test_<verb>_<thing>")
    _check_function_body(fn)
    _check_fixtures(fn, fixtures)
    source = _function_source(code, fn, moved)
    compile(source, "<test>", "exec")
    return source, fn.name


def _imports_to_move(tree: ast.Module) -> list[str]:
    """The top-level imports the module header does not already make (checked allowed);
    ValueError for any other top-level statement than the function or a docstring."""
    moved: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            _check_import(node)
            moved += [] if set(_import_names(node)) <= set(HEADER_IMPORTS) else \
                [ast.unparse(node)]
        elif not (isinstance(node, ast.FunctionDef) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))):
            raise ValueError(f"top-level statement other than the test function "
                             f"(line {node.lineno})")
    return moved


def _check_function_body(fn: ast.FunctionDef) -> None:
    for node in ast.walk(fn):
        if isinstance(node, ast.Import | ast.ImportFrom):
            _check_import(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in FORBIDDEN_CALLS:
            raise ValueError(f"calls {node.func.id}(), which is not allowed")


def _check_fixtures(fn: ast.FunctionDef, fixtures: set[str] | None) -> None:
    args = [a.arg for a in fn.args.args + fn.args.kwonlyargs]
    allowed = _parametrized(fn) | (set(args) if fixtures is None else fixtures)
    unknown = [a for a in args if a not in allowed]
    if unknown:
        raise ValueError(f"asks for unknown fixture(s) {', '.join(unknown)}")


def _function_source(code: str, fn: ast.FunctionDef, moved: list[str]) -> str:
    """The function's lines (decorators included), `moved` imports put first in its body
    (after its docstring)."""
    lines = code.splitlines()
    start = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
    body = lines[start - 1:fn.end_lineno]
    if moved:
        first = fn.body[1] if len(fn.body) > 1 and isinstance(fn.body[0], ast.Expr) and \
            isinstance(fn.body[0].value, ast.Constant) else fn.body[0]
        at = first.lineno - start
        body[at:at] = [" " * first.col_offset + m for m in moved]
    return "\n".join(body).rstrip() + "\n"


def rename_test(code: str, old: str, new: str) -> str:
    """The source with the function `old` renamed `new` (its def line only)."""
    return re.sub(rf"\bdef\s+{re.escape(old)}\s*\(", f"def {new}(", code, count=1)
