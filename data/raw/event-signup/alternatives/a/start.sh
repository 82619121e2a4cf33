#!/bin/sh
# Runs the alternative in the foreground on 0.0.0.0:${PORT:-8108}
# (standard library only; state in memory: a fresh start is empty).
set -eu
cd "$(dirname "$0")"
export HOST=0.0.0.0
export PORT="${PORT:-8108}"
exec "${PYTHON:-python3}" app.py
