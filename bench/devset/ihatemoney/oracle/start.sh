#!/bin/sh
# Runs the I Hate Money service (web UI + REST API under /api) in the foreground on
# 0.0.0.0:$PORT. Each start gets a fresh, empty SQLite database and a settings file in a new
# temporary directory outside this folder (upstream reads its settings from the file named by
# IHATEMONEY_SETTINGS_FILE_PATH and creates the schema through its migrations at start-up).
set -eu
cd "$(dirname "$0")"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ihatemoney.XXXXXX")"
cat > "$WORK/ihatemoney.cfg" <<CFG
SQLALCHEMY_DATABASE_URI = "sqlite:///$WORK/ihatemoney.db"
SECRET_KEY = "devset-oracle-secret"
MAIL_SUPPRESS_SEND = True
ACTIVATE_DEMO_PROJECT = False
CFG
IHATEMONEY_SETTINGS_FILE_PATH="$WORK/ihatemoney.cfg"
export IHATEMONEY_SETTINGS_FILE_PATH
exec "${PYTHON:-python3}" -c "
import sys
from ihatemoney.run import create_app
create_app().run(host='0.0.0.0', port=int(sys.argv[1]), threaded=True)
" "${PORT:-9203}"
