#include "gfx/shader.hpp"

#include <string>
#include <utility>

namespace tilescope::gfx {

namespace {

std::string infoLog(GLuint object, bool isProgram) {
    GLint length = 0;
    if (isProgram)
        glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
    else
        glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(length > 1 ? length : 1), '\0');
    if (isProgram)
        glGetProgramInfoLog(object, length, nullptr, log.data());
    else
        glGetShaderInfoLog(object, length, nullptr, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

// The shaders are written in GLSL 3.30 core. WebGL 2 (the browser build)
// takes GLSL ES 3.00, which differs for these shaders only in its first line
// and in wanting the precision of floats said.
std::string forThisContext(std::string_view text) {
#if defined(__EMSCRIPTEN__)
    constexpr std::string_view desktop = "#version 330 core";
    if (text.substr(0, desktop.size()) == desktop)
        return "#version 300 es\nprecision highp float;\nprecision highp int;\n" +
               std::string(text.substr(desktop.size()));
#endif
    return std::string(text);
}

Result<GLuint> compile(GLenum stage, std::string_view name) {
    const std::string_view embedded = shaderSource(name);
    if (embedded.empty())
        return Error{ExitCode::Internal, "no shader named shaders/" + std::string(name) + " was embedded"};
    const std::string text = forThisContext(embedded);
    const GLuint shader = glCreateShader(stage);
    const GLchar* source = text.data();
    const GLint length = static_cast<GLint>(text.size());
    glShaderSource(shader, 1, &source, &length);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        Error error{ExitCode::Internal,
                    "shaders/" + std::string(name) + " does not compile: " + infoLog(shader, false)};
        glDeleteShader(shader);
        return error;
    }
    return shader;
}

}  // namespace

Result<Program> Program::fromShaders(std::string_view vertexName, std::string_view fragmentName) {
    auto vertex = compile(GL_VERTEX_SHADER, vertexName);
    if (!vertex)
        return vertex.error();
    auto fragment = compile(GL_FRAGMENT_SHADER, fragmentName);
    if (!fragment) {
        glDeleteShader(*vertex);
        return fragment.error();
    }
    const GLuint program = glCreateProgram();
    glAttachShader(program, *vertex);
    glAttachShader(program, *fragment);
    glLinkProgram(program);
    // The program keeps what it needs; the shader objects can go.
    glDeleteShader(*vertex);
    glDeleteShader(*fragment);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        Error error{ExitCode::Internal, "shaders/" + std::string(vertexName) + " + " + std::string(fragmentName) +
                                            " do not link: " + infoLog(program, true)};
        glDeleteProgram(program);
        return error;
    }
    return Program(program);
}

Program::Program(Program&& other) noexcept : m_id(std::exchange(other.m_id, 0)) {}

Program& Program::operator=(Program&& other) noexcept {
    if (this != &other) {
        if (m_id)
            glDeleteProgram(m_id);
        m_id = std::exchange(other.m_id, 0);
    }
    return *this;
}

Program::~Program() {
    if (m_id)
        glDeleteProgram(m_id);
}

}  // namespace tilescope::gfx
