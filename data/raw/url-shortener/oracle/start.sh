#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")"
export PORT="${PORT:-8103}"
# A fresh SQLite database per start, outside the oracle folder.
SHORTLINK_DB="$(mktemp "${TMPDIR:-/tmp}/shortlinks.XXXXXX")"
export SHORTLINK_DB
exec python3 app.py
