#!/usr/bin/env bash
# Gradescope runs this once, when the autograder is built, on its Ubuntu
# image: installs what TileScope needs to build and to compile students'
# kernel files, builds the command line (no app, no CUDA) from the source in
# the zip, and installs it to /usr/local.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  cmake g++ make pkg-config python3 \
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libclang-dev libboost-context-dev \
  libseccomp-dev bubblewrap libsqlite3-dev
src="$here/tilescope-src"
mkdir -p "$src"
tar -xzf "$here/tilescope-src.tar.gz" -C "$src"
cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_APP=OFF -DTILESCOPE_CUDA=OFF \
  -DTILESCOPE_BENCH=OFF -DTILESCOPE_TESTS=OFF -DCMAKE_INSTALL_PREFIX=/usr/local
cmake --build "$src/build" -j "$(nproc)" --target tilescope tilescope-worker
install -m 755 "$src/build/app/tilescope" "$src/build/tilescope-worker" /usr/local/bin/
tilescope grade --help > /dev/null
