#!/bin/sh
# Runs ownpaste in the foreground on $HOST:$PORT (0.0.0.0:9212 by default).
# Each start gets a fresh, empty SQLite database in a temporary file outside this folder;
# the configuration file (upstream's OWNPASTE_SETTINGS mechanism) only sets that database.
# Credentials are the documented defaults: user "ownpaste", password "test" (HTTP Digest).
set -eu
cd "$(dirname "$0")"
HOST="${HOST:-0.0.0.0}"
export HOST
TMP="$(mktemp -d "${TMPDIR:-/tmp}/ownpaste.XXXXXX")"
printf "SQLALCHEMY_DATABASE_URI = 'sqlite:///%s/ownpaste.db'\n" "$TMP" > "$TMP/settings.cfg"
OWNPASTE_SETTINGS="$TMP/settings.cfg"
export OWNPASTE_SETTINGS
PORT="${PORT:-9212}"
export PORT
exec "${PYTHON:-python3}" serve.py
