#!/bin/sh
# Runs the alternative in the foreground on 0.0.0.0:$PORT (state in memory: a fresh start holds
# only the seed data the README shows -- see NOTES.md).
set -eu
cd "$(dirname "$0")"
HOST=0.0.0.0
PORT="${PORT:-9209}"
export HOST PORT
exec "${PYTHON:-python3}" app.py
