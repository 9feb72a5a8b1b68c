#!/usr/bin/env bash
# Sets up TileScope on a fresh Debian (12 or later) machine and then either
# opens the app on its built-in demo or runs the whole test suite.
#
#   scripts/bootstrap.sh app    install what is missing, build, open the app
#   scripts/bootstrap.sh test   install what is missing, build, run every test
#
# Environment: BUILD_DIR (default build), TILESCOPE_CUDA (AUTO, ON, OFF),
# JOBS (default: the number of cores).
set -euo pipefail

mode="${1:-app}"
case "$mode" in
  app|test) ;;
  *) echo "usage: $0 app|test" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-$(nproc)}"

# --- Debian packages -------------------------------------------------------
packages=(
  cmake g++ make pkg-config git python3 python3-venv python3-pip
  libglfw3-dev libimgui-dev libstb-dev libfreetype-dev fonts-dejavu-core
  libcli11-dev nlohmann-json3-dev libgtest-dev libboost-context-dev
  libgl-dev libgl1-mesa-dri xvfb xauth
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- glad2, the OpenGL loader generator, from PyPI into a private venv -----
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import glad" 2>/dev/null; then
  echo "Installing the glad2 generator into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "glad2==2.0.8"
fi

# --- Build -----------------------------------------------------------------
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DPython3_EXECUTABLE="$venv/bin/python" \
  -DTILESCOPE_CUDA="${TILESCOPE_CUDA:-AUTO}"
cmake --build "$build" -j "$jobs"

if [ "$mode" = app ]; then
  exec "$build/app/tilescope"
fi

# --- Tests: every test, the GUI ones on a virtual display -------------------
cd "$build"
xvfb-run -a -s "-screen 0 1920x1080x24" ctest --output-on-failure -j "$jobs"
