# Run as a script at build time (cmake -P): turns the GLSL files named in
# SHADERS (relative to SHADER_DIR) into one C++ source, OUT, that defines the
# table gfx::shaderSource() looks names up in. The shaders stay plain .vert
# and .frag files under shaders/, and the binary needs no files at run time.
#
# Each file becomes a raw string literal; the delimiter cannot appear in GLSL.

set(_body "")
foreach(_name IN LISTS SHADERS)
  file(READ "${SHADER_DIR}/${_name}" _text)
  string(FIND "${_text}" ")tilescope_glsl\"" _clash)
  if(NOT _clash EQUAL -1)
    message(FATAL_ERROR "${_name} contains the raw-string delimiter )tilescope_glsl\"")
  endif()
  string(APPEND _body "    {\"${_name}\", R\"tilescope_glsl(${_text})tilescope_glsl\"},\n")
endforeach()

set(_source "// Generated from shaders/ by app/gfx/embed_shaders.cmake: do not edit.
#include \"gfx/shader.hpp\"

namespace tilescope::gfx {

namespace {
struct EmbeddedShader {
    std::string_view name;
    std::string_view text;
};
constexpr EmbeddedShader kShaders[] = {
${_body}};
}  // namespace

std::string_view shaderSource(std::string_view name) {
    for (const EmbeddedShader& s : kShaders)
        if (s.name == name) return s.text;
    return {};
}

}  // namespace tilescope::gfx
")

# Rewrite only when the text changed, so that an unchanged shader set does not
# recompile anything.
if(EXISTS "${OUT}")
  file(READ "${OUT}" _old)
  if(_old STREQUAL _source)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${_source}")
