#!/bin/sh
# Runs the alternative in the foreground on 0.0.0.0:$PORT (stateless; standard library only).
set -eu
cd "$(dirname "$0")"
PORT="${PORT:-5000}"
BIND=0.0.0.0
export PORT BIND
exec "${PYTHON:-python3}" app.py
