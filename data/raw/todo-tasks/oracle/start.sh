#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")"
exec uvicorn main:app --host 0.0.0.0 --port "${PORT:-8102}" --no-access-log
