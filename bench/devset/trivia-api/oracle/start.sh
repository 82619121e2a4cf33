#!/bin/sh
# Runs the Trivia API in the foreground on 0.0.0.0:$PORT.
# Each start gets a fresh SQLite database in a temporary file outside this folder, loaded with
# the rows of backend/trivia.psql (the README's setup step `psql trivia < trivia.psql`), and a
# temporary folder for category icon uploads (upstream writes them to ../frontend/public).
set -eu
cd "$(dirname "$0")/backend"
PY="${PYTHON:-python3}"
HOST=0.0.0.0
TMP="$(mktemp -d "${TMPDIR:-/tmp}/trivia-api.XXXXXX")"
DATABASE_URL="sqlite:///$TMP/trivia.db"
UPLOAD_FOLDER="$TMP/icons"
mkdir -p "$UPLOAD_FOLDER"
PYTHONDONTWRITEBYTECODE=1
export DATABASE_URL UPLOAD_FOLDER PYTHONDONTWRITEBYTECODE
"$PY" seed_sqlite.py
exec "$PY" -m flask --app flaskr run --host "$HOST" --port "${PORT:-9209}" --no-reload --no-debugger
