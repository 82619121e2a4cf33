"""Mutants of a whole oracle (pure): each file's mutants from its language's operators.

The language's module (pipeline/languages) says which operators apply, so this package never
branches on a language's name and `operators` and `java` no longer import each other in a
circle.
"""

from __future__ import annotations

from pipeline.languages import get_language

from .operators import Mutant


def oracle_mutants(files: dict[str, str], language: str) -> list[Mutant]:
    """Mutants of every source file of an oracle (`files`: relative path -> text), by path."""
    make = get_language(language).mutants
    out: list[Mutant] = []
    for path in sorted(files):
        out.extend(make(path, files[path]))
    return out
