#!/bin/sh
# Runs the alternative in the foreground on 0.0.0.0:$PORT (state in memory: a fresh start is empty).
set -eu
cd "$(dirname "$0")"
HOST=0.0.0.0
PORT="${PORT:-9208}"
export HOST PORT
exec "${PYTHON:-python3}" app.py
