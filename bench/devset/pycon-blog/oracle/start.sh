#!/bin/sh
# Runs the blog REST API (code/04-server/03-rest.py of the tutorial) in the foreground on
# $HOST:$PORT (0.0.0.0 by default).
# Upstream keeps its SQLite file next to the repository's .git directory (get_db_path() walks up
# from the working directory to the first folder holding .git). Each start makes a fresh empty
# folder outside this one, marks it with an empty .git directory and runs the service from
# there, so the database (db.sqlite3) is created new and empty in that temporary folder.
set -eu
HERE="$(cd "$(dirname "$0")" && pwd)"
HOST=0.0.0.0
export HOST
PORT="${PORT:-9208}"
export PORT
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pycon-blog.XXXXXX")"
mkdir "$WORK/.git"
cd "$WORK"
exec "${PYTHON:-python3}" "$HERE/03-rest.py"
