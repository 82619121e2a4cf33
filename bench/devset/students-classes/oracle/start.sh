#!/bin/sh
# Runs the students-and-classes API in the foreground on 0.0.0.0:$PORT.
# Each start gets a fresh SQLite database in a new temporary folder outside this folder,
# with one registered user (SERVICE_USERNAME / SERVICE_PASSWORD, default dave / cat),
# as the README's `python manage.py adduser <username>` step would leave it.
set -eu
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
HOST=0.0.0.0
TMP="$(mktemp -d "${TMPDIR:-/tmp}/students-classes.XXXXXX")"
DATABASE_URL="sqlite:///$TMP/api.sqlite"
PYTHONDONTWRITEBYTECODE=1
export DATABASE_URL PYTHONDONTWRITEBYTECODE
"$PY" seed_user.py
exec "$PY" -m flask --app "api.app:create_app('run_config')" run --host "$HOST" --port "${PORT:-9214}" --no-reload --no-debugger
