#!/bin/sh
# Runs the Prototype Falcon API (Falcon ASGI app under uvicorn) in the foreground on
# $HOST:$PORT (0.0.0.0 by default). All data lives in memory (upstream's in-memory
# repositories with their sample data), so every start begins from the same fresh state.
set -eu
cd "$(dirname "$0")"
HOST=0.0.0.0
exec "${PYTHON:-python3}" -m uvicorn app:application --host "$HOST" --port "${PORT:-9207}" --no-access-log
