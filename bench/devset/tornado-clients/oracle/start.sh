#!/bin/sh
# Runs the Tornado client API in the foreground on 0.0.0.0:$PORT (9202 by default).
# State lives in a class-level in-memory list (apiclient/database.py), so every start is empty.
set -eu
export PYTHONDONTWRITEBYTECODE=1  # keep this folder free of __pycache__
HERE="$(cd "$(dirname "$0")" && pwd)"
# main() reads logging.ini from the working directory (Python 3.11 raises FileNotFoundError
# instead of the KeyError its fallback catches), so run from the package folder.
cd "$HERE/apiclient"
export PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"
exec "${PYTHON:-python3}" -m apiclient --port="${PORT:-9202}" --logging=warning
