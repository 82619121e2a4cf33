#!/bin/sh
# Runs the TODO service in the foreground on 0.0.0.0:$PORT (9201 by default).
# Upstream opens its SQLite database at the relative path data/todos.db, i.e. under the
# working directory. Each start therefore runs from a fresh temporary working directory
# (outside this folder) holding an empty data/ folder, so every start begins with an empty
# database. The application module itself is loaded from this folder (--app-dir).
set -eu
export PYTHONDONTWRITEBYTECODE=1  # keep this folder free of __pycache__
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/todo-jwt.XXXXXX")"
mkdir -p "$WORK/data"
cd "$WORK"
exec "${PYTHON:-python3}" -m uvicorn main:app --app-dir "$HERE" --host 0.0.0.0 --port "${PORT:-9201}" --no-access-log
