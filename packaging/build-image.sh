#!/usr/bin/env bash
# Builds a container image from the .deb that cpack makes of a build folder:
#   packaging/build-image.sh serve|prairielearn BUILD_DIR [TAG] [WEB_DIR]
# serve: the server (packaging/serve/Containerfile); prairielearn: the
# external grader (packaging/prairielearn/Containerfile). WEB_DIR (serve
# only): a web build (build-web/web) to serve. PODMAN (default podman) and
# PODMAN_BUILD_ARGS (extra arguments, e.g. --build-arg BASE=...) may be set.
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 4 ]; then
  echo "usage: $0 serve|prairielearn BUILD_DIR [TAG] [WEB_DIR]" >&2
  exit 2
fi
kind="$1"
build="$(realpath "$2")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "$kind" in
  serve) tag="${3:-tilescope-serve}" ;;
  prairielearn) tag="${3:-tilescope-grader}" ;;
  *) echo "$0: $kind: give serve or prairielearn" >&2; exit 2 ;;
esac
web="${4:-}"
[ -f "$build/CPackConfig.cmake" ] || { echo "$build: not a configured build folder (no CPackConfig.cmake)" >&2; exit 2; }
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$context/package" > "$context/cpack.log" ||
  { cat "$context/cpack.log" >&2; exit 1; }
mv "$context"/package/tilescope_*.deb "$context/"
rm -rf "$context/package" "$context/cpack.log"
cp "$here/$kind"/* "$context/"
# A CUDA build links CUDA's runtime from the toolkit (/usr/local/cuda),
# which no Debian package provides: it goes into the image beside the
# package (lib/ -> /usr/local/lib), so that the image runs with or without a GPU.
mkdir -p "$context/lib"
ldd "$build/app/tilescope" "$build/tilescope-worker" | awk '$3 ~ /^\/usr\/local\/cuda/ {print $3}' | sort -u |
  xargs -r cp -L -t "$context/lib/"
mkdir -p "$context/share"
if [ -n "$web" ]; then
  [ -f "$web/index.html" ] || { echo "$web: not a web build (no index.html)" >&2; exit 2; }
  cp -r "$web" "$context/share/web"
fi
# shellcheck disable=SC2086  # PODMAN and PODMAN_BUILD_ARGS are split into words
${PODMAN:-podman} build ${PODMAN_BUILD_ARGS:-} -f "$context/Containerfile" -t "$tag" "$context"
