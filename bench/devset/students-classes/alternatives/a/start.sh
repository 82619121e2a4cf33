#!/bin/sh
set -eu
cd "$(dirname "$0")"
export PORT="${PORT:-9214}"
exec "${PYTHON:-python3}" app.py
