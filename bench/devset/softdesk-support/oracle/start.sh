#!/bin/sh
# Runs the SoftDesk Support API in the foreground on 0.0.0.0:$PORT (fresh, empty SQLite DB each start).
set -e
cd "$(dirname "$0")/SoftDeskSupportApi"
PY="${PYTHON:-python3}"
rm -f db.sqlite3  # the project keeps its SQLite file next to manage.py (BASE_DIR); start empty
"$PY" manage.py migrate --noinput >/dev/null
exec "$PY" manage.py runserver "0.0.0.0:${PORT:-9205}" --noreload
