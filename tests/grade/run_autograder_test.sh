#!/usr/bin/env bash
# packaging/gradescope/run_autograder in Gradescope's layout, in a scratch
# root (autograder/source, submission, results), with the built tilescope:
# a tiled kernel scores full marks, a racy one loses its racy case, and a
# broken spec still leaves a results.json that says what went wrong.
#   run_autograder_test.sh TILESCOPE SOURCE_DIR
set -euo pipefail
tilescope="$1"
src="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

grade() {  # grade KERNEL SPEC -> prints score
  local root="$scratch/$(basename "$1" .cu)-$(basename "$2" .toml)"
  mkdir -p "$root/autograder/source" "$root/autograder/submission" "$root/autograder/results"
  cp "$src/packaging/gradescope/run_autograder" "$root/autograder/source/"
  cp "$2" "$root/autograder/source/spec.toml"
  cp "$1" "$root/autograder/submission/"
  (cd "$root/autograder" && AUTOGRADER_ROOT="$root/autograder" TILESCOPE="$tilescope" \
    ./source/run_autograder > /dev/null 2>&1)
  python3 - "$root/autograder/results/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert isinstance(r["tests"], list) and isinstance(r["output"], str), r
assert r["score"] == sum(t["score"] for t in r["tests"]), r
print(r["score"], r["output"].replace("\n", " ")[:200])
PY
}

spec="$src/tests/grade/specs/class1d.toml"
out="$(grade "$src/tests/grade/class1d/tiled_right.cu" "$spec")"
[ "${out%% *}" = 3 ] || { echo "tiled_right: $out (want 3)"; exit 1; }
out="$(grade "$src/tests/grade/class1d/racy_but_right.cu" "$spec")"
[ "${out%% *}" = 1 ] || { echo "racy_but_right: $out (want 1)"; exit 1; }
out="$(grade "$src/tests/grade/class1d/tiled_right.cu" "$src/tests/grade/specs/bad_radius.toml")"
case "$out" in
  "0 The autograder could not grade"*"radius 9 cannot run"*) ;;
  *) echo "bad spec: $out"; exit 1 ;;
esac
echo "run_autograder: ok"
