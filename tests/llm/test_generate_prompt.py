"""The LLM generate prompt asks for behaviour tests and shows one weak and one strong example."""

from __future__ import annotations

import ast
import re

from pipeline.llm.backend import render


def _system() -> str:
    messages = render(
        "generate.j2", readme="# R", conftest="", fixtures=["base_url", "session", "unique"],
        header_imports=["json"], extra_imports=["re"], category="api_compliance",
        category_help="h", endpoint_key="GET /x", excerpt="", other_endpoints=[],
        endpoint_json="{}", count=1)
    return next(m.content for m in messages if m.role == "system")


def _examples(text: str) -> list[ast.Module]:
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    return [ast.parse(b) for b in blocks if b.lstrip().startswith("def test_")]


def _asserts_in_loop(tree: ast.AST) -> bool:
    return any(isinstance(n, ast.For) and any(isinstance(a, ast.Assert) for a in ast.walk(n))
               for n in ast.walk(tree))


def test_generate_prompt_asks_for_behaviour_not_shape() -> None:
    text = _system()
    assert "behaviour, not shape" in text
    for topic in ("grows by one", "Location", "error code", "pagination", "wrong token"):
        assert topic in text


def test_generate_prompt_shows_one_weak_and_one_strong_example() -> None:
    weak, strong = _examples(_system())
    assert _asserts_in_loop(weak)  # the weak one asserts inside a loop that may be empty
    assert not _asserts_in_loop(strong)
    compares = [n for n in ast.walk(strong) if isinstance(n, ast.Compare)
                and isinstance(n.left, ast.ListComp)]
    assert compares, "the strong example compares the listed ids with the created one"


GENERIC_SEGMENTS = {"api", "v1", "v2", "auth", "login", "logout", "register", "me", "token",
                    "refresh", "health", "status", "batch", "items", "users", "r"}


def bundled_vocabulary() -> tuple[set[str], set[str]]:
    """The bundled tasks' own path segments (their resources) and their ids."""
    from pathlib import Path

    from pipeline.spec import load_spec

    raw = Path(__file__).resolve().parents[2] / "data" / "raw"
    segments: set[str] = set()
    for readme in raw.glob("*/README.md"):
        for ep in load_spec(readme).endpoints:
            segments |= {p for p in ep.path.strip("/").split("/")
                         if p and p[0] not in "{<" and p not in GENERIC_SEGMENTS}
    return segments, {p.parent.name for p in raw.glob("*/task.toml")}


def test_no_prompt_names_a_bundled_tasks_resource_or_id() -> None:
    """The prompts' examples come from a domain no task has: an example of a verified task's
    own endpoints would teach the model that task's answers."""
    from pipeline.paths import PROMPTS_DIR

    segments, ids = bundled_vocabulary()
    assert "books" in segments and "library-books" in ids  # the vocabulary is read
    for prompt in sorted(PROMPTS_DIR.glob("*.j2")):
        text = prompt.read_text(encoding="utf-8")
        named = sorted(s for s in segments if re.search(rf"/{re.escape(s)}\b", text))
        named += sorted(i for i in ids if i in text)
        assert named == [], f"{prompt.name} names {named}"
