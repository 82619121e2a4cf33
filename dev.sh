#!/usr/bin/env bash
# One entry point for a newcomer: `./dev.sh build` (set up, then build the bundled tasks offline)
# and `./dev.sh test` (set up, then run the whole test suite; with arguments, `pytest ARGS`).
# Safe to rerun: setup is idempotent.
set -euo pipefail
cd "$(dirname "$0")"

setup() {
  if ! command -v javac >/dev/null 2>&1; then
    echo "setup: installing a JDK (needed by the Java task's oracle)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jdk-headless >/dev/null
  fi
  if [ "${REPOGENESIS_NO_BROWSER:-}" != 1 ] && [ ! -x /usr/bin/chromium ]; then
    echo "setup: installing Debian's chromium (the Area Chair app's and the report's browser tests)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
  fi
  if ! .venv/bin/python -m uv --version >/dev/null 2>&1; then
    .venv/bin/python -m pip install -q --disable-pip-version-check uv
  fi
  # bytecode written once here: this machine sets PYTHONDONTWRITEBYTECODE, so without it every
  # `python -m pipeline` and pytest run compiled its imports again (task envs: execution/envs.py)
  .venv/bin/python -m uv pip install -q --compile-bytecode --python .venv/bin/python -e '.[dev]'
  .venv/bin/python -m compileall -q pipeline >/dev/null
}

cmd="${1:-}"
shift || true
case "$cmd" in
  build)
    setup
    # one task per core at once (outputs identical to --jobs 1); a --jobs of yours wins
    jobs="$(nproc 2>/dev/null || echo 1)"
    [ "$jobs" -gt 8 ] && jobs=8
    exec .venv/bin/repogenesis build --jobs "$jobs" "$@"
    ;;
  test)
    setup
    if [ "$#" -gt 0 ]; then
      exec .venv/bin/python -m pytest "$@"
    fi
    # The whole suite (what CI runs) on up to four cores: the quick tests first, spread test by
    # test; then the slow ones a file per worker, so a module's shared build runs once. Both
    # phases run; the exit status is the first failing phase's.
    workers="$(nproc 2>/dev/null || echo 1)"
    [ "$workers" -gt 4 ] && workers=4
    quick=0 slow=0
    .venv/bin/python -m pytest -m "not slow" -n "$workers" || quick=$?
    .venv/bin/python -m pytest -m slow -n "$workers" --dist loadfile || slow=$?
    [ "$quick" -ne 0 ] && exit "$quick"
    exit "$slow"
    ;;
  setup)
    setup
    ;;
  *)
    echo "usage: ./dev.sh build|test|setup [args...]" >&2
    exit 2
    ;;
esac
