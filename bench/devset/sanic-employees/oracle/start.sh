#!/bin/sh
# Runs the Employee Management API (Sanic) in the foreground on 0.0.0.0:$PORT.
# Each start gets a fresh, empty SQLite database in a new temporary folder outside this folder
# (upstream: PostgreSQL through asyncpg, see SOURCE.md). Upstream starts it with
# `python3 server.py` (fixed port 8000); the Sanic CLI is used here to choose host and port.
set -eu
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
HOST=0.0.0.0
TMP="$(mktemp -d "${TMPDIR:-/tmp}/sanic-employees.XXXXXX")"
DATABASE_URL="sqlite:///$TMP/employees.db"
PYTHONDONTWRITEBYTECODE=1
export DATABASE_URL PYTHONDONTWRITEBYTECODE
"$PY" init_db.py
exec "$PY" -m sanic server:app --host "$HOST" --port "${PORT:-9213}" --single-process --no-motd
