#!/bin/sh
# Runs the alternative in the foreground on 0.0.0.0:$PORT (state in memory: a fresh start holds
# only the generated sample data).
set -eu
cd "$(dirname "$0")"
export HOST=0.0.0.0
export PORT="${PORT:-9207}"
exec "${PYTHON:-python3}" app.py
