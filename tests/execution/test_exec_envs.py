"""Per-task environments: cached by requirements hash, built atomically, clear errors."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from pipeline.execution.envs import (
    MARKER,
    EnvError,
    cache_root,
    ensure_env,
    ensure_task_env,
    env_key,
    python_version,
)


def _reqs(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "requirements.txt").write_text(text)
    return folder / "requirements.txt"


def _imports(env, module: str) -> bool:
    code = f"import {module}"
    return subprocess.run([str(env.python), "-c", code], capture_output=True).returncode == 0


def test_key_ignores_comments_and_blank_lines_but_not_content():
    v = python_version()
    assert env_key("six==1.16.0\n", v) == env_key("# pinned\n\nsix==1.16.0  # why\n", v)
    assert env_key("six==1.16.0\n", v) != env_key("six==1.17.0\n", v)
    assert env_key("six\n", v) != env_key("six\n", "CPython-3.12.0")
    assert env_key(None, v) == env_key("", v)


def test_cache_root_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("REPOGENESIS_CACHE_DIR", str(tmp_path / "c"))
    assert cache_root() == tmp_path / "c"
    monkeypatch.delenv("REPOGENESIS_CACHE_DIR")
    assert cache_root() == Path.home() / ".cache" / "repogenesis"


def test_java_needs_no_env(tmp_path):
    assert ensure_task_env(tmp_path, language="java") is None


@pytest.mark.slow
def test_same_requirements_reuse_different_requirements_rebuild(tmp_path):
    root = tmp_path / "cache"
    first = ensure_env(_reqs(tmp_path, "a", "iniconfig\n"), root=root)
    assert not first.reused and first.path.parent == root / "envs"
    assert _imports(first, "iniconfig") and not _imports(first, "six")
    marker_mtime = (first.path / MARKER).stat().st_mtime_ns

    t0 = time.monotonic()
    again = ensure_env(_reqs(tmp_path, "b", "# same, other task\niniconfig\n"), root=root)
    assert time.monotonic() - t0 < 1.0
    assert again.reused and again.path == first.path
    assert (again.path / MARKER).stat().st_mtime_ns == marker_mtime  # not reinstalled

    other = ensure_env(_reqs(tmp_path, "c", "six\n"), root=root)
    assert not other.reused and other.path != first.path
    assert _imports(other, "six") and not _imports(other, "iniconfig")
    assert sorted(p.name for p in (root / "envs").iterdir() if not p.name.startswith(".")) == \
        sorted([first.key, other.key])


@pytest.mark.slow
def test_task_without_requirements_gets_bare_env(tmp_path):
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    env = ensure_task_env(oracle, root=tmp_path / "cache")
    assert env is not None and env.python.exists()
    assert not _imports(env, "six")


@pytest.mark.slow
def test_install_failure_is_one_clear_line_and_leaves_nothing(tmp_path):
    req = _reqs(tmp_path, "bad", "no-such-package-repogenesis-zzqx==0.0.1\n")
    root = tmp_path / "cache"
    with pytest.raises(EnvError) as info:
        ensure_env(req, root=root)
    msg = str(info.value)
    assert "\n" not in msg
    assert str(req) in msg and "no-such-package-repogenesis-zzqx" in msg
    assert [p for p in (root / "envs").iterdir() if not p.name.endswith(".lock")] == []


@pytest.mark.slow
def test_half_built_env_is_never_reused(tmp_path):
    """A killed build leaves a temp dir (and maybe a final dir without marker): rebuild."""
    req = _reqs(tmp_path, "a", "iniconfig\n")
    root = tmp_path / "cache"
    key = env_key(req.read_text(), python_version())
    envs = root / "envs"
    (envs / f".tmp-{key}-killed" / "env" / "bin").mkdir(parents=True)
    (envs / key / "bin").mkdir(parents=True)  # no marker: incomplete
    env = ensure_env(req, root=root)
    assert not env.reused and _imports(env, "iniconfig")
    assert not (envs / f".tmp-{key}-killed").exists()


@pytest.mark.slow
def test_concurrent_creation_builds_once(tmp_path):
    req = _reqs(tmp_path, "a", "iniconfig\n")
    root = tmp_path / "cache"
    results = []

    def build() -> None:
        results.append(ensure_env(req, root=root))

    threads = [threading.Thread(target=build) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert len(results) == 3 and len({r.path for r in results}) == 1
    assert sorted(r.reused for r in results) == [False, True, True]


def test_packages_are_compiled_once_at_build_and_name_the_final_folder(tmp_path):
    """Services run with PYTHONDONTWRITEBYTECODE: the env's bytecode is written when it is
    built, or every start compiles the framework again."""
    env = ensure_env(_reqs(tmp_path, "a", "six\n"), root=tmp_path / "cache")
    site = next(env.path.glob("lib/python*/site-packages"))
    assert list(site.glob("__pycache__/six.*.pyc"))
    code = ("import six, sys; sys.dont_write_bytecode = True; "
            "print(six.__spec__.cached, six.add_metaclass.__code__.co_filename)")
    out = subprocess.run([str(env.python), "-c", code], capture_output=True, text=True,
                         env={"PYTHONDONTWRITEBYTECODE": "1"}, check=True).stdout.split()
    assert Path(out[0]).is_file()
    assert out[1] == str(site / "six.py")  # not the temporary folder it was built in
