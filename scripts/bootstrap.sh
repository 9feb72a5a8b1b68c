#!/usr/bin/env bash
# Sets up TileScope on a fresh Debian (12 or later) machine and then either
# opens the app on its built-in demo or runs the whole test suite.
#
#   scripts/bootstrap.sh app    install what is missing, build, open the app
#   scripts/bootstrap.sh test   install what is missing, build, run every test
#   scripts/bootstrap.sh web    install what is missing, build the browser
#                               version into build-web/web (serve it with
#                               python3 -m http.server -d build-web/web 8000)
#
# `test` then builds the CPU side again with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan) and runs the cpu and trace tests
# there, any report failing them; where Clang is installed, builds the
# libFuzzer targets of the file readers and of the kernel-file translator
# (build-fuzz) and fuzzes each for a bounded time, a crash failing the run;
# and builds the browser version and checks it in headless Chromium
# (tests/web/page_test.py).
#
# Environment: BUILD_DIR (default build), TILESCOPE_CUDA (AUTO, ON, OFF),
# JOBS (default: the number of cores), FUZZ_SECONDS (per target, default 10;
# 0 skips the fuzzers).
set -euo pipefail

mode="${1:-app}"
case "$mode" in
  app|test|web) ;;
  *) echo "usage: $0 app|test|web" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-$(nproc)}"
# Each step's end, in seconds since the start, so that a slow run says where
# its time went.
started=$SECONDS
step_done() { echo "bootstrap: $1 done at $((SECONDS - started)) s"; }

# --- Debian packages -------------------------------------------------------
packages=(
  cmake ninja-build g++ make pkg-config git python3 python3-venv python3-pip
  libglfw3-dev libstb-dev libfreetype-dev fonts-dejavu-core
  libcli11-dev nlohmann-json3-dev libgtest-dev libboost-context-dev
  # tilescope grade reads its spec with toml++
  libtomlplusplus-dev
  # tilescope serve: cpp-httplib (a shared library built with OpenSSL, zlib
  # and Brotli, whose headers its flags need) and zlib for the traces it sends
  libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev
  # the lab's record (app/lab/: the roster, every compile and check) in SQLite
  libsqlite3-dev
  # ... or in PostgreSQL for several servers (libpq); the test of three
  # servers behind nginx on one PostgreSQL starts Debian's own of both
  # (tests/serve/pg_test.py)
  libpq-dev postgresql nginx
  libgl-dev libgl1-mesa-dri xvfb xauth
  libclang-dev
  # the sandbox around a student's kernel file (kernels/own/sandbox.cpp):
  # bubblewrap for namespaces, libseccomp for the worker's system-call filter
  bubblewrap libseccomp-dev
  # exports for slides: giflib for GIFs; FFmpeg's libraries for MP4 (optional
  # to the build, installed here, about 100 MB with their codecs, so that the
  # tests cover MP4 too); PIL and rsvg-convert read the exports back in tests
  libgif-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
  python3-pil librsvg2-bin
  # the .deb (cpack -G DEB): dpkg-shlibdeps and file find its Depends; the
  # install tests check its desktop entry with desktop-file-validate
  dpkg-dev file desktop-file-utils
)
# Clang and its runtime libraries, for the fuzzers of `test` (libFuzzer comes
# with Clang only). Optional: where they cannot be installed the fuzzers are
# skipped with a message, and everything else still runs.
optional=(clang-14 libclang-rt-14-dev)
# The browser version (web, and test): Emscripten (Debian's 3.1.6, with its
# clang, binaryen and node; node-acorn is its JavaScript optimiser's parser),
# the same header-only libraries and fonts as the desktop's, and for the
# page's test Chromium with the DevTools client and PIL.
web_packages=(
  cmake ninja-build make python3 emscripten node-acorn nlohmann-json3-dev libstb-dev fonts-dejavu-core
  chromium python3-websocket python3-pil
)
if [ "$mode" = web ]; then
  packages=("${web_packages[@]}")
elif [ "$mode" = test ]; then
  packages+=("${web_packages[@]}")
fi
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
missing_optional=()
if [ "$mode" = test ]; then
  for p in "${optional[@]}"; do
    installed "$p" || missing_optional+=("$p")
  done
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ((${#missing[@]} + ${#missing_optional[@]})); then
  $sudo apt-get update -qq
fi
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ((${#missing_optional[@]})); then
  echo "Installing (for the fuzzers): ${missing_optional[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing_optional[@]}" ||
    echo "Could not install ${missing_optional[*]}: the fuzzers will be skipped"
fi

# --- Dear ImGui 1.93 (docking) and ImPlot 1.1: one pinned, hash-checked -----
# source archive from PyPI (imgui-bundle 1.93.0), unpacked into .deps/; no
# Debian package has ImPlot, and Debian's ImGui (1.86) is too old for it.
"$root/scripts/fetch-imgui.sh"
step_done "packages and sources"

# --- The generator ---------------------------------------------------------
# Ninja: a layer's sources compile while the layer below it is still being
# archived (Make waits for each library before it starts on the next), so
# both cores stay busy through kernels/'s chain of layers. A build folder
# made earlier keeps the generator it was made with (CMake refuses another).
generator() {
  if [ -f "$1/CMakeCache.txt" ]; then
    return 0
  fi
  if command -v ninja >/dev/null; then
    echo "-G" "Ninja"
  fi
}

# --- The browser version -----------------------------------------------------
# Emscripten's JavaScript tools load node-acorn from Debian's node folder,
# which a node installed elsewhere on the PATH does not search by itself.
build_web() {
  local web="${WEB_BUILD_DIR:-$root/build-web}"
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
  # shellcheck disable=SC2046
  emcmake cmake $(generator "$web") -S "$root" -B "$web" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$web" -j "$jobs"
  echo "The page is in $web/web; serve it with: python3 -m http.server -d $web/web 8000"
  echo "and open http://localhost:8000/"
}
if [ "$mode" = web ]; then
  build_web
  exit 0
fi

# --- glad2, the OpenGL loader generator, from PyPI into a private venv -----
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import glad" 2>/dev/null; then
  echo "Installing the glad2 generator into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "glad2==2.0.8"
fi

# --- Build -----------------------------------------------------------------
# shellcheck disable=SC2046
cmake $(generator "$build") -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DPython3_EXECUTABLE="$venv/bin/python" \
  -DTILESCOPE_CUDA="${TILESCOPE_CUDA:-AUTO}"
cmake --build "$build" -j "$jobs"
step_done "build"

if [ "$mode" = app ]; then
  exec "$build/app/tilescope"
fi

# --- Tests: every test, the GUI ones on a virtual display -------------------
cd "$build"
# -noreset: by default Xvfb resets itself whenever its last client leaves,
# and a test's window that connects during the reset finds no display; the
# UI tests start and stop many windows, two at a time.
xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" ctest --output-on-failure -j "$jobs"
step_done "tests"

# --- The CPU side again, under ASan and UBSan --------------------------------
# Debug: it builds in a third of the time of an optimised build, and GCC's
# optimised UBSan build has a false report on thread_local variables (see
# the top-level CMakeLists.txt). Only the test programs of the target
# sanitized_tests are built (tests/CMakeLists.txt: the executor, the trace,
# the file readers and the models, without the command line), and their
# `cpu` and `trace` tests run. Any report fails its test: ASan, its leak checker and UBSan stop
# the process with exit code 1, which no test expects. The sweeps run over a
# sample of their radii there (tests/test_support.hpp); the ordinary build
# runs them whole. detect_stack_use_after_return stays off: it gives every fiber
# (every simulated CUDA thread) a fake stack of its own, mapped and unmapped
# per block, and triples the run.
asan="$root/build-asan"
# shellcheck disable=SC2046
cmake $(generator "$asan") -S "$root" -B "$asan" -DCMAKE_BUILD_TYPE=Debug -DTILESCOPE_SANITIZE=ON \
  -DTILESCOPE_CUDA=OFF -DTILESCOPE_APP=OFF -DTILESCOPE_BENCH=OFF
cmake --build "$asan" --target sanitized_tests -j "$jobs"
step_done "sanitizer build"
(
  cd "$asan"
  export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=0"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  ctest -L "cpu|trace" --output-on-failure -j "$jobs"
)
step_done "sanitizer tests"

# --- Fuzzing the file readers and the kernel-file translator -----------------
fuzz_seconds="${FUZZ_SECONDS:-10}"
clangxx="$(command -v clang++-14 || command -v clang++ || true)"
if [ "$fuzz_seconds" -eq 0 ]; then
  echo "Fuzzers skipped (FUZZ_SECONDS=0)"
elif [ -z "$clangxx" ]; then
  echo "Fuzzers skipped: no clang++ (they need libFuzzer; install clang-14 and libclang-rt-14-dev)"
else
  fuzz="$root/build-fuzz"
  # shellcheck disable=SC2046
  # -O1, as libFuzzer's documentation builds its targets: half the compile
  # time of -O3, for a run of seconds.
  CXX="$clangxx" cmake $(generator "$fuzz") -S "$root" -B "$fuzz" -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_FUZZ=ON \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DTILESCOPE_TESTS=OFF -DTILESCOPE_APP=OFF -DTILESCOPE_CUDA=OFF -DTILESCOPE_BENCH=OFF
  cmake --build "$fuzz" --target fuzzers -j "$jobs"
  step_done "fuzzers' build"
  runs="$fuzz/runs"
  rm -rf "$runs"
  # Each target grows a scratch corpus from the committed seeds (left as they
  # are). A crash, a sanitizer report, a broken promise (an abort in the
  # target), an input slower than 60 s or over 3 GB of memory ends the
  # target's run with a non-zero status and the input saved as crash-*,
  # timeout-* or oom-* beside its log.
  fuzz_one() {
    local name="$1" out="$runs/$1" dict=() seeds=("$root/tests/fuzz/corpus/$1")
    mkdir -p "$out/corpus"
    [ -f "$root/tests/fuzz/$name.dict" ] && dict=("-dict=$root/tests/fuzz/$name.dict")
    # The translator's seeds are the project's own kernel files, where they are.
    [ "$name" = kernel ] && seeds=("$root/tests/own/good" "$root/tests/own/broken" "$root/assets/exercises")
    local status=0
    "$fuzz/tests/fuzz/fuzz_$name" "$out/corpus" "${seeds[@]}" "${dict[@]}" \
      -max_total_time="$fuzz_seconds" -timeout=60 -rss_limit_mb=3072 -print_final_stats=1 \
      -artifact_prefix="$out/" >"$out/log" 2>&1 || status=$?
    echo "$status" >"$out/status"
  }
  # One target per core at a time. fuzz_kernel (the kernel-file translator)
  # is built only where libclang is found (tests/fuzz/CMakeLists.txt).
  targets=(npy pnm mask input)
  if [ -x "$fuzz/tests/fuzz/fuzz_kernel" ]; then
    targets+=(kernel)
  else
    echo "fuzz_kernel skipped: no libclang in the fuzz build"
  fi
  # The reader of the kernel's process's answer, where kernel files are built.
  if [ -x "$fuzz/tests/fuzz/fuzz_worker_result" ]; then
    targets+=(worker_result)
  else
    echo "fuzz_worker_result skipped: no kernel-file support in the fuzz build"
  fi
  for name in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
    fuzz_one "$name" &
  done
  wait
  failed=0
  for name in "${targets[@]}"; do
    out="$runs/$name"
    stats="$(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$out/log" |
      sed 's/^stat:://; s/: */=/' | tr '\n' ' ' || true)"
    cov="$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$out/log" | tail -1 || true)"
    if [ "$(cat "$out/status")" -eq 0 ]; then
      echo "fuzz_$name: ok, ${fuzz_seconds} s: $stats $cov"
    else
      failed=1
      echo "fuzz_$name: FAILED (status $(cat "$out/status")); the input that failed:" \
        "$(ls "$out"/crash-* "$out"/timeout-* "$out"/oom-* "$out"/leak-* 2>/dev/null | tr '\n' ' ')"
      grep -E -A40 'ERROR|broken promise|runtime error' "$out/log" | head -60 || true
      # The inputs are small (libFuzzer's default limit is 4 KB): in base64
      # they survive a CI log, to be pasted into `base64 -d > input`.
      for f in "$out"/crash-* "$out"/timeout-* "$out"/oom-* "$out"/leak-*; do
        [ -f "$f" ] && { echo "base64 of $(basename "$f"):"; base64 -w 0 "$f"; echo; }
      done
      # A crash libFuzzer could not catch (no crash-* file) leaves the input
      # in the target's scratch directory, which the log names.
      if ! ls "$out"/crash-* "$out"/timeout-* "$out"/oom-* "$out"/leak-* >/dev/null 2>&1; then
        scratch="$(sed -n 's/^fuzz: each input is written into \(.*\) before it is read$/\1/p' "$out/log" | tail -1)"
        for f in "$scratch"/input*; do
          [ -f "$f" ] && { echo "base64 of the last input, $f:"; base64 -w 0 "$f"; echo; }
        done
      fi
      echo "reproduce: $fuzz/tests/fuzz/fuzz_$name <that file>"
    fi
  done
  ((failed == 0)) || exit 1
  step_done "fuzzing"
fi

# --- The browser version, in a real browser ----------------------------------
# Compiled and linked at -O1 here: the same code as the page `web` builds, in
# a twentieth of the link's time (app/web/CMakeLists.txt) and two thirds of
# the compile's.
WEB_BUILD_DIR="${WEB_BUILD_DIR:-$root/build-web-test}" build_web -DTILESCOPE_WEB_QUICK_LINK=ON \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG"
step_done "browser build"
/usr/bin/python3 "$root/tests/web/page_test.py" --web "${WEB_BUILD_DIR:-$root/build-web-test}/web"
step_done "browser test"
# The same page served by `tilescope serve`, with students' kernel files
# (skipped, exit 77, where the program was built without cpp-httplib).
status=0
/usr/bin/python3 "$root/tests/web/served_page_test.py" --tilescope "$build/app/tilescope" \
  --web "${WEB_BUILD_DIR:-$root/build-web-test}/web" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
  exit "$status"
fi
step_done "served page test"
# The teacher's page following a lab of 30 simulated students, live.
status=0
/usr/bin/python3 "$root/tests/web/class_page_test.py" --tilescope "$build/app/tilescope" \
  --web "${WEB_BUILD_DIR:-$root/build-web-test}/web" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
  exit "$status"
fi
step_done "class page test"
