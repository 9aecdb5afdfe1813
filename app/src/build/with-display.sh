#!/usr/bin/env bash
# Runs the given command with a display: the one there is, else a virtual one from xvfb-run when installed, else
# without (the AOT training then leaves the console out of the cache and says so).
set -euo pipefail
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 1360x900x24" "$@"
fi
exec "$@"
