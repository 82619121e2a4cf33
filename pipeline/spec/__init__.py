"""Read a requirement document (README.md) into an endpoint spec; find code leaks in it.

Public API:
- `extract_spec(markdown_text) -> Spec`
- `load_spec(path) -> Spec`
- `task_spec(task) -> Spec` (the README's spec with the task's own account)
- `spec_json(spec) -> list[dict]` (the `repogenesis spec --json` payload)
- `find_code_leaks(markdown_text) -> list[str]`
- `normalise_target(raw) -> Target | None`, `apply_base(path, base) -> str`
"""

from pipeline.spec.extract import extract_spec, load_spec, spec_json, task_spec
from pipeline.spec.leaks import find_code_leaks
from pipeline.spec.paths import apply_base, normalise_target

__all__ = [
    "apply_base",
    "extract_spec",
    "find_code_leaks",
    "load_spec",
    "normalise_target",
    "spec_json",
    "task_spec",
]
