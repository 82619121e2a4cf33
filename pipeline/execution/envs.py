"""Per-task Python environments, built with uv from `oracle/requirements.txt` and cached.

Installing a task's requirements takes seconds to minutes; the same requirements recur across
runs and across tasks, so environments are cached under `<cache root>/envs/<key>/`, where the
key hashes the requirements (normalised) and the interpreter version. Creation is atomic: the
env is built in a temporary folder and renamed into place only once complete (with a marker
file), under a per-key file lock, so a concurrent or killed build is never mistaken for a
finished one. Which languages need one is the language registry's business
(`ensure_task_env`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from pipeline.languages import TaskEnv as TaskEnv  # re-exported: a language returns one
from pipeline.languages import task_env

from .process import Launch, is_secret_name, spawned, tail_file

CACHE_ENV_VAR = "REPOGENESIS_CACHE_DIR"  # the same variable as Settings.cache_dir
MARKER = "repogenesis-env.json"
KEY_VERSION = "v2"  # bump when the layout or build recipe changes (v2: bytecode compiled)
#: Network settings uv may need to reach the package index (never credentials by name).
NETWORK_VARS = (
    "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "HTTP_PROXY", "HTTPS_PROXY",
    "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
)


class EnvError(Exception):
    """An environment could not be created; the message is one line naming the cause."""


def cache_root() -> Path:
    """`$REPOGENESIS_CACHE_DIR`, else `~/.cache/repogenesis`."""
    value = os.environ.get(CACHE_ENV_VAR)
    return Path(value).expanduser() if value else Path.home() / ".cache" / "repogenesis"


def normalise_requirements(text: str) -> str:
    """Requirements text without blank lines, comments and surrounding whitespace."""
    lines = []
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return "\n".join(lines)


def env_key(requirements_text: str | None, python_version: str) -> str:
    """Cache key: hash of the normalised requirements and the interpreter version."""
    reqs = normalise_requirements(requirements_text or "")
    digest = hashlib.sha256(f"{KEY_VERSION}\0{python_version}\0{reqs}".encode())
    return digest.hexdigest()[:20]


def python_version(python: str = sys.executable) -> str:
    """`<implementation>-<x.y.z>` of an interpreter (asks it when it is not this one)."""
    if Path(python).resolve() == Path(sys.executable).resolve():
        return f"{platform.python_implementation()}-{platform.python_version()}"
    code = "import platform;print(platform.python_implementation()+'-'+platform.python_version())"
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=30,
                             check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise EnvError(f"cannot run interpreter {python}: {exc}") from exc
    return out.stdout.strip()


def _uv_bin() -> str:
    try:
        import uv

        return str(uv.find_uv_bin())
    except (ImportError, FileNotFoundError):
        found = shutil.which("uv")
        if not found:
            raise EnvError("uv not found: install it with `pip install uv`") from None
        return found


def _uv_env() -> dict[str, str]:
    """What uv needs from our environment: network settings, its cache, its own settings."""
    env = {k: os.environ[k] for k in NETWORK_VARS if k in os.environ}
    env.update({k: v for k, v in os.environ.items() if k.startswith("UV_")})
    env = {k: v for k, v in env.items() if not is_secret_name(k)}
    if "UV_CACHE_DIR" not in env:  # HOME is a temp dir for the build: keep the shared cache
        xdg = os.environ.get("XDG_CACHE_HOME")
        env["UV_CACHE_DIR"] = str(Path(xdg) / "uv" if xdg else Path.home() / ".cache" / "uv")
    env["UV_NO_CONFIG"] = "1"
    return env


def is_complete(path: Path) -> bool:
    """True for a finished environment (marker written last, interpreter present)."""
    return (path / MARKER).is_file() and (path / "bin" / "python").exists()


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _run_uv(args: list[str], workdir: Path, cwd: Path, timeout_s: float) -> tuple[int, Path]:
    log = workdir / "uv.log"
    launch = Launch(argv=[_uv_bin(), *args], cwd=cwd, log_path=log, env=_uv_env())
    with spawned(launch, grace_s=2.0) as sp:
        try:
            code = sp.proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            code = -1
    return code, log


def _last_error_line(log: Path, limit: int = 300) -> str:
    """uv's last output line (the most specific cause), without tree decorations."""
    lines = [ln.strip(" ×╰─▶│|").removeprefix("cause: ").strip() for ln in tail_file(log, 30)]
    lines = [ln for ln in lines if ln]
    line = lines[-1] if lines else "no output from uv"
    return line if len(line) <= limit else line[: limit - 3] + "..."


def ensure_env(
    requirements: Path | None,
    python: str = sys.executable,
    root: Path | None = None,
    timeout_s: float = 900.0,
) -> TaskEnv:
    """Return a cached env with `requirements` installed (bare env when None), building it once.

    Raises EnvError with one line (the requirements file and uv's last error line) on failure.
    """
    text = None
    if requirements is not None:
        try:
            text = requirements.read_text(encoding="utf-8")
        except OSError as exc:
            raise EnvError(f"cannot read {requirements}: {exc.strerror}") from exc
    key = env_key(text, python_version(python))
    envs = (root or cache_root()) / "envs"
    final = envs / key
    if is_complete(final):
        return TaskEnv(final, key, reused=True)
    envs.mkdir(parents=True, exist_ok=True)
    with _file_lock(envs / f".{key}.lock"):
        if is_complete(final):  # someone else built it while we waited
            return TaskEnv(final, key, reused=True)
        for stale in envs.glob(f".tmp-{key}-*"):  # left by a killed build (we hold the lock)
            shutil.rmtree(stale, ignore_errors=True)
        if final.exists():
            shutil.rmtree(final)
        _build(final, key, requirements, text, python, timeout_s)
    return TaskEnv(final, key, reused=False)


def _build(
    final: Path, key: str, requirements: Path | None, text: str | None, python: str,
    timeout_s: float,
) -> None:
    work = Path(tempfile.mkdtemp(prefix=f".tmp-{key}-", dir=final.parent))
    try:
        venv = work / "env"
        started = time.monotonic()
        code, log = _run_uv(["venv", "--relocatable", "--quiet", "--python", python, str(venv)],
                            work, work, timeout_s)
        if code != 0:
            raise EnvError(f"creating an environment with {python} failed: "
                           f"{_last_error_line(log)}")
        if text is not None and normalise_requirements(text):
            assert requirements is not None
            req = requirements.resolve()
            left = max(1.0, timeout_s - (time.monotonic() - started))
            # cwd = the requirements' folder, so relative paths in the file resolve as written.
            code, log = _run_uv(["pip", "install", "--quiet", "--python", str(venv / "bin/python"),
                                 "-r", str(req)], work, req.parent, left)
            if code != 0:
                why = f"timed out after {timeout_s:g}s" if code == -1 else _last_error_line(log)
                raise EnvError(f"installing {requirements} failed: {why}")
            (venv / "requirements.txt").write_text(text, encoding="utf-8")
        _compile_bytecode(venv, final, work, timeout_s)
        meta = {"key": key, "python": python_version(python), "requirements": str(requirements),
                "seconds": round(time.monotonic() - started, 2)}
        (venv / MARKER).write_text(json.dumps(meta, indent=2), encoding="utf-8")
        os.rename(venv, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _compile_bytecode(venv: Path, final: Path, work: Path, timeout_s: float) -> None:
    """Write the installed packages' bytecode once, here. Services and tests run with
    PYTHONDONTWRITEBYTECODE (untrusted code writes nothing into a shared env), so without it
    every service start compiled its framework again: most of the CPU of a start (fastapi and
    uvicorn: 0.8 s against 0.4 s). Paths in the bytecode name the final folder. A file that
    does not compile (a template shipped as .py) is skipped: compileall's exit code is not
    an error here."""
    folders = sorted(str(p) for p in venv.glob("lib/python*/site-packages"))
    if not folders:
        return
    launch = Launch(argv=[str(venv / "bin" / "python"), "-m", "compileall", "-q", "-j", "0",
                          "-s", str(venv), "-p", str(final), *folders],
                    cwd=work, log_path=work / "compileall.log", env=_uv_env())
    with spawned(launch, grace_s=2.0) as sp, contextlib.suppress(subprocess.TimeoutExpired):
        sp.proc.wait(timeout=timeout_s)


def ensure_task_env(
    oracle_dir: Path, language: str = "python", root: Path | None = None,
) -> TaskEnv | None:
    """The environment a task's oracle runs in, as its language's module builds it (Python:
    from its requirements; None for a language that uses the machine's tools, like Java)."""
    return task_env(oracle_dir, language, root)
