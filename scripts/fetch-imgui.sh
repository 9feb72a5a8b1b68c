#!/usr/bin/env bash
# Fetches the app's Dear ImGui (1.93.0, docking branch), ImPlot (1.1) and
# ImGuiColorTextEdit (Johan Goossens' maintained fork, the Editor panel's
# text editor) from one pinned, hash-checked source: the imgui-bundle 1.93.0
# source archive on PyPI, which carries all three, each with its licence.
# Only those folders are kept, in .deps/imgui, .deps/implot and
# .deps/imgui-color-text-edit (its TextEditor.{h,cpp} and LICENSE); CMake
# builds them into one static library (cmake/Imgui.cmake, tilescope_imgui).
#
#   scripts/fetch-imgui.sh                 fetch, check, extract (nothing to do when already there)
#   TILESCOPE_IMGUI_ARCHIVE=FILE scripts/fetch-imgui.sh
#                                          use an archive already downloaded (offline machines);
#                                          its hash is checked all the same
#
# The archive is found through PyPI's simple index (PEP 691), the index pip
# reads. `pip download --no-binary :all:` would fetch the same file, but it
# first installs the bundle's whole build system to read the archive's
# metadata, for a file that is only unpacked here.
set -euo pipefail

version="1.93.0"
archive_name="imgui_bundle-${version}.tar.gz"
sha256="10ad1dab8258a6787b4f07bb926b08d0efc648a7906242568c8dd778c5e719bf"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps="$root/.deps"
stamp="$deps/imgui-bundle.stamp"
# The stamp names what is kept: a .deps made by an older script (without the
# text editor) does not match, and is unpacked again.
want="imgui-bundle $version sha256 $sha256 kept: imgui implot ImGuiColorTextEdit"

# The stamp is written last: an extraction cut short is redone.
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
  [ -f "$deps/imgui/imgui.h" ] && [ -f "$deps/imgui/LICENSE.txt" ] &&
  [ -f "$deps/implot/implot.h" ] && [ -f "$deps/implot/LICENSE" ] &&
  [ -f "$deps/imgui-color-text-edit/TextEditor.cpp" ] && [ -f "$deps/imgui-color-text-edit/LICENSE" ]; then
  echo "Dear ImGui, ImPlot and ImGuiColorTextEdit: already in $deps (imgui-bundle $version)"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -n "${TILESCOPE_IMGUI_ARCHIVE:-}" ]; then
  cp "$TILESCOPE_IMGUI_ARCHIVE" "$work/$archive_name"
else
  echo "Fetching $archive_name from PyPI"
  url="$(python3 - "$archive_name" <<'EOF'
import json, sys, urllib.request
name = sys.argv[1]
request = urllib.request.Request("https://pypi.org/simple/imgui-bundle/",
                                 headers={"Accept": "application/vnd.pypi.simple.v1+json"})
with urllib.request.urlopen(request, timeout=60) as response:
    files = json.load(response)["files"]
urls = [f["url"] for f in files if f["filename"] == name]
if not urls:
    sys.exit(f"{name} is not on PyPI's index")
print(urls[0])
EOF
)"
  python3 - "$url" "$work/$archive_name" <<'EOF'
import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=300) as response, open(sys.argv[2], "wb") as out:
    shutil.copyfileobj(response, out)
EOF
fi

got="$(sha256sum "$work/$archive_name" | cut -d' ' -f1)"
if [ "$got" != "$sha256" ]; then
  echo "fetch-imgui: $archive_name has sha256 $got, expected $sha256; nothing extracted" >&2
  exit 1
fi

top="imgui_bundle-$version/external"
tar -xzf "$work/$archive_name" -C "$work" \
  --exclude="$top/imgui/imgui/examples" --exclude="$top/imgui/imgui/docs" \
  --exclude="$top/implot/implot/example" \
  "$top/imgui/imgui" "$top/implot/implot"
# The text editor: its two sources and its licence (the rest of its folder is
# its example application, its diff widget and their fonts).
editor="$top/ImGuiColorTextEdit/ImGuiColorTextEdit"
tar -xzf "$work/$archive_name" -C "$work" "$editor/TextEditor.h" "$editor/TextEditor.cpp" "$editor/LICENSE"
mkdir -p "$deps"
rm -rf "$deps/imgui" "$deps/implot" "$deps/imgui-color-text-edit" "$stamp"
mv "$work/$top/imgui/imgui" "$deps/imgui"
mv "$work/$top/implot/implot" "$deps/implot"
mv "$work/$editor" "$deps/imgui-color-text-edit"
echo "$want" >"$stamp"
echo "Dear ImGui $(sed -n 's/^#define IMGUI_VERSION *"\(.*\)"/\1/p' "$deps/imgui/imgui.h")," \
  "ImPlot $(sed -n 's/^#define IMPLOT_VERSION *"\(.*\)"/\1/p' "$deps/implot/implot.h") and" \
  "ImGuiColorTextEdit in $deps" \
  "(licences: imgui/LICENSE.txt, implot/LICENSE, imgui-color-text-edit/LICENSE)"
