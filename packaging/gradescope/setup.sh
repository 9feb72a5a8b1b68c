#!/usr/bin/env bash
# Gradescope runs this once, when the autograder is built, on its Ubuntu
# image: installs what TileScope needs to build and to compile students'
# kernel files, builds the command line (no app, no CUDA) from the source in
# the zip, and installs it to /usr/local.
#
# Choose the Ubuntu 24.04 base image in the autograder's settings: the build
# needs toml++ (libtomlplusplus-dev), which Ubuntu 22.04 and older do not
# package, and CMake 3.25 or later. docs/grading.md lists the versions.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# OS_RELEASE: another os-release file, as the tests give it.
# shellcheck source=/dev/null
. "${OS_RELEASE:-/etc/os-release}"
case "${ID:-}:${VERSION_ID:-}" in
  ubuntu:2[4-9].* | debian:1[2-9]) ;;
  *) echo "setup.sh: this image is ${PRETTY_NAME:-unknown}; TileScope builds on Ubuntu 24.04 (or Debian 12) and" \
          "later, which package toml++: choose Ubuntu 24.04 as the autograder's base image" >&2
     exit 1 ;;
esac
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  cmake g++ make pkg-config python3 \
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libclang-dev libboost-context-dev \
  libseccomp-dev bubblewrap libsqlite3-dev libstb-dev
src="$here/tilescope-src"
mkdir -p "$src"
tar -xzf "$here/tilescope-src.tar.gz" -C "$src"
cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_APP=OFF -DTILESCOPE_CUDA=OFF \
  -DTILESCOPE_BENCH=OFF -DTILESCOPE_TESTS=OFF -DCMAKE_INSTALL_PREFIX=/usr/local
cmake --build "$src/build" -j "$(nproc)" --target tilescope tilescope-worker
install -m 755 "$src/build/app/tilescope" "$src/build/tilescope-worker" /usr/local/bin/
tilescope grade --help > /dev/null
