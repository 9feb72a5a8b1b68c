# Dear ImGui 1.93.0 (docking branch) and ImPlot 1.1, built from the sources
# that scripts/fetch-imgui.sh unpacks from the pinned imgui-bundle 1.93.0
# archive into .deps/imgui and .deps/implot: ImGui's core, tables and
# widgets, std::string input fields (misc/cpp), the GLFW and OpenGL 3 backends, the FreeType font loader (against
# Debian's libfreetype-dev), ImPlot, and ImGuiColorTextEdit (.deps/imgui-color-text-edit, the
# Editor panel's text editor). The desktop app and the page need them.
#
# Their includes are SYSTEM includes: our warning flags (TILESCOPE_WARNINGS)
# are for our code, and the library itself is compiled without them.

set(TILESCOPE_IMGUI_DIR "${PROJECT_SOURCE_DIR}/.deps/imgui" CACHE PATH
    "Dear ImGui's sources (imgui.h, backends/, misc/freetype/), as scripts/fetch-imgui.sh unpacks them")
set(TILESCOPE_IMPLOT_DIR "${PROJECT_SOURCE_DIR}/.deps/implot" CACHE PATH
    "ImPlot's sources (implot.h), as scripts/fetch-imgui.sh unpacks them")
set(TILESCOPE_TEXT_EDITOR_DIR "${PROJECT_SOURCE_DIR}/.deps/imgui-color-text-edit" CACHE PATH
    "ImGuiColorTextEdit's sources (TextEditor.h), as scripts/fetch-imgui.sh unpacks them")

foreach(required IN ITEMS
        "${TILESCOPE_IMGUI_DIR}/imgui.h" "${TILESCOPE_IMGUI_DIR}/backends/imgui_impl_glfw.cpp"
        "${TILESCOPE_IMGUI_DIR}/misc/freetype/imgui_freetype.cpp" "${TILESCOPE_IMPLOT_DIR}/implot.h"
        "${TILESCOPE_TEXT_EDITOR_DIR}/TextEditor.cpp")
  if(NOT EXISTS "${required}")
    message(FATAL_ERROR
      "Dear ImGui, ImPlot or ImGuiColorTextEdit sources are missing (${required} not found).\n"
      "Run scripts/fetch-imgui.sh (scripts/bootstrap.sh runs it): it fetches the pinned imgui-bundle "
      "1.93.0 archive from PyPI, checks its hash and unpacks the three folders into .deps/. "
      "Or configure with -DTILESCOPE_APP=OFF for the command line without the app.")
  endif()
endforeach()

if(NOT EMSCRIPTEN)  # the browser build: Emscripten's GLFW, ImGui's own font rasteriser (cmake/Web.cmake)
  find_package(glfw3 3.3 REQUIRED)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(FREETYPE REQUIRED IMPORTED_TARGET freetype2)
endif()

add_library(tilescope_imgui STATIC
  ${TILESCOPE_IMGUI_DIR}/imgui.cpp
  ${TILESCOPE_IMGUI_DIR}/imgui_draw.cpp
  ${TILESCOPE_IMGUI_DIR}/imgui_tables.cpp
  ${TILESCOPE_IMGUI_DIR}/imgui_widgets.cpp
  # imgui-bundle's ImGui carries the stack-layout addition; imgui.cpp calls into it.
  ${TILESCOPE_IMGUI_DIR}/imgui_stacklayout.cpp
  ${TILESCOPE_IMGUI_DIR}/backends/imgui_impl_glfw.cpp
  ${TILESCOPE_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp
  ${TILESCOPE_IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp
  ${TILESCOPE_IMPLOT_DIR}/implot.cpp
  ${TILESCOPE_IMPLOT_DIR}/implot_items.cpp
  ${TILESCOPE_TEXT_EDITOR_DIR}/TextEditor.cpp
)
target_include_directories(tilescope_imgui SYSTEM PUBLIC
  ${TILESCOPE_IMGUI_DIR} ${TILESCOPE_IMGUI_DIR}/misc/freetype ${TILESCOPE_IMGUI_DIR}/misc/cpp ${TILESCOPE_IMPLOT_DIR}
  ${TILESCOPE_TEXT_EDITOR_DIR})
# FreeType renders every font (the app's DejaVu at the exact pixel size, with the font's own hinting).
# Everything that includes imgui.h sees the same definitions.
target_compile_definitions(tilescope_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
target_link_libraries(tilescope_imgui PUBLIC glfw PRIVATE ${CMAKE_DL_LIBS})
if(NOT EMSCRIPTEN)
  target_sources(tilescope_imgui PRIVATE ${TILESCOPE_IMGUI_DIR}/misc/freetype/imgui_freetype.cpp)
  target_compile_definitions(tilescope_imgui PUBLIC IMGUI_ENABLE_FREETYPE)
  target_link_libraries(tilescope_imgui PRIVATE PkgConfig::FREETYPE)
endif()
set_target_properties(tilescope_imgui PROPERTIES POSITION_INDEPENDENT_CODE ON)
# implot_items.cpp instantiates every plot for every numeric type: at -O2 it
# is the build's longest unit by far (183 s of a CI core, against 35 s for the
# next; 100 s at -O1). The app plots doubles and floats only, and ImPlot's
# IMPLOT_CUSTOM_NUMERIC_TYPES instantiates those two instead of ten; -O1 keeps
# it quick to draw charts of a few hundred points.
set_source_files_properties(${TILESCOPE_IMPLOT_DIR}/implot_items.cpp PROPERTIES
  COMPILE_DEFINITIONS "IMPLOT_CUSTOM_NUMERIC_TYPES=(float)(double)")
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND CMAKE_BUILD_TYPE MATCHES "Release|RelWithDebInfo")
  set_source_files_properties(${TILESCOPE_IMPLOT_DIR}/implot_items.cpp PROPERTIES COMPILE_OPTIONS -O1)
endif()

# Their licences (all MIT) travel with the built app.
configure_file("${TILESCOPE_IMGUI_DIR}/LICENSE.txt" "${CMAKE_BINARY_DIR}/licenses/imgui-LICENSE.txt" COPYONLY)
configure_file("${TILESCOPE_IMPLOT_DIR}/LICENSE" "${CMAKE_BINARY_DIR}/licenses/implot-LICENSE.txt" COPYONLY)
configure_file("${TILESCOPE_TEXT_EDITOR_DIR}/LICENSE" "${CMAKE_BINARY_DIR}/licenses/imgui-color-text-edit-LICENSE.txt"
  COPYONLY)
