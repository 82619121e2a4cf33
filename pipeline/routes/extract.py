"""`extract_routes`: every route a service's source declares, without running it.

Walks the source tree once, by the one definition of a service's source files
(`pipeline.languages.sources`: no tests, virtualenvs, dependencies, build output or
migrations, which would otherwise contribute routes the service does not serve), then hands
each language's files to that language's route reader (pipeline/languages).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.languages import Language, all_languages, get_language
from pipeline.languages.sources import source_files as _language_files
from pipeline.routes.model import Route


def source_files(root: Path) -> dict[str, list[Path]]:
    """Per language name, the source files under `root` (every registered language)."""
    return _language_files(Path(root), all_languages())


def dedupe(routes: list[Route]) -> list[Route]:
    """One route per (method, path, prefix), first declaration kept, sorted by path."""
    seen: dict[tuple[str, str, bool], Route] = {}
    for route in routes:
        seen.setdefault(route.key, route)
    return sorted(seen.values(), key=lambda r: (r.path, r.method, r.prefix))


def extract_routes(source_dir: Path, language: str | None = None) -> list[Route]:
    """Every route declared in the sources under `source_dir`: of `language` only when given,
    else of every registered language (a candidate repository may be written in any)."""
    root = Path(source_dir)
    if not root.is_dir():
        return []
    langs: list[Language] = [get_language(language)] if language else all_languages()
    files = _language_files(root, langs)
    routes: list[Route] = []
    for lang in langs:
        if files[lang.name]:
            routes += lang.routes(root, files[lang.name])
    return dedupe(routes)
