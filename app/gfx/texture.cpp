#include "gfx/texture.hpp"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tilescope::gfx {

// [SECTION] Texture

namespace {
std::unordered_map<GLuint, std::uint64_t>& versions() {
    static std::unordered_map<GLuint, std::uint64_t> all;  // OpenGL calls come from one thread
    return all;
}
std::uint64_t lastVersion = 0;
}  // namespace

std::uint64_t textureVersion(GLuint id) {
    const auto at = versions().find(id);
    return at == versions().end() ? 0 : at->second;
}

void noteTextureChanged(GLuint id) {
    versions()[id] = ++lastVersion;
}

Texture::Texture(Format format, int width, int height, const void* data, GLint minFilter, GLint magFilter)
    : m_width(width), m_height(height) {
    glGenTextures(1, &m_id);
    glBindTexture(GL_TEXTURE_2D, m_id);
    // Rows of floats, or of RGBA bytes, are always 4-byte aligned; rows of
    // RGB floats too. Set it anyway: another part of the app may change it.
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, format.internalFormat, width, height, 0, format.format, format.type, data);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, minFilter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, magFilter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    noteTextureChanged(m_id);
}

void Texture::update(GLenum format, GLenum type, const void* data) {
    glBindTexture(GL_TEXTURE_2D, m_id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, m_width, m_height, format, type, data);
    noteTextureChanged(m_id);
}

Texture::Texture(Texture&& other) noexcept
    : m_id(std::exchange(other.m_id, 0)), m_width(other.m_width), m_height(other.m_height) {}

Texture& Texture::operator=(Texture&& other) noexcept {
    if (this != &other) {
        if (m_id) {
            glDeleteTextures(1, &m_id);
            versions().erase(m_id);
        }
        m_id = std::exchange(other.m_id, 0);
        m_width = other.m_width;
        m_height = other.m_height;
    }
    return *this;
}

Texture::~Texture() {
    if (m_id) {
        glDeleteTextures(1, &m_id);
        versions().erase(m_id);
    }
}

int maxTextureSize() {
    GLint size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &size);
    return size;
}

// [SECTION] ColorMapper

namespace {

Texture makeColormapTexture(ColorMap map) {
    const auto table = colormapTable(map);
    std::vector<unsigned char> rgba;
    rgba.reserve(table.size() * 4);
    for (const Rgb8& c : table)
        rgba.insert(rgba.end(), {c.r, c.g, c.b, 255});
    // Linear filtering: the shader samples between entries, as colourOfValue() does.
    return Texture({GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE}, kColormapSize, 1, rgba.data(), GL_LINEAR, GL_LINEAR);
}

}  // namespace

Result<std::unique_ptr<ColorMapper>> ColorMapper::create() {
    auto program = Program::fromShaders("colormap.vert", "colormap.frag");
    if (!program)
        return program.error();
    std::unique_ptr<ColorMapper> mapper(new ColorMapper);
    mapper->m_program = std::move(*program);
    mapper->m_sequential = makeColormapTexture(ColorMap::Sequential);
    mapper->m_diverging = makeColormapTexture(ColorMap::Diverging);
    glGenVertexArrays(1, &mapper->m_vertexArray);
    glGenFramebuffers(1, &mapper->m_framebuffer);
    const Program& p = mapper->m_program;
    mapper->m_uValues = p.uniform("u_values");
    mapper->m_uColormap = p.uniform("u_colormap");
    mapper->m_uLow = p.uniform("u_low");
    mapper->m_uHigh = p.uniform("u_high");
    mapper->m_uRgb = p.uniform("u_rgb");
    return mapper;
}

ColorMapper::~ColorMapper() {
    if (m_vertexArray)
        glDeleteVertexArrays(1, &m_vertexArray);
    if (m_framebuffer)
        glDeleteFramebuffers(1, &m_framebuffer);
}

void ColorMapper::render(const Texture& values, bool rgb, ColorMap map, float low, float high, const Texture& target,
                         bool mipmaps) {
    GLint previousFramebuffer = 0;
    GLint previousViewport[4] = {};
    GLint previousProgram = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previousFramebuffer);
    glGetIntegerv(GL_VIEWPORT, previousViewport);
    glGetIntegerv(GL_CURRENT_PROGRAM, &previousProgram);

    glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target.id(), 0);
    glViewport(0, 0, target.width(), target.height());
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);

    m_program.use();
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, values.id());
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, colormapTexture(map).id());
    glUniform1i(m_uValues, 0);
    glUniform1i(m_uColormap, 1);
    glUniform1f(m_uLow, low);
    glUniform1f(m_uHigh, high);
    glUniform1i(m_uRgb, rgb ? 1 : 0);
    glBindVertexArray(m_vertexArray);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glActiveTexture(GL_TEXTURE0);

    if (mipmaps) {
        glBindTexture(GL_TEXTURE_2D, target.id());
        glGenerateMipmap(GL_TEXTURE_2D);
    }

    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previousFramebuffer));
    glViewport(previousViewport[0], previousViewport[1], previousViewport[2], previousViewport[3]);
    glUseProgram(static_cast<GLuint>(previousProgram));
    noteTextureChanged(target.id());
}

// [SECTION] ColorMappedImage

Status ColorMappedImage::setData(int width, int height, int channels, const float* data) {
    if (width <= 0 || height <= 0) {
        clear();
        return success();
    }
    if (channels != 1 && channels != 3)
        return Error{ExitCode::Internal, "only 1 or 3 channels can be drawn, not " + std::to_string(channels)};
    const int limit = maxTextureSize();
    if (width > limit || height > limit)
        return badInput("a " + std::to_string(width) + "x" + std::to_string(height) +
                        " image is larger than this OpenGL can draw (" + std::to_string(limit) + " per side)");
    const Texture::Format format =
        channels == 1 ? Texture::Format{GL_R32F, GL_RED, GL_FLOAT} : Texture::Format{GL_RGB32F, GL_RGB, GL_FLOAT};
    m_values = Texture(format, width, height, data, GL_NEAREST, GL_NEAREST);
    if (m_colours.width() != width || m_colours.height() != height) {
        m_mipmaps = width > kMipmapEdge || height > kMipmapEdge;
        m_colours = Texture({GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE}, width, height, nullptr,
                            m_mipmaps ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST, GL_NEAREST);
    }
    m_channels = channels;
    m_stale = true;
    return success();
}

void ColorMappedImage::setMapping(ColorMap map, float low, float high) {
    if (map == m_map && low == m_low && high == m_high)
        return;
    m_map = map;
    m_low = low;
    m_high = high;
    m_stale = true;
}

void ColorMappedImage::clear() {
    m_values = Texture();
    m_colours = Texture();
    m_stale = true;
}

GLuint ColorMappedImage::texture(ColorMapper& mapper) {
    if (m_values.empty())
        return 0;
    if (m_stale) {
        mapper.render(m_values, m_channels == 3, m_map, m_low, m_high, m_colours, m_mipmaps);
        m_stale = false;
    }
    return m_colours.id();
}

}  // namespace tilescope::gfx
