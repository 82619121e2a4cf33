"""One registry of per-language rules: a task's `language` (task.toml) names a `Language`.

Every rule that differs between languages lives in that language's module
(`pipeline.builtin_languages.python`, `.java`, or one a user registers):
which files are its source, the environment its service runs in, its mutants, how routes are
read from it, what `new-task` scaffolds and what `collect` guesses. Callers ask the registry
(`get_language(task.config.language)`) and never branch on a language's name, so adding a
language is one module that calls `register` (see tests/test_languages.py for a toy one).

Which files are an oracle's source is decided once, in `sources` (see its docstring), and used
by difficulty, route analysis, mutation and evaluate alike.

The start command: `oracle/start.sh` is the contract every language shares (execution always
runs it, with the language's environment first on PATH); a language decides what its start.sh
does through the template it scaffolds (`Language.templates["oracle/start.sh"]`).

The built-in modules are imported by name on first use, not here: they import the route
readers, the mutation operators and the execution layer, which themselves ask this registry,
so the registry sits below all of them and knows those modules only as names (`BUILTIN`).
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.languages.sources import source_files

if TYPE_CHECKING:  # types only: these layers sit above the registry
    from pipeline.mutation.operators import Mutant
    from pipeline.routes.match import EndpointLike
    from pipeline.routes.model import Route

#: `handler_spans(sources, routes, endpoints)`: endpoint key ("GET /items") -> the
#: (file, first line, last line) spans of the code serving it (see pipeline.mutation.handlers).
HandlerSpans = Callable[
    [Mapping[str, str], "Sequence[Route]", "Sequence[EndpointLike]"],
    Mapping[str, list[tuple[str, int, int]]],
]

#: Built-in languages, in the order used for guessing and for ties: name -> module.
BUILTIN = {"python": "pipeline.builtin_languages.python",
           "java": "pipeline.builtin_languages.java"}


@dataclass(frozen=True)
class TaskEnv:
    """A ready environment a language built for a service (its `bin` goes first on PATH).
    `reused` is True when it came from the cache untouched. Declared here, with the registry,
    because a language's `environment` returns one; pipeline.execution.envs builds them."""

    path: Path
    key: str
    reused: bool

    @property
    def bin(self) -> Path:
        return self.path / "bin"

    @property
    def python(self) -> Path:
        return self.bin / "python"


class UnknownLanguage(ValueError):
    """A task names a language no module registers; the message says how to fix it."""


def _no_env(source_dir: Path, cache_root: Path | None) -> TaskEnv | None:
    return None


@dataclass(frozen=True)
class Language:
    """Everything the pipeline needs to know about one implementation language.

    `routes(root, files)` reads the routes declared in `files` (this language's sources under
    `root`); `mutants(path, text)` gives one file's mutants; `environment(source_dir,
    cache_root)` returns the environment whose `bin` goes first on PATH (None: the machine's
    tools); `count_types(path, text)` counts classes/types for difficulty; `build_error`
    matches a service log line saying a mutant did not compile (that mutant is `invalid`).
    `templates` maps files `new-task` writes (relative to the task folder) to template names,
    looked up in `template_dir` (a language module's own folder) first, then under
    pipeline/templates; `frameworks` are (needle, framework) pairs `collect` looks for in
    the sources and `manifests` (build files) of a repository; `programs` are the interpreter
    names its environment's `bin` may hold (the sandbox makes their real files readable);
    `handler_spans` maps documented endpoints to the lines of the code serving them, so a
    mutant there is evidence about that endpoint's tests (None: mutants map to no endpoint).
    """

    name: str
    suffixes: tuple[str, ...]
    routes: Callable[[Path, list[Path]], list[Route]]
    mutants: Callable[[str, str], list[Mutant]]
    count_types: Callable[[Path, str], int]
    environment: Callable[[Path, Path | None], TaskEnv | None] = _no_env
    build_error: re.Pattern[str] | None = None
    skip_dirs: frozenset[str] = frozenset()
    templates: Mapping[str, str] = field(default_factory=dict)
    template_dir: Path | None = None
    frameworks: tuple[tuple[str, str], ...] = ()
    default_framework: str = "unknown"
    manifests: tuple[str, ...] = ()
    programs: tuple[str, ...] = ()
    handler_spans: HandlerSpans | None = None

    def source_files(self, root: Path) -> list[Path]:
        """This language's source files under `root` (the one definition, see `sources`)."""
        return source_files(root, [self])[self.name]


_REGISTRY: dict[str, Language] = {}


def register(language: Language) -> Language:
    """Add (or replace) a language; returns it so a module can keep it as a constant."""
    _REGISTRY[language.name] = language
    return language


def unregister(name: str) -> None:
    """Remove a registered language (tests that add a toy one clean up with this)."""
    _REGISTRY.pop(name, None)


def is_known(name: str) -> bool:
    """True for a built-in or registered language name (without importing any module)."""
    return name in BUILTIN or name in _REGISTRY


def names() -> list[str]:
    return [*BUILTIN, *(n for n in _REGISTRY if n not in BUILTIN)]


def get_language(name: str) -> Language:
    """The language called `name`; UnknownLanguage (one line naming the fix) otherwise."""
    if name not in _REGISTRY and name in BUILTIN:
        importlib.import_module(BUILTIN[name])  # the module registers itself
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownLanguage(
            f"language {name!r} is not known (known: {', '.join(names())}): use one of "
            f"them, or add a module that registers it (see pipeline/builtin_languages)") from None


def all_languages() -> list[Language]:
    """Every language, built-ins first (in BUILTIN order), then registered ones."""
    return [get_language(n) for n in names()]


def guess_language(files: Iterable[Path]) -> str:
    """The language with the most source files among `files` (ties: the earlier one)."""
    counts = Counter(Path(f).suffix for f in files)
    best, best_n = names()[0], 0
    for lang in all_languages():
        n = sum(counts[s] for s in lang.suffixes)
        if n > best_n:
            best, best_n = lang.name, n
    return best


def interpreter_names() -> list[str]:
    """Every language's interpreter names, in order, without repeats."""
    return list(dict.fromkeys(p for lang in all_languages() for p in lang.programs))


def task_env(source_dir: Path, language: str, cache_root: Path | None = None
             ) -> TaskEnv | None:
    """The environment a service written in `language` runs in (None: the machine's tools)."""
    return get_language(language).environment(Path(source_dir), cache_root)


__all__ = [
    "BUILTIN", "Language", "TaskEnv", "UnknownLanguage", "all_languages", "get_language",
    "guess_language", "interpreter_names", "is_known", "names", "register", "task_env",
    "unregister",
]
