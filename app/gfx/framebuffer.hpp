// An off-screen framebuffer the whole app can be drawn into, and reading it
// back as a PNG: how `tilescope screenshot` makes pictures that do not depend
// on the window being shown (or on the window manager) at all.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/result.hpp"
#include "gfx/texture.hpp"

namespace tilescope::gfx {

// Pixels top row first, 4 bytes (RGBA) each.
struct Picture {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;
};

class Framebuffer {
public:
    Framebuffer(int width, int height);
    ~Framebuffer();
    Framebuffer(const Framebuffer&) = delete;
    Framebuffer& operator=(const Framebuffer&) = delete;

    // Makes it the target of the draws that follow (and sets the viewport).
    void bind() const;
    int width() const { return m_colour.width(); }
    int height() const { return m_colour.height(); }
    GLuint id() const { return m_framebuffer; }  // to copy from it (glBlitFramebuffer)

    // Reads what was drawn (waits for the GPU to finish).
    Picture read() const;

private:
    Texture m_colour;
    GLuint m_framebuffer = 0;
};

// Reads the rectangle (x, y from the top-left corner) of the framebuffer
// bound for reading, `framebufferHeight` pixels high: the window's back
// buffer, or a Framebuffer bound with bind(). Waits for the GPU to finish.
Picture readPixels(int x, int y, int width, int height, int framebufferHeight);

// Writes the picture as a PNG, atomically (a failure leaves no partial file).
Status writePng(const std::filesystem::path& path, const Picture& picture);

}  // namespace tilescope::gfx
