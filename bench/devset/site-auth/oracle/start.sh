#!/bin/sh
# Runs the service in the foreground on 0.0.0.0:$PORT (run.py binds 0.0.0.0, as upstream).
# Each start gets a fresh, empty SQLite database in a temporary file outside this folder
# (the service reads DATABASE_URL and JWT_SECRET_KEY from the environment, as upstream does via .env).
set -eu
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
DB_FILE="$(mktemp "${TMPDIR:-/tmp}/site-auth.XXXXXX")"
DATABASE_URL="sqlite:///$DB_FILE"
JWT_SECRET_KEY="${JWT_SECRET_KEY:-devset-site-auth-secret}"
FLASK_ENV=production
PORT="${PORT:-9204}"
export DATABASE_URL JWT_SECRET_KEY FLASK_ENV PORT
# upstream creates the tables with Flask-Migrate (`manage.py db init/migrate/upgrade`, no migrations committed)
"$PY" -c "from src.app import create_app; from src.models import db; app = create_app('production'); app.app_context().push(); db.create_all()"
exec "$PY" run.py
