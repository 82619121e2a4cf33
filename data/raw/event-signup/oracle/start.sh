#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")"
# Fresh SQLite database per start, outside the oracle folder; removed on shutdown.
EVENTS_DB="$(mktemp "${TMPDIR:-/tmp}/events.XXXXXX")"
export EVENTS_DB
exec uvicorn events_app:app --host 0.0.0.0 --port "${PORT:-8108}" --no-access-log
