#include "ui/cell_picture.hpp"

#include <algorithm>
#include <cmath>

#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

// The pixel an edge at `x` (in pixels) starts: a filled rectangle covers the
// pixels whose centres it holds, as the renderer fills ImGui's rectangles.
int edgePixel(float x) {
    return static_cast<int>(std::ceil(x - 0.5f));
}

// `over` (its alpha as ImGui blends it) over the opaque `under`.
std::uint32_t blend(ImU32 over, ImU32 under) {
    const unsigned a = (over >> IM_COL32_A_SHIFT) & 0xFF;
    std::uint32_t out = under & (0xFFu << IM_COL32_A_SHIFT);
    for (unsigned shift : {IM_COL32_R_SHIFT, IM_COL32_G_SHIFT, IM_COL32_B_SHIFT}) {
        const unsigned o = (over >> shift) & 0xFF, u = (under >> shift) & 0xFF;
        out |= ((o * a + u * (255 - a) + 127) / 255) << shift;
    }
    return out;
}

// Along one axis: for each pixel, its cell and how many pixels it lies in
// from the nearer edge of that cell (0: on the edge).
struct Axis {
    std::vector<int> cellOf, inset;
    int pixels = 0;
};

Axis axisOf(int cells, float cellPixels, float offset) {
    Axis axis;
    axis.pixels = std::max(0, edgePixel(offset + cellPixels * static_cast<float>(cells)));
    axis.cellOf.resize(static_cast<std::size_t>(axis.pixels));
    axis.inset.resize(static_cast<std::size_t>(axis.pixels));
    int begin = 0;
    for (int c = 0; c < cells; ++c) {
        const int end = std::min(axis.pixels, edgePixel(offset + cellPixels * static_cast<float>(c + 1)));
        for (int p = std::max(begin, 0); p < end; ++p) {
            axis.cellOf[static_cast<std::size_t>(p)] = c;
            axis.inset[static_cast<std::size_t>(p)] = std::min(p - begin, end - 1 - p);
        }
        begin = end;
    }
    return axis;
}

}  // namespace

void CellPicture::draw(ImDrawList* draw, ImVec2 origin, float cell, int columns, std::span<const CellLook> looks,
                       ImU32 grid, float band) {
    if (columns <= 0 || looks.empty() || cell <= 0.0f)
        return;
    const ImVec2 scales = ImGui::GetIO().DisplayFramebufferScale;
    const float scale = scales.x > 0.0f ? scales.x : 1.0f;
    // The picture starts at a whole pixel; the origin's fraction of one moves the cells in it.
    const float x = origin.x * scale, y = origin.y * scale;
    const float left = std::floor(x), top = std::floor(y);
    const float offsetX = x - left, offsetY = y - top;
    const bool same = m_texture.id() != 0 && cell == m_cell && columns == m_columns && grid == m_grid &&
                      band == m_band && scale == m_scale && offsetX == m_offsetX && offsetY == m_offsetY &&
                      std::equal(looks.begin(), looks.end(), m_looks.begin(), m_looks.end());
    if (!same) {
        m_looks.assign(looks.begin(), looks.end());
        m_cell = cell;
        m_columns = columns;
        m_grid = grid;
        m_band = band;
        build(scale, offsetX, offsetY);
    }
    if (m_width <= 0 || m_height <= 0)
        return;
    // Nearest filtering (the texture's own): one texel, one pixel.
    beginOwnTextureFiltering(draw);
    draw->AddImage(textureId(m_texture.id()), {left / scale, top / scale},
                   {(left + static_cast<float>(m_width)) / scale, (top + static_cast<float>(m_height)) / scale});
    endOwnTextureFiltering(draw);
}

void CellPicture::build(float scale, float offsetX, float offsetY) {
    m_scale = scale;
    m_offsetX = offsetX;
    m_offsetY = offsetY;
    const int rows = static_cast<int>((m_looks.size() + static_cast<std::size_t>(m_columns) - 1) /
                                      static_cast<std::size_t>(m_columns));
    const float cellPixels = m_cell * scale;
    const Axis across = axisOf(m_columns, cellPixels, offsetX);
    const Axis down = axisOf(rows, cellPixels, offsetY);
    const int limit = gfx::maxTextureSize();
    m_width = std::min(across.pixels, limit);
    m_height = std::min(down.pixels, limit);
    if (m_width <= 0 || m_height <= 0)
        return;
    // A band as ImGui strokes it (a line `band` wide whose outer edge is
    // half a pixel in from the cell's): the pixels from the one inside the
    // cell's line to `band` pixels in; the line's own pixel keeps the fill.
    const int bandPixels = std::max(1, static_cast<int>(std::lround(m_band * scale)));
    m_pixels.assign(static_cast<std::size_t>(m_width) * static_cast<std::size_t>(m_height), 0u);
    for (int py = 0; py < m_height; ++py) {
        const int row = down.cellOf[static_cast<std::size_t>(py)];
        const int insetY = down.inset[static_cast<std::size_t>(py)];
        std::uint32_t* out = m_pixels.data() + static_cast<std::size_t>(py) * static_cast<std::size_t>(m_width);
        for (int px = 0; px < m_width; ++px) {
            const std::size_t i = static_cast<std::size_t>(row) * static_cast<std::size_t>(m_columns) +
                                  static_cast<std::size_t>(across.cellOf[static_cast<std::size_t>(px)]);
            if (i >= m_looks.size())
                continue;  // past the last cell of a short last row
            const CellLook& look = m_looks[i];
            if (look.fill == 0)
                continue;
            const int inset = std::min(insetY, across.inset[static_cast<std::size_t>(px)]);
            if (inset == 0)
                out[px] = blend(m_grid, look.fill);
            else
                out[px] = look.band != 0 && inset <= bandPixels ? look.band : look.fill;
        }
    }
    if (m_texture.width() == m_width && m_texture.height() == m_height) {
        m_texture.update(GL_RGBA, GL_UNSIGNED_BYTE, m_pixels.data());
    } else {
        m_texture = gfx::Texture({GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE}, m_width, m_height, m_pixels.data(), GL_NEAREST,
                                 GL_NEAREST);
    }
    ++m_builds;
}

}  // namespace tilescope::ui
