#!/bin/sh
# Runs the alternative in the foreground on 0.0.0.0:$PORT (state in memory: a fresh start is empty).
set -eu
cd "$(dirname "$0")"
PORT="${PORT:-9212}"
BIND="${BIND:-0.0.0.0}"
export PORT BIND
exec "${PYTHON:-python3}" app.py
