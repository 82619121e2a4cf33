#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")"
PORT="${PORT:-8104}"
export PORT
# Compile into a fresh temporary folder; nothing is written inside the oracle folder.
BUILD_DIR="$(mktemp -d "${TMPDIR:-/tmp}/inventory-java.XXXXXX")"
javac -encoding UTF-8 -d "$BUILD_DIR" src/*.java
exec java -Dsun.net.httpserver.nodelay=true -Dinventory.buildDir="$BUILD_DIR" \
    -cp "$BUILD_DIR" inventory.InventoryServer
