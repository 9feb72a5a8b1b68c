#!/usr/bin/env bash
# The app's frame time as docs/performance.md reports it: `tilescope
# ui-bench` with every panel open at 1600x900, standing still, stepping one
# step a frame, and in lecture mode; then each panel's cost (--panel-costs).
#
#   scripts/ui-frame-times.sh [TILESCOPE]      (default: build-ui/app/tilescope)
#
# Runs under xvfb-run when DISPLAY is unset. Measure with nothing else
# running: the load average is printed before each run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="${1:-$root/build-ui/app/tilescope}"

bench() {
  echo "## tilescope ui-bench $* ($(uptime | sed 's/.*load average/load average/'))"
  if [ -n "${DISPLAY:-}" ]; then
    "$binary" ui-bench "$@"
  else
    xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" "$binary" ui-bench "$@"
  fi
  echo
}

common=(--panels all --size 1600x900)
bench "${common[@]}"
bench "${common[@]}" --step-every 1
bench "${common[@]}" --lecture
bench "${common[@]}" --frames 200 --panel-costs
bench "${common[@]}" --frames 200 --step-every 1 --panel-costs
