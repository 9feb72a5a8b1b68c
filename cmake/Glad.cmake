# The OpenGL loader of the app, generated at build time by glad 2.
#
# glad is a Python package (`pip install glad2`), not a Debian package, so the
# loader is generated into the build folder rather than kept in the tree: the
# repository holds no third-party code. `--reproducible` makes glad use the
# Khronos XML it ships with instead of downloading the latest, so the build
# works offline and gives the same loader every time. Only OpenGL 3.3 core is
# asked for, with no extensions: that is all the app calls.
#
# Defines the static library `glad_gl` (include <glad/gl.h>, call gladLoadGL).
# Point CMake at the Python that has glad with -DPython3_EXECUTABLE=...

find_package(Python3 COMPONENTS Interpreter REQUIRED)

execute_process(
  COMMAND "${Python3_EXECUTABLE}" -c "import glad"
  RESULT_VARIABLE _tilescope_glad_import
  OUTPUT_QUIET ERROR_QUIET)
if(NOT _tilescope_glad_import EQUAL 0)
  message(FATAL_ERROR
    "The app needs the glad 2 OpenGL loader generator, which ${Python3_EXECUTABLE} cannot import.\n"
    "Install it, for example in a virtual environment:\n"
    "  python3 -m venv .venv && .venv/bin/pip install glad2\n"
    "then configure with -DPython3_EXECUTABLE=$PWD/.venv/bin/python (or pip install glad2 for the Python "
    "CMake found), or configure with -DTILESCOPE_APP=OFF to build without the app.")
endif()

enable_language(C)

set(TILESCOPE_GLAD_DIR "${CMAKE_BINARY_DIR}/glad")
# The generated code's licence notice goes beside ImGui's and ImPlot's
# (build/licenses/, installed to share/doc/tilescope).
add_custom_command(
  OUTPUT "${TILESCOPE_GLAD_DIR}/src/gl.c" "${TILESCOPE_GLAD_DIR}/include/glad/gl.h"
         "${TILESCOPE_GLAD_DIR}/include/KHR/khrplatform.h" "${CMAKE_BINARY_DIR}/licenses/glad-LICENSE.txt"
  COMMAND "${Python3_EXECUTABLE}" -m glad --quiet --reproducible --api gl:core=3.3 --extensions=
          --out-path "${TILESCOPE_GLAD_DIR}" c
  COMMAND "${CMAKE_COMMAND}" "-DGLAD_DIR=${TILESCOPE_GLAD_DIR}"
          "-DOUTPUT=${CMAKE_BINARY_DIR}/licenses/glad-LICENSE.txt" -P "${PROJECT_SOURCE_DIR}/cmake/GladLicense.cmake"
  DEPENDS "${PROJECT_SOURCE_DIR}/cmake/GladLicense.cmake"
  COMMENT "Generating the OpenGL 3.3 core loader with glad"
  VERBATIM)

add_library(glad_gl STATIC "${TILESCOPE_GLAD_DIR}/src/gl.c")
# SYSTEM: the generated header is not ours to keep warning-free.
target_include_directories(glad_gl SYSTEM PUBLIC "${TILESCOPE_GLAD_DIR}/include")
target_link_libraries(glad_gl PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(glad_gl PROPERTIES POSITION_INDEPENDENT_CODE ON)
