#!/bin/sh
# Runs the alternative (Flask, in memory) in the foreground on 0.0.0.0:${PORT:-9205}.
# A fresh start is empty: the README documents no seed users or projects.
set -eu
cd "$(dirname "$0")"
BIND=0.0.0.0
PORT="${PORT:-9205}"
export BIND PORT
exec "${PYTHON:-python3}" app.py
