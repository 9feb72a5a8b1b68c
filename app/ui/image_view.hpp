// Drawing an array as an image of cells: the colour-mapped texture, scaled so
// that every element is a square cell, with cell lines and the values written
// in the cells when they are large enough to read, a frame, and the value
// under the mouse in a tooltip. The result panel uses it; the step-through
// views (grid of N, shared memory, output) can draw their overlays on top of
// the rectangle it returns (cellRect() maps an element to the screen).
#pragma once

#include <imgui.h>

#include <string>

#include "core/image.hpp"
#include "gfx/texture.hpp"
#include "ui/theme.hpp"

namespace tilescope::ui {

struct ImageViewPlacement {
    ImVec2 min{0, 0};   // screen position of element (0, 0)'s top-left corner
    float cell = 0.0f;  // edge of one element's cell, in screen units
    int width = 0, height = 0;
    ImVec2 max() const { return {min.x + cell * width, min.y + cell * height}; }
    // The screen rectangle of element (x, y).
    void cellRect(int x, int y, ImVec2& a, ImVec2& b) const {
        a = {min.x + cell * x, min.y + cell * y};
        b = {a.x + cell, a.y + cell};
    }
};

// The largest cell size at which a width x height array fits in `space`,
// capped so that a 7-element array does not fill the screen.
float fitCell(int width, int height, ImVec2 space, float maxCell);

// Draws `image` (its colours from `texture`) at the cursor, cells of `cell`
// units; `values` (may be null) gives the numbers for labels and the tooltip;
// `arrayName` ("N", "P") names them there.
ImageViewPlacement drawImageView(const char* id, gfx::ColorMappedImage& texture, gfx::ColorMapper& mapper,
                                 const Image* values, const char* arrayName, float cell, const Theme& theme);

// Element indices under a 1D array (every one when they fit, else every
// 2nd, 5th, 10th...), so that "P[2] = 57" can be read off the picture.
void drawIndexRuler(const ImageViewPlacement& place, const Theme& theme);

// A value as a short label: integers without decimals, others with up to
// three significant digits ("57", "0.42", "-1.2e+03").
std::string shortValue(float value);

}  // namespace tilescope::ui
