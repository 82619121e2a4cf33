#!/bin/sh
# Runs the alternative in the foreground on 0.0.0.0:$PORT (state in memory: a fresh start is empty).
set -eu
cd "$(dirname "$0")"
export PORT="${PORT:-9204}"
export HOST=0.0.0.0
exec "${PYTHON:-python3}" app.py
