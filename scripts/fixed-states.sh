#!/usr/bin/env bash
# Records a fixed set of states of the app and the command line, so that a
# change meant to be invisible (a refactoring) can be shown to be: record
# before, record after, compare (scripts/compare-states.py).
#
#   scripts/fixed-states.sh BUILD_DIR OUT_DIR
#
# Pictures (PNG, with the layout probe's JSON beside each): the default
# panels and every panel at 1600x900 and 1920x1080, each panel focused,
# lecture mode, three lesson steps (one answered and revealed), the Problems
# panel with a dropped barrier, the editor with a broken kernel file, a
# compare view, the Class panel (and a student's row opened). Text: `stats`, `check --json`, `sweep --csv` and `memory` on
# fixed inputs. Everything on the CPU backend, so it is the same on every
# machine. Needs a display (run under xvfb-run).
set -uo pipefail

build="$(cd "${1:?usage: $0 BUILD_DIR OUT_DIR}" && pwd)"
out="${2:?usage: $0 BUILD_DIR OUT_DIR}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$build/app/tilescope"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT

failures=0
# shot NAME ARGS...: a screenshot on the CPU backend with a fixed input.
shot() {
    local name="$1"
    shift
    if ! "$bin" --config-dir "$config" screenshot --out "$out/$name.png" --layout "$out/$name.json" \
        --backend cpu "$@" >"$out/$name.log" 2>&1; then
        echo "failed: $name (see $out/$name.log)" >&2
        failures=$((failures + 1))
    fi
}
# text NAME ARGS...: a command's standard output and exit code.
text() {
    local name="$1" status=0
    shift
    "$bin" "$@" >"$out/$name.txt" 2>"$out/$name.err" || status=$?
    echo "$status" >"$out/$name.status"
}

# Every panel that can fill the window (help is an overlay: it is in "all").
panels=(setup result device grid threads shared output source counts hardware problems editor charts class)
state=(--kernel conv2d_tiled_in --builtin photo --input-size 32x32 --select 5,6 --step 40)
for size in 1600x900 1920x1080; do
    shot "default-$size" --size "$size" "${state[@]}"
    shot "all-$size" --size "$size" --panels all "${state[@]}"
    for panel in "${panels[@]}"; do
        shot "focus-$panel-$size" --size "$size" --panels "$panel" --focus "$panel" "${state[@]}"
    done
    shot "problems-dropped-barrier-$size" --size "$size" --kernel conv2d_tiled_in --builtin photo \
        --input-size 32x32 --block 16 --preset fig-7.4 --drop-barrier 23 --problem 0
done
shot lecture-1920x1080 --size 1920x1080 --lecture "${state[@]}"
shot lecture-all-1920x1080 --size 1920x1080 --lecture --panels all "${state[@]}"
shot lecture-1280x720 --size 1280x720 --lecture "${state[@]}"
shot lesson-step1 --size 1600x900 --lesson 2d-convolution --lesson-step 1
shot lesson-step3 --size 1600x900 --lesson 2d-convolution --lesson-step 3
shot lesson-step3-revealed --size 1600x900 --lesson 2d-convolution --lesson-step 3 --reveal
shot editor-broken-kernel --size 1600x900 --kernel-file "$root/tests/own/broken/forgot_global.cu" \
    --input-size 32x32 --panels editor,result,problems
# The Class panel on the fixture class, and a student's row opened at its first problem.
class_json="$root/tests/grade/fixtures/class.json"
shot class-1920x1080 --size 1920x1080 --class "$class_json" --panels class,result
shot class-lecture-1920x1080 --size 1920x1080 --lecture --class "$class_json" --panels class,result
shot class-open-alice-1920x1080 --size 1920x1080 --class "$class_json" --class-open alice
shot compare-1600x900 --size 1600x900 --kernel conv2d_tiled_in --compare conv2d_tiled_cached --builtin photo \
    --input-size 24x24 --select 5,6 --step 40 --panels all

text stats stats --kernel conv2d_tiled_in --size 45x37 --radius 2 --block 16 --seed 7
text stats-1d stats --kernel conv1d_tiled --size 200 --radius 3 --block 32 --seed 7
text check-json check --json --kernel conv2d_tiled_in --size 45x37 --radius 2 --block 16 --seed 7
text check-json-dropped check --json --kernel conv2d_tiled_in --size 45x37 --radius 2 --block 16 --seed 7 \
    --drop-barrier 23
text sweep sweep --kernel 2d --block 8,16 --radius 1,2 --no-gpu --csv "$out/sweep.csv"
text memory memory --kernel conv2d_tiled_in --size 256x256 --radius 2 --block 16

echo "recorded $(ls "$out"/*.png 2>/dev/null | wc -l) pictures and $(ls "$out"/*.txt | wc -l) outputs in $out"
exit $((failures > 0))
