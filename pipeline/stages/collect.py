"""`collect`: import an existing service (local folder or git URL) as a raw task.

The source is untrusted: every path is checked before anything is copied, and nothing is
written into `data/raw/` until the whole import succeeded (built in a temp folder, then
renamed into place).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pipeline.languages import get_language, guess_language
from pipeline.records import TaskConfig, Upstream
from pipeline.scaffold import next_free_port, render, write_executable, write_task_toml
from pipeline.stages.docport import stated_port
from pipeline.tasks import TaskError, check_task_id

README_NAMES = ("README.md", "readme.md", "Readme.md", "README.markdown", "README")
LICENSE_NAMES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING", "COPYING.md")
TEST_DIRS = ("tests", "test")
IGNORED = {".git", "__pycache__", ".venv", "venv", "node_modules", ".idea", ".pytest_cache"}
FRAMEWORK_DEFAULT_PORT = {"flask": 5000, "fastapi": 8000, "django": 8000, "spring": 8080}
GIT_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_ALLOW_PROTOCOL": "file:https:ssh:git",
}

# Distinctive phrases of common licence texts, most specific first.
LICENSE_PHRASES: tuple[tuple[str, str], ...] = (
    (r"GNU AFFERO GENERAL PUBLIC LICENSE", "AGPL-3.0"),
    (r"GNU LESSER GENERAL PUBLIC LICENSE", "LGPL"),
    (r"GNU GENERAL PUBLIC LICENSE\s+Version 3", "GPL-3.0"),
    (r"GNU GENERAL PUBLIC LICENSE\s+Version 2", "GPL-2.0"),
    (r"Apache License,?\s+Version 2\.0", "Apache-2.0"),
    (r"Mozilla Public License,?\s+(Version|v\.)\s*2\.0", "MPL-2.0"),
    (r"This is free and unencumbered software released into the public domain", "Unlicense"),
    (r"Permission to use, copy, modify, and(/or)? distribute this software for any", "ISC"),
    (r"Permission is hereby granted, free of charge", "MIT"),
    (r"Neither the name of", "BSD-3-Clause"),
    (r"Redistribution and use in source and binary forms", "BSD-2-Clause"),
)


def detect_license(text: str) -> str:
    for pattern, spdx in LICENSE_PHRASES:
        if re.search(pattern, text, flags=re.I):
            return spdx
    return "NOASSERTION"


def is_git_url(source: str) -> bool:
    return bool(re.match(r"^(file|https?|ssh|git)://", source)) or source.startswith("git@")


def _git(args: list[str], cwd: Path | None = None) -> str:
    env = {**os.environ, **GIT_ENV}
    proc = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise TaskError(f"git {args[0]} failed: {last}")
    return proc.stdout.strip()


def source_kind(source: str) -> str:
    """What task.toml's `source` says about `collect SOURCE`: github, git or local."""
    if not is_git_url(source):
        return "local"
    host = re.sub(r"^[a-z+]+://([^@/]*@)?|^git@", "", source).split("/")[0].split(":")[0]
    return "github" if host.lower() in ("github.com", "www.github.com") else "git"


def fetch_source(
    source: str, commit: str | None, into: Path
) -> tuple[Path, str | None, str | None]:
    """Bring the source into `into`; return (folder, upstream url, resolved commit)."""
    if is_git_url(source):
        repo = into / "clone"
        _git(["clone", "--quiet", "--no-checkout", "--", source, str(repo)])
        _git(["-c", "advice.detachedHead=false", "checkout", "--quiet", commit or "HEAD"], repo)
        return repo, source, _git(["rev-parse", "HEAD"], repo)
    path = Path(source).expanduser()
    if not path.is_dir():
        raise TaskError(f"{source}: not a folder or git URL; pass a local folder or a git URL")
    if commit:
        repo = into / "clone"
        _git(["clone", "--quiet", "--no-checkout", "--", str(path.resolve()), str(repo)])
        _git(["-c", "advice.detachedHead=false", "checkout", "--quiet", commit], repo)
        return repo, path.resolve().as_uri(), _git(["rev-parse", "HEAD"], repo)
    head = None
    if (path / ".git").exists():
        try:
            head = _git(["rev-parse", "HEAD"], path)
        except TaskError:
            head = None
    return path.resolve(), path.resolve().as_uri(), head


def safe_files(root: Path) -> list[Path]:
    """Relative paths of regular files to import; refuses anything that could escape `root`."""
    root = root.resolve()
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if d not in IGNORED]
        for name in [*dirnames, *filenames]:
            full = here / name
            rel = full.relative_to(root)
            if rel.is_absolute() or ".." in rel.parts:
                raise TaskError(f"{rel}: path leaves the source folder; remove it from the source")
            if full.is_symlink():
                target = (full.parent / os.readlink(full)).resolve()
                if root not in target.parents and target != root:
                    raise TaskError(
                        f"{rel}: symlink points outside the source ({os.readlink(full)}); "
                        "replace it with a real file or remove it"
                    )
        dirnames[:] = [d for d in dirnames if not (here / d).is_symlink()]
        out.extend((here / f).relative_to(root) for f in filenames)
    return sorted(out)


def guess_framework(root: Path, files: list[Path], language: str) -> str:
    """The first of the language's framework needles found in its sources and build files."""
    lang = get_language(language)
    suffixes = (*lang.suffixes, *lang.manifests)
    text = " ".join(
        (root / f).read_text(encoding="utf-8", errors="replace")[:20000]
        for f in files
        if f.suffix in suffixes
    ).lower()
    for needle, name in lang.frameworks:
        if needle.lower() in text:
            return name
    return lang.default_framework


def _readme_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _is_test_path(rel: Path) -> bool:
    return rel.parts[0] in TEST_DIRS or (len(rel.parts) == 1 and rel.name.startswith("test_"))


def collect(
    source: str,
    task_id: str,
    raw_root: Path,
    commit: str | None = None,
    domain: str = "unknown",
    port: int | None = None,
) -> Path:
    check_task_id(task_id)
    if commit is not None and not re.fullmatch(r"[0-9A-Za-z][0-9A-Za-z._/-]{0,127}", commit):
        raise TaskError(f"--commit {commit!r}: not a commit id or ref; pass a SHA such as 1a2b3c4")
    final = raw_root / task_id
    if final.exists():
        raise TaskError(f"{final}: already exists; pick another id or remove that task first")
    raw_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="collect-") as tmp:
        src, url, resolved = fetch_source(source, commit, Path(tmp))
        files = safe_files(src)
        staged = raw_root / f".{task_id}.collecting"
        shutil.rmtree(staged, ignore_errors=True)
        try:
            origin = Origin(task_id, domain, port, source_kind(source), url, resolved)
            task_dir = _stage(src, files, staged, origin, raw_root)
            task_dir.rename(final)
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    return final


@dataclass(frozen=True)
class Origin:
    """What `collect` was told of the task it imports, and where the source came from."""

    task_id: str
    domain: str
    port: int | None  # --port; None: the README's, else the framework's default
    kind: str = "local"  # task.toml's `source`: github, git or local
    url: str | None = None
    commit: str | None = None


def _stage(src: Path, files: list[Path], staged: Path, origin: Origin, raw_root: Path) -> Path:
    task_id = origin.task_id
    oracle, tests = staged / "oracle", staged / "tests"
    oracle.mkdir(parents=True)
    readme = next((f for f in files if len(f.parts) == 1 and f.name in README_NAMES), None)
    license_file = next((f for f in files if len(f.parts) == 1 and f.name in LICENSE_NAMES), None)
    for rel in files:
        if rel == readme:
            continue
        dest = (
            (tests / Path(*rel.parts[1:]) if rel.parts[0] in TEST_DIRS else tests / rel.name)
            if _is_test_path(rel)
            else oracle / rel
        )
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / rel, dest, follow_symlinks=True)
    language = guess_language(files)
    framework = guess_framework(src, files, language)
    config = TaskConfig(
        id=task_id,
        language=language,
        framework=framework,
        domain=origin.domain,
        source=origin.kind,
        # --port, else the port the README states, else the framework's default
        port=origin.port or (stated_port(_readme_text(src / readme)) if readme else None)
        or FRAMEWORK_DEFAULT_PORT.get(framework) or next_free_port(raw_root),
        split="auto",
        upstream=Upstream(
            url=origin.url,
            commit=origin.commit,
            license=detect_license((src / license_file).read_text(errors="replace"))
            if license_file
            else None,
        ),
    )
    write_task_toml(staged / "task.toml", config)
    values = config.model_dump() | {"title": task_id}
    if readme:
        shutil.copy2(src / readme, staged / "README.md")
    else:
        (staged / "README.md").write_text(render("new_task/README.md.j2", **values))
    lang = get_language(language)
    if not (oracle / "start.sh").exists() and "oracle/start.sh" in lang.templates:
        write_executable(oracle / "start.sh",
                         render(lang.templates["oracle/start.sh"], lang.template_dir, **values))
    return staged
