#!/usr/bin/env bash
# The course's paths on the GPU machine, with the sandbox required: the same
# verdicts through `check`, `grade` and `serve` on the GPU as on the CPU, a
# lab of 200 students against `serve --backend cuda --roster`, and `grade` of
# 200 submissions x 4 cases with max_time_ratio measured on the GPU.
#
#   scripts/gpu-lab.sh [verdicts|lab|grade|all]
#
# Builds nothing: $BUILD (default /opt/tilescope-build) must hold a CUDA build
# of the command line and the worker (scripts/gpu-hostile.sh with
# BUILD_ONLY=1 makes it, from the Debian packages carried in .gpu-deps).
# STUDENTS (default 200) and SECONDS (default 60) size the lab; WORKERS
# (default: the cores) the server's jobs at once. Results go to $OUT.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
stage="${1:-all}"
out="${OUT:-$root/gpu-out}"
deps="$(cd "${DEPS:-$root/.gpu-deps/root}" && pwd)"
build="${BUILD:-/opt/tilescope-build}"
students="${STUDENTS:-200}"
seconds="${SECONDS_SPREAD:-60}"
workers="${WORKERS:-$(nproc)}"
tilescope="$build/app/tilescope"
lib="$deps/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILESCOPE_BWRAP="${TILESCOPE_BWRAP:-$deps/usr/bin/bwrap}"
export TILESCOPE_WORKER="$build/tilescope-worker"
mkdir -p "$out"
[ -x "$tilescope" ] || { echo "$0: no $tilescope: build it first (BUILD_ONLY=1 scripts/gpu-hostile.sh)" >&2; exit 2; }
status=0

# A right kernel, a racy one and one that reads out of bounds: the verdict
# lines of `check` on each backend, and `serve`'s status for each.
verdicts() {
  local files=("$root/tests/own/good/conv2d_tiled_student.cu" "$root/tests/own/broken/missing_syncthreads.cu"
               "$root/tests/own/broken/oob_read_no_ghost_test.cu")
  for f in "${files[@]}"; do
    for backend in cpu cuda; do
      local text rc
      text=$(cd "$(dirname "$f")" && "$tilescope" check --kernel-file "$(basename "$f")" --size 45x37 --radius 2 \
        --backend "$backend" --sandbox required 2>&1)
      rc=$?
      printf '%s %s: exit %s: %s\n' "$(basename "$f")" "$backend" "$rc" \
        "$(printf '%s' "$text" | grep -E "^tilescope" | tail -1 | cut -c1-300)"
    done
  done
}

# 200 students, each with their own token, spread over 60 s; 30% send a
# kernel with a bug.
lab() {
  python3 "$root/scripts/serve-load.py" --tilescope "$tilescope" --roster --students "$students" \
    --seconds "$seconds" --workers "$workers" --backend cuda --sandbox required --mix 0.3 \
    --json "$out/lab.json"
}

# 200 submissions (the three kernels of tests/grade/class2d, varied so that no
# two texts are the same) x 4 cases, max_time_ratio measured on the GPU.
grade() {
  local work="$out/grade-work"
  rm -rf "$work" && mkdir -p "$work/submissions"
  local i=0
  for n in $(seq 0 $((students - 1))); do
    local src=("$root"/tests/grade/class2d/*.cu)
    local pick="${src[$((n % ${#src[@]}))]}"
    { echo "// submission $n"; cat "$pick"; echo "#define SUBMISSION_$n $n"; } > "$work/submissions/s$(printf %03d "$n").cu"
    i=$((i + 1))
  done
  cat > "$work/spec.toml" <<'EOF'
[assignment]
name = "lab-gpu"
dims = 2

[[case]]
size = "45x37"
radius = 1
points = 1

[[case]]
size = "64x64"
radius = 2
points = 1

[[case]]
size = "100x30"
radius = 3
points = 1

[[case]]
size = "128x128"
radius = 2
points = 1

[require]
no_races = true
no_out_of_bounds = true
no_uninitialised_reads = true
max_time_ratio = 3.0
EOF
  local start=$SECONDS
  "$tilescope" grade --spec "$work/spec.toml" "$work/submissions" --out "$work/results" \
    --sandbox required -j "$workers" > "$out/grade.log" 2>&1
  echo "grade: exit $?, $((SECONDS - start)) s for $i submissions x 4 cases"
  tail -5 "$out/grade.log"
  cp "$work/results/class.csv" "$out/grade-class.csv" 2>/dev/null
  python3 - "$work/results/class.json" <<'EOF'
import json, re, sys, collections
d = json.load(open(sys.argv[1]))
scores = collections.Counter("%s/%s" % (s["score"], s["max_score"]) for s in d["submissions"])
print("scores:", dict(sorted(scores.items())))
timing = collections.Counter()
ratios = []
for s in d["submissions"]:
    for c in s.get("cases", []):
        for line in c.get("explanation", "").splitlines():
            if "time" in line:
                timing[re.sub(r"[0-9.]+", "#", line)] += 1
                m = re.search(r"([0-9.]+) times", line)
                if m:
                    ratios.append(float(m.group(1)))
for line, n in timing.most_common(6):
    print("%4d x %s" % (n, line))
if ratios:
    ratios.sort()
    print("time ratios: %d, median %.2f, largest %.2f" % (len(ratios), ratios[len(ratios) // 2], ratios[-1]))
EOF
}

case "$stage" in
  verdicts) verdicts 2>&1 | tee "$out/verdicts.log" ;;
  lab) lab 2>&1 | tee "$out/lab.log"; status=${PIPESTATUS[0]} ;;
  grade) grade 2>&1 | tee "$out/grade-summary.log" ;;
  all)
    verdicts 2>&1 | tee "$out/verdicts.log"
    lab 2>&1 | tee "$out/lab.log"; status=${PIPESTATUS[0]}
    grade 2>&1 | tee "$out/grade-summary.log" ;;
  *) echo "usage: $0 [verdicts|lab|grade|all]" >&2; exit 2 ;;
esac
exit "$status"
