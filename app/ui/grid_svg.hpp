// The grid diagram of the selected block at the current step as an SVG: the
// cells as rectangles in the colours of the screen, the halo and ghost
// marks, the loads so far, the tile outlines, the values, a title and a
// legend as text. Drawn by drawGridDiagram(), the Grid of N panel's own
// code, on a canvas that writes SVG elements; framed on the block as the
// panel frames it (its input footprint and two cells more all round).
//
// The <svg> element carries data-cell (the cell's size in user units),
// data-cell0 (where cell (0, 0) of N begins) and data-input-tile and
// data-output-tile (x0 y0 x1 y1, in cells), so that a program can find the
// cells in a rendering of it (the tests do).
#pragma once

#include <filesystem>

#include "core/result.hpp"
#include "ui/grid_diagram.hpp"

namespace tilescope::ui {

class TraceSession;
struct Theme;

// Writes run 0's diagram; "what was written" for the user, or why not.
Result<std::string> writeGridSvg(const std::filesystem::path& path, TraceSession& session, const Theme& theme,
                                 const GridOverlays& overlays);

}  // namespace tilescope::ui
