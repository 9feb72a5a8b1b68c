#!/usr/bin/env bash
# The app's frame time as docs/performance.md reports it: `tilescope
# ui-bench` at 1600x900 with every panel open (the Charts panel then covers
# the step-through views) and with every panel but Charts (all of them in
# sight), standing still, stepping one step a frame (--frames 75: the demo's
# block has 79 steps, so every timed frame is a step), and in lecture mode;
# then each panel's cost (--panel-costs: each drawn whole, every frame).
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

all=(--panels all --size 1600x900)
visible=(--panels setup,result,device,help,grid,threads,shared,output,source,counts,hardware,problems,editor
         --size 1600x900)
for panels in all visible; do
  declare -n set="$panels"
  bench "${set[@]}"
  bench "${set[@]}" --frames 75 --step-every 1
  bench "${set[@]}" --lecture
done
bench "${visible[@]}" --frames 200 --panel-costs
bench "${all[@]}" --frames 200 --panel-costs
