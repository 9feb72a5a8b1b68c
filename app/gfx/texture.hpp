// Textures, and float data turned into colours by the colour-map shader.
//
// The flow for one image: the floats go up once into a float texture
// (setData); the shader (shaders/colormap.frag) maps them to colours in an
// RGBA8 texture the size of the data; ImGui draws that texture, scaled, with
// nearest filtering when magnified so that every element stays a sharp cell.
// Changing the range or the map re-runs the shader; the data is not re-sent.
#pragma once

#include <cstdint>
#include <memory>

#include "core/result.hpp"
#include "gfx/colormap.hpp"
#include "gfx/gl.hpp"
#include "gfx/shader.hpp"

namespace tilescope::gfx {

// One OpenGL 2D texture, owned.
class Texture {
public:
    struct Format {
        GLint internalFormat;  // GL_R32F, GL_RGB32F, GL_RGBA8
        GLenum format;         // GL_RED, GL_RGB, GL_RGBA
        GLenum type;           // GL_FLOAT, GL_UNSIGNED_BYTE
    };

    Texture() = default;
    // Rows of `data` go bottom to top in OpenGL's terms; the app passes the
    // image's first row first and draws with v = 0 at the top, so it reads as
    // the image does. `data` may be null (contents undefined).
    Texture(Format format, int width, int height, const void* data, GLint minFilter, GLint magFilter);
    Texture(Texture&& other) noexcept;
    Texture& operator=(Texture&& other) noexcept;
    Texture(const Texture&) = delete;
    Texture& operator=(const Texture&) = delete;
    ~Texture();

    GLuint id() const { return m_id; }
    // Replaces all its pixels (same format as made with).
    void update(GLenum format, GLenum type, const void* data);
    int width() const { return m_width; }
    int height() const { return m_height; }
    bool empty() const { return m_id == 0; }

private:
    GLuint m_id = 0;
    int m_width = 0;
    int m_height = 0;
};

// The largest texture edge this OpenGL accepts.
int maxTextureSize();

// When the texture `id` last changed: a number that grows with every change
// of any texture made here (made, its pixels replaced, drawn into by the
// colour map), 0 for one never seen (ImGui's own font atlas). The app's frame
// renderer knows by it that a window showing a texture shows the same
// pixels as the frame before.
std::uint64_t textureVersion(GLuint id);
// Notes that the texture `id` changed (the functions here do it themselves).
void noteTextureChanged(GLuint id);

// The colour-map shader, the two 256-entry colour maps, and the objects a
// draw into a texture needs. One per OpenGL context.
class ColorMapper {
public:
    static Result<std::unique_ptr<ColorMapper>> create();
    ~ColorMapper();
    ColorMapper(const ColorMapper&) = delete;
    ColorMapper& operator=(const ColorMapper&) = delete;

    // Draws `values` (R32F or RGB32F, same size as `target`) into `target`
    // (RGBA8). rgb: show three channels as colour instead of using the map.
    // mipmaps: also make the target's smaller copies. Leaves the framebuffer
    // binding and viewport as it found them.
    void render(const Texture& values, bool rgb, ColorMap map, float low, float high, const Texture& target,
                bool mipmaps);

    // The 256 x 1 colour map itself, for colour bars in the legend.
    const Texture& colormapTexture(ColorMap map) const {
        return map == ColorMap::Sequential ? m_sequential : m_diverging;
    }

private:
    ColorMapper() = default;
    Program m_program;
    Texture m_sequential;
    Texture m_diverging;
    GLuint m_vertexArray = 0;  // core profile draws need one, even with no vertex data
    GLuint m_framebuffer = 0;
    GLint m_uValues = -1, m_uColormap = -1, m_uLow = -1, m_uHigh = -1, m_uRgb = -1;
};

// An image (or 1D array, height 1) of floats shown through a colour map.
// Images larger than kMipmapEdge are usually drawn smaller than they are, so
// they get mipmaps (no shimmer); smaller ones are drawn magnified, as sharp
// cells, where mipmaps would only cost time (a software renderer feels it).
class ColorMappedImage {
public:
    static constexpr int kMipmapEdge = 512;

    // Rows top to bottom, channels interleaved; 1 or 3 channels. Fails when
    // the image is larger than the OpenGL's largest texture.
    Status setData(int width, int height, int channels, const float* data);
    void setMapping(ColorMap map, float low, float high);
    void clear();

    // The RGBA8 texture to draw (0 when empty); re-rendered when stale.
    GLuint texture(ColorMapper& mapper);

    bool empty() const { return m_values.empty(); }
    int width() const { return m_values.width(); }
    int height() const { return m_values.height(); }
    int channels() const { return m_channels; }
    ColorMap map() const { return m_map; }
    float low() const { return m_low; }
    float high() const { return m_high; }

private:
    Texture m_values;
    Texture m_colours;
    int m_channels = 1;
    bool m_mipmaps = false;
    ColorMap m_map = ColorMap::Sequential;
    float m_low = 0.0f;
    float m_high = 1.0f;
    bool m_stale = true;
};

}  // namespace tilescope::gfx
