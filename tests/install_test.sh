#!/usr/bin/env bash
# The program as installed, away from the source and build trees.
#
#   install_test.sh prefix SOURCE BUILD   cmake --install into a temporary prefix, moved
#                                         elsewhere: its files, and its program runs the demo
#   install_test.sh deb SOURCE BUILD      cpack -G DEB: the package's fields and files, and
#                                         its program, unpacked, runs the demo
#
# The build tree cannot be deleted while ctest runs in it, so the test makes
# sure the program has no way to reach it: the binaries hold no path into the
# source tree's assets/ or into the build tree (the built-in inputs and the
# lessons are embedded), the installed copy is moved from where it was
# installed, and it runs from a folder of its own with a bare environment.
# Exit 77 (skipped) when there is no X display for the app's part.
set -euo pipefail

mode="$1"
source="$(cd "$2" && pwd)"
build="$(cd "$3" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tilescope-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/elsewhere" "$work/home"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The program of a prefix, run as a user would: from another folder, with
# only HOME, the system's PATH and the X display.
run_installed() {
  local prefix="$1"
  shift
  (cd "$work/elsewhere" &&
    env -i HOME="$work/home" PATH=/usr/bin:/bin ${DISPLAY:+DISPLAY="$DISPLAY"} \
      ${XAUTHORITY:+XAUTHORITY="$XAUTHORITY"} "$prefix/bin/tilescope" "$@")
}

check_no_tree_paths() {
  local binary="$1" found
  found="$(strings -n 6 "$binary" | grep -F -e "$source/assets" -e "$build/" || true)"
  [ -z "$found" ] || fail "$binary names the source or build tree: $found"
}

# What every installed copy must do, wherever it lies.
check_prefix() {
  local prefix="$1"
  for f in bin/tilescope bin/tilescope-worker share/applications/tilescope.desktop \
    share/icons/hicolor/scalable/apps/tilescope.svg share/tilescope/exercises/exercise_08.cu \
    share/tilescope/exercises/exercise_09.cu share/tilescope/exercises/exercise_10.cu \
    share/tilescope/exercises/warmup_1d.cu share/doc/tilescope/imgui-LICENSE.txt \
    share/doc/tilescope/implot-LICENSE.txt share/doc/tilescope/glad-LICENSE.txt; do
    [ -s "$prefix/$f" ] || fail "$f is not installed"
  done
  [ -x "$prefix/bin/tilescope" ] || fail "bin/tilescope is not executable"
  local stray
  stray="$(find "$prefix" -name '*.lesson' -o -name '*.pgm' -o -name '*.npy')"
  [ -z "$stray" ] || fail "files that the binary carries are installed too: $stray"
  check_no_tree_paths "$prefix/bin/tilescope"
  check_no_tree_paths "$prefix/bin/tilescope-worker"

  local entry="$prefix/share/applications/tilescope.desktop"
  for line in "Type=Application" "Name=TileScope" "Exec=tilescope" "Icon=tilescope" \
    "Categories=Education;Development;"; do
    grep -qxF "$line" "$entry" || fail "the desktop entry has no '$line'"
  done
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$entry" || fail "desktop-file-validate refuses $entry"
  fi

  # The lessons come from the binary.
  local lessons
  lessons="$(run_installed "$prefix" lesson --list)" || fail "lesson --list: exit $?"
  grep -q "^1d-convolution " <<<"$lessons" || fail "lesson --list: no 1d-convolution: $lessons"
  grep -q "^2d-convolution " <<<"$lessons" || fail "lesson --list: no 2d-convolution: $lessons"

  # A student's kernel runs in the installed worker, found beside the program.
  local checked
  checked="$(run_installed "$prefix" check --kernel-file "$source/tests/own/good/conv2d_tiled_student.cu" \
    --size 64x48 --radius 1 2>&1)" || fail "check --kernel-file: $checked"
  grep -q "no problems" <<<"$checked" || fail "check --kernel-file: $checked"

  # The app on its built-in demo (the photograph, embedded).
  if [ -z "${DISPLAY:-}" ]; then
    echo "no X display: the demo's screenshot is skipped (run under xvfb-run)"
    exit 77
  fi
  run_installed "$prefix" screenshot --out "$work/elsewhere/demo.png" --layout "$work/elsewhere/demo.json" ||
    fail "screenshot of the demo: exit $?"
  [ -s "$work/elsewhere/demo.png" ] || fail "the screenshot wrote no PNG"
  python3 - "$work/elsewhere/demo.json" <<'EOF' || fail "the demo did not run"
import json, sys
items = {i["name"]: i["text"] for i in json.load(open(sys.argv[1]))["items"]}
status = items.get("result.status", "")
print("demo:", status)
sys.exit(0 if "Largest difference from the double-precision reference" in status else 1)
EOF
}

case "$mode" in
  prefix)
    cmake --install "$build" --prefix "$work/installed" >/dev/null
    # Moved from where it was installed: nothing may depend on the prefix.
    mv "$work/installed" "$work/moved"
    check_prefix "$work/moved"
    ;;
  deb)
    cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/package" >/dev/null
    deb="$(find "$work/package" -maxdepth 1 -name 'tilescope_*.deb')"
    [ -n "$deb" ] || fail "cpack made no tilescope_*.deb"
    echo "package: $(basename "$deb")"
    dpkg-deb -f "$deb" Package Version Architecture Maintainer Section Depends
    [ "$(dpkg-deb -f "$deb" Package)" = tilescope ] || fail "the package is not named tilescope"
    [ "$(dpkg-deb -f "$deb" Section)" = education ] || fail "the package's section is not education"
    [ -n "$(dpkg-deb -f "$deb" Maintainer)" ] || fail "the package has no maintainer"
    depends="$(dpkg-deb -f "$deb" Depends)"
    for d in libc6 libstdc++6 libglfw3 libgl1 fonts-dejavu-core; do
      grep -q "\b$d\b" <<<"$depends" || fail "Depends lacks $d: $depends"
    done
    listing="$(dpkg-deb -c "$deb" | awk '{print $NF}')"
    for f in ./usr/bin/tilescope ./usr/bin/tilescope-worker ./usr/share/applications/tilescope.desktop \
      ./usr/share/icons/hicolor/scalable/apps/tilescope.svg ./usr/share/tilescope/exercises/exercise_08.cu \
      ./usr/share/doc/tilescope/imgui-LICENSE.txt; do
      grep -qxF "$f" <<<"$listing" || fail "the package lacks $f"
    done
    dpkg-deb -x "$deb" "$work/root"
    check_prefix "$work/root/usr"
    ;;
  *)
    echo "usage: $0 prefix|deb SOURCE BUILD" >&2
    exit 2
    ;;
esac
echo "ok"
