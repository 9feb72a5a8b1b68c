// A grid of coloured cells drawn as one texture: the threads of a block and
// the shared-memory tile, as the grid of N is. The texture is made at the
// size it is shown (one texel a framebuffer pixel), with each cell's fill,
// its band (a halo cell's ring inside its edge) and the line round it baked
// in, and made again only when what it shows changes (a step, a selection,
// the zoom, the theme): between those, a frame draws one quad instead of
// several per cell, which a software renderer feels at every frame. What is
// drawn over a few cells only (labels, outlines of a warp or of a request,
// the selection) stays on the draw list, on top.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <span>
#include <vector>

#include "gfx/texture.hpp"

namespace tilescope::ui {

// How one cell looks.
struct CellLook {
    ImU32 fill = 0;  // 0: nothing (the window shows through, and no line round it)
    ImU32 band = 0;  // a band inside the cell's edge in this colour (0: none)
    bool operator==(const CellLook&) const = default;
};

class CellPicture {
public:
    // Draws `looks` (row after row, `columns` to a row) as square cells of
    // `cell` units from `origin`, each with a line of `grid` (over the fill,
    // as ImGui's AddRect draws it) round its edge and, where it has one, a
    // band `band` units wide inside that line.
    void draw(ImDrawList* draw, ImVec2 origin, float cell, int columns, std::span<const CellLook> looks, ImU32 grid,
              float band);

    // How many times the texture was made (a test reads it: stepping makes it
    // again, a frame that shows the same does not).
    int builds() const { return m_builds; }

private:
    void build(float scale, float offsetX, float offsetY);

    gfx::Texture m_texture;
    std::vector<std::uint32_t> m_pixels;
    // What the texture shows.
    std::vector<CellLook> m_looks;
    float m_cell = 0.0f, m_band = 0.0f, m_scale = 0.0f, m_offsetX = -1.0f, m_offsetY = -1.0f;
    int m_columns = 0;
    ImU32 m_grid = 0;
    int m_width = 0, m_height = 0;  // in framebuffer pixels
    int m_builds = 0;
};

}  // namespace tilescope::ui
