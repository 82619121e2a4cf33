#!/bin/sh
# Runs the alternative in the foreground on 0.0.0.0:${PORT:-9203} (state in memory: a fresh start is empty).
set -eu
cd "$(dirname "$0")"
PORT="${PORT:-9203}"
HOST=0.0.0.0
export PORT HOST
exec "${PYTHON:-python3}" app.py
