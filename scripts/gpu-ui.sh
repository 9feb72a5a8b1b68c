#!/usr/bin/env bash
# The app on a GPU machine that has no display, no GLFW and no OpenGL of its
# own (the H100 machine: Ubuntu 24.04 with the CUDA driver): the app built
# here with CUDA, carried there with Debian's Xvfb, Mesa, GLFW and DejaVu
# packages unpacked beside it, and its `gpu-ui` tests run under that display.
#
#   scripts/gpu-ui.sh pack     here: builds build-gpuui (CUDA and the app, no MP4
#                              export and no kernel files: they would bring FFmpeg
#                              and LLVM) and gathers .deps/gpu-ui/: the binaries,
#                              the shared libraries they need that are not the C
#                              library's (both packed in programs.tar.xz), and the
#                              .deb packages
#   scripts/gpu-ui.sh run      there (the repository root, .deps/gpu-ui and
#                              .deps/gpu-ui-big carried, the latter on an earlier
#                              call and copied to /tmp/gpu-ui-big if need be):
#                              unpacks the packages into a scratch root, starts Xvfb,
#                              runs tests/gpu_ui_test (label gpu-ui), takes the
#                              screenshots of docs/runs/gpu-ui/ and times frames
#                              drawn by Mesa and by the GPU; everything to $OUT
#
# Nothing is installed into the machine's own folders except what Xvfb looks
# for at fixed paths (xkbcomp, the keyboard data) and the DejaVu fonts, and
# only where they are absent.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="$root/.deps/gpu-ui"
cd "$root"

pack() {
  local build="$root/build-gpuui"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_CUDA=ON -DTILESCOPE_APP=ON \
    -DTILESCOPE_TESTS=ON -DTILESCOPE_BENCH=OFF -DTILESCOPE_MP4=OFF -DTILESCOPE_KERNEL_FILES=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DPython3_EXECUTABLE="$root/.venv/bin/python" > /tmp/gpu-ui-configure.log ||
    { tail -30 /tmp/gpu-ui-configure.log; exit 1; }
  cmake --build "$build" --target tilescope gpu_ui_test -j "$(nproc)" || exit 1
  rm -rf "$bundle/bin" "$bundle/lib"
  mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/debs"
  strip -o "$bundle/bin/tilescope" "$build/app/tilescope"
  strip -o "$bundle/bin/gpu_ui_test" "$build/tests/gpu_ui_test"
  # The libraries the binaries load, but not the C library's own, the C++
  # runtime (the GPU machine's g++ 13 is newer) or the driver's libcuda.
  ldd "$bundle/bin/tilescope" "$bundle/bin/gpu_ui_test" | awk '/=>/ {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|libcuda|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
  (cd "$bundle/debs" && apt-get download xvfb xserver-common x11-xkb-utils xkb-data libxfont2 libfontenc1 \
    libxkbfile1 libpixman-1-0 libunwind8 libaudit1 libgl1-mesa-dri libglx-mesa0 libglapi-mesa libllvm15 libz3-4 \
    libedit2 libelf1 libsensors5 libpciaccess0 libdrm2 libdrm-amdgpu1 libdrm-intel1 libdrm-nouveau2 \
    libdrm-radeon1 libxcb-dri2-0 libxcb-dri3-0 libxcb-present0 libxcb-sync1 libxcb-glx0 libxcb-randr0 \
    libxcb-xfixes0 libxcb-shm0 libxshmfence1 libxxf86vm1 libx11-xcb1 libwayland-client0 libvulkan1 libgl1 \
    libglx0 libglvnd0 libopengl0 libegl1 libglfw3 libxkbcommon0 libxrandr2 libxinerama1 libxcursor1 libxi6 \
    libxfixes3 libxrender1 libfreetype6 libpng16-16 libbrotli1 libbsd0 libmd0 libxau6 libxdmcp6 \
    fonts-dejavu-core > /dev/null 2>&1)
  # Packed small enough to travel with the packages (64 MiB in all).
  tar -C "$bundle" -cf - bin lib | xz -T0 -6 > "$bundle/programs.tar.xz" && rm -rf "$bundle/bin" "$bundle/lib"
  # The three largest packages (LLVM, Z3, Mesa's drivers) in a folder of their
  # own, to travel on an earlier call when one call cannot carry everything.
  mkdir -p "$bundle-big"
  mv "$bundle"/debs/libllvm15_* "$bundle"/debs/libz3-4_* "$bundle"/debs/libgl1-mesa-dri_* "$bundle-big/"
  du -sh "$bundle"/* "$bundle-big"
}

run() {
  local out="${OUT:-$root/gpu-ui-out}" scratch=/tmp/gpu-ui-root programs=/tmp/gpu-ui-programs
  mkdir -p "$out" "$scratch" "$programs"
  # The packages: .deps/gpu-ui/debs, .deps/gpu-ui-big, or a copy of the
  # latter that an earlier call left in /tmp/gpu-ui-big.
  for deb in "$bundle"/debs/*.deb "$bundle"-big/*.deb /tmp/gpu-ui-big/*.deb; do
    [ -f "$deb" ] && dpkg -x "$deb" "$scratch"
  done
  xz -dc "$bundle/programs.tar.xz" | tar -C "$programs" -xf -
  # What Xvfb and the app look for at fixed paths.
  [ -x /usr/bin/xkbcomp ] || cp "$scratch/usr/bin/xkbcomp" /usr/bin/
  [ -d /usr/share/X11/xkb ] || { mkdir -p /usr/share/X11 && cp -r "$scratch/usr/share/X11/xkb" /usr/share/X11/; }
  [ -d /usr/share/fonts/truetype/dejavu ] ||
    { mkdir -p /usr/share/fonts/truetype && cp -r "$scratch/usr/share/fonts/truetype/dejavu" /usr/share/fonts/truetype/; }
  export LD_LIBRARY_PATH="$scratch/usr/lib/x86_64-linux-gnu:$programs/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
  export LIBGL_DRIVERS_PATH="$scratch/usr/lib/x86_64-linux-gnu/dri"
  export TILESCOPE_BINARY="$programs/bin/tilescope"
  "$scratch/usr/bin/Xvfb" :7 -screen 0 1920x1080x24 -nolisten tcp > "$out/xvfb.log" 2>&1 &
  local xvfb=$!
  export DISPLAY=:7
  sleep 2
  {
    echo "== the machine"
    nvidia-smi -L
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    echo "== gpu-ui tests ($(date -u +%FT%TZ))"
  } > "$out/gpu-ui.log" 2>&1
  local shots="$out/shots"
  TILESCOPE_GPU_UI_SHOTS="$shots" "$programs/bin/gpu_ui_test" >> "$out/gpu-ui.log" 2>&1
  local status=$?
  echo "gpu_ui_test exit $status" >> "$out/gpu-ui.log"
  # The default demo with every panel, on the GPU, in lecture mode; and the
  # frame times of every panel drawn by Mesa (llvmpipe) and by the GPU.
  {
    echo "== screenshots and frame times"
    "$TILESCOPE_BINARY" screenshot --backend cuda --panels setup,result,device,help,grid,threads,shared,output,source,counts,hardware,problems,charts --lecture --size 1920x1080 \
      --out "$shots/gpu-every-panel-lecture.png"
    "$TILESCOPE_BINARY" ui-bench --backend cuda --panels setup,result,device,help,grid,threads,shared,output,source,counts,hardware,problems,charts --size 1600x900 --frames 200
    __GLX_VENDOR_LIBRARY_NAME=nvidia "$TILESCOPE_BINARY" ui-bench --backend cuda --panels setup,result,device,help,grid,threads,shared,output,source,counts,hardware,problems,charts --size 1600x900 \
      --frames 200
  } >> "$out/gpu-ui.log" 2>&1
  kill "$xvfb" 2>/dev/null
  cat "$out/gpu-ui.log"
  return $status
}

case "${1:-}" in
  pack) pack ;;
  run) run ;;
  *) echo "usage: scripts/gpu-ui.sh pack|run" >&2; exit 2 ;;
esac
