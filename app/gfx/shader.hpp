// Shader programs. The GLSL lives in shaders/ and is compiled into the binary
// at build time (embed_shaders.cmake), so the app finds its shaders wherever
// it runs; compile and link errors come back with the driver's log.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "gfx/gl.hpp"

namespace tilescope::gfx {

// The text of shaders/<name> ("colormap.frag"), or empty when there is none.
std::string_view shaderSource(std::string_view name);

class Program {
public:
    // Compiles and links shaders/<vertexName> and shaders/<fragmentName>.
    static Result<Program> fromShaders(std::string_view vertexName, std::string_view fragmentName);

    Program() = default;
    Program(Program&& other) noexcept;
    Program& operator=(Program&& other) noexcept;
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    ~Program();

    GLuint id() const { return m_id; }
    void use() const { glUseProgram(m_id); }
    GLint uniform(const char* name) const { return glGetUniformLocation(m_id, name); }

private:
    explicit Program(GLuint id) : m_id(id) {}
    GLuint m_id = 0;
};

}  // namespace tilescope::gfx
