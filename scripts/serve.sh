#!/usr/bin/env bash
# Builds the release site and serves it on http://127.0.0.1:${PORT:-8080}/ (Ctrl-C stops).
set -euo pipefail
cd "$(dirname "$0")/.."
NEED_BROWSER=0 bash scripts/setup.sh
source scripts/env.sh
bash scripts/build.sh
PORT=${PORT:-8080}
echo "Open http://127.0.0.1:$PORT/"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist
