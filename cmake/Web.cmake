# The browser build: the same app, compiled by Emscripten to WebAssembly.
#
#   emcmake cmake -S . -B build-web && cmake --build build-web
#   python3 -m http.server -d build-web/web      (scripts/bootstrap.sh web does both)
#
# What differs from the desktop build, and why:
#   - no CUDA, no student kernel files (no GPU and no compiler in a browser),
#     no tests or benchmarks here (tests/web/ drives the page from outside);
#   - the CPU executor's fibers are Emscripten's, switched with Asyncify;
#   - no threads: the runner, the charts' sweep and the settings' writer do
#     their work on the page's one thread, between frames (no
#     SharedArrayBuffer, so the page works from any static web host);
#   - WebGL 2 through Emscripten's GLFW and GLES 3 headers instead of glad;
#   - ImGui draws its fonts with its own rasteriser (stb_truetype) instead of
#     FreeType, from DejaVu files embedded in the page's data;
#   - no GIF or MP4 export (giflib and FFmpeg are system libraries with no
#     WebAssembly build in Debian): PNG frames and SVG, downloaded.
# Header-only libraries come from the same Debian packages as the desktop's
# (nlohmann-json, libstb-dev), linked into the build folder so that the
# system's other headers stay out of the WebAssembly build's search path.

foreach(option IN ITEMS TILESCOPE_TESTS TILESCOPE_BENCH TILESCOPE_SANITIZE TILESCOPE_FUZZ TILESCOPE_MP4
                        TILESCOPE_KERNEL_FILES)
  set(${option} OFF CACHE BOOL "" FORCE)
endforeach()
set(TILESCOPE_CUDA OFF CACHE STRING "" FORCE)
set(TILESCOPE_APP ON CACHE BOOL "" FORCE)

set(_webInclude "${CMAKE_BINARY_DIR}/web-include")
file(MAKE_DIRECTORY "${_webInclude}")
foreach(header_dir IN ITEMS nlohmann stb)
  find_path(_found_${header_dir} ${header_dir} PATHS /usr/include NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT _found_${header_dir})
    message(FATAL_ERROR "The browser build needs /usr/include/${header_dir} (Debian: nlohmann-json3-dev, libstb-dev)")
  endif()
  file(CREATE_LINK "${_found_${header_dir}}/${header_dir}" "${_webInclude}/${header_dir}" SYMBOLIC)
endforeach()

add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${_webInclude}")

# stb's implementations, compiled here (Debian's libstb.a is for the host).
add_library(tilescope_stb STATIC "${PROJECT_SOURCE_DIR}/app/web/stb_implementation.c")
target_include_directories(tilescope_stb SYSTEM PUBLIC "${_webInclude}/stb")
set_source_files_properties("${PROJECT_SOURCE_DIR}/app/web/stb_implementation.c" PROPERTIES COMPILE_OPTIONS "-w")
enable_language(C)

# Emscripten's own GLFW 3 (library_glfw.js: part of Emscripten, nothing is
# downloaded) as the target the desktop build gets from find_package(glfw3).
add_library(glfw INTERFACE IMPORTED GLOBAL)
target_link_options(glfw INTERFACE "SHELL:-s USE_GLFW=3" "SHELL:-s MIN_WEBGL_VERSION=2" "SHELL:-s MAX_WEBGL_VERSION=2")
