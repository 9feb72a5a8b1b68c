#include "gfx/framebuffer.hpp"

#include <stb_image_write.h>

#include <cstring>
#include <span>

#include "io/file_checks.hpp"
#include "io/whole_file.hpp"

namespace tilescope::gfx {

Framebuffer::Framebuffer(int width, int height)
    : m_colour({GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE}, width, height, nullptr, GL_NEAREST, GL_NEAREST) {
    glGenFramebuffers(1, &m_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_colour.id(), 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

Framebuffer::~Framebuffer() {
    if (m_framebuffer)
        glDeleteFramebuffers(1, &m_framebuffer);
}

void Framebuffer::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
    glViewport(0, 0, width(), height());
}

Picture Framebuffer::read() const {
    Picture picture;
    picture.width = width();
    picture.height = height();
    const std::size_t row = static_cast<std::size_t>(picture.width) * 4;
    std::vector<std::uint8_t> bottomUp(row * static_cast<std::size_t>(picture.height));
    GLint previous = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_framebuffer);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, picture.width, picture.height, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous));
    // OpenGL's first row is the bottom one; a picture's is the top one.
    picture.rgba.resize(bottomUp.size());
    for (int y = 0; y < picture.height; ++y)
        std::memcpy(picture.rgba.data() + static_cast<std::size_t>(y) * row,
                    bottomUp.data() + static_cast<std::size_t>(picture.height - 1 - y) * row, row);
    return picture;
}

Picture readPixels(int x, int y, int width, int height, int framebufferHeight) {
    Picture picture;
    picture.width = width;
    picture.height = height;
    const std::size_t row = static_cast<std::size_t>(width) * 4;
    std::vector<std::uint8_t> bottomUp(row * static_cast<std::size_t>(height));
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(x, framebufferHeight - y - height, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
    picture.rgba.resize(bottomUp.size());
    for (int r = 0; r < height; ++r)
        std::memcpy(picture.rgba.data() + static_cast<std::size_t>(r) * row,
                    bottomUp.data() + static_cast<std::size_t>(height - 1 - r) * row, row);
    return picture;
}

namespace {

void appendBytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<unsigned char>*>(context);
    const auto* bytes = static_cast<const unsigned char*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

Status writePng(const std::filesystem::path& path, const Picture& picture) {
    if (picture.width <= 0 || picture.height <= 0)
        return io::fileError(path, "nothing was drawn to write");
    std::vector<unsigned char> png;
    if (!stbi_write_png_to_func(appendBytes, &png, picture.width, picture.height, 4, picture.rgba.data(),
                                picture.width * 4))
        return io::fileError(path, "the PNG could not be encoded");
    return io::writeFileAtomic(path, std::span<const unsigned char>(png));
}

}  // namespace tilescope::gfx
