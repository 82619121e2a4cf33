#!/bin/sh
# Runs ShoppingListApi in the foreground on 0.0.0.0:$PORT with waitress (as upstream's Procfile).
# Every start gets a fresh, empty SQLite database in a temporary file outside this folder
# (upstream reads its database URL from DATABASE_URL; the tables are created with db.create_all(),
# as upstream's tests do, instead of `python manage.py db upgrade`).
set -eu
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
HOST=0.0.0.0
DB_FILE="$(mktemp "${TMPDIR:-/tmp}/shopping-list-api.XXXXXX")"
DATABASE_URL="sqlite:///$DB_FILE"
APP_SETTINGS="${APP_SETTINGS:-development}"
SECRET="${SECRET:-devset-shopping-list-secret}"
PYTHONDONTWRITEBYTECODE=1
export DATABASE_URL APP_SETTINGS SECRET PYTHONDONTWRITEBYTECODE
LISTEN="$HOST:${PORT:-9210}"
export LISTEN
# One process: create the tables, then serve run:app with waitress (upstream's Procfile:
# `waitress-serve --threads=8 run:app`).
exec "$PY" -c 'import os
from run import app
from app.app import db
with app.app_context():
    db.create_all()
from waitress import serve
serve(app, listen=os.environ["LISTEN"], threads=8)'
