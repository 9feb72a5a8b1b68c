// The grid view's picture of one traced block, drawn once for every target:
// the Grid of N panel draws it with ImGui's draw list, the SVG export
// (grid_svg.cpp) with SVG elements. Both go through DiagramCanvas, so the
// colour of a halo band, the square of a load, the ring of the selected
// thread's load and the tile outlines come from the same decisions, read
// from the trace (the replay's cell kinds, ghost handling and loads so far),
// whichever picture is made.
#pragma once

#include <imgui.h>

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "trace/problems.hpp"
#include "trace/trace_index.hpp"
#include "trace/warp_requests.hpp"
#include "ui/diagram_canvas.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"

namespace tilescope::ui {

// The Overlays... switches of the grid view.
struct GridOverlays {
    bool tiles = true;    // tiles, halo, ghosts
    bool loads = true;    // loaded so far (block: square, thread: ring)
    bool blocks = true;   // the grid of blocks
    bool heat = false;    // heat map of global reads instead of values
    bool request = true;  // the selected warp's global request of N: its elements and sectors
};

// What is drawn: one traced block at one cursor.
struct GridScene {
    const BlockReplay* replay = nullptr;
    Cursor cursor = 0;
    unsigned thread = 0;                  // the selected thread
    const Image* plane = nullptr;         // channel 0 of N
    ValueMapping mapping;                 // values -> colours
    std::span<const float> readsPerCell;  // global reads of each cell of N (row-major), for the heat map
    unsigned maxReads = 1;
    std::optional<std::array<int, 2>> selectedOutput;
    const ProblemReport* problem = nullptr;  // the selected problem (run 0 only)
    // The selected thread's warp's global request of N the views show (null: none).
    const WarpRequest* request = nullptr;
};

// Where the cells land: cell (x, y) spans zero + cell * (x, y) to zero + cell * (x + 1, y + 1).
struct GridPlacement {
    ImVec2 zero{0.0f, 0.0f};
    float cell = 1.0f;
    ImVec2 viewMin{0.0f, 0.0f}, viewMax{0.0f, 0.0f};  // what is visible
    float lineWidth = 1.0f;
    float monoSize = 13.0f;  // the mono font's size: values are shown when a cell holds 2.4 of it
};

// Which overlays the picture shows, for its legend.
struct GridLegend {
    bool halo = false, stored = false, skipped = false;
    bool blockLoad = false, threadLoad = false;
    bool problemElement = false, problemThreads = false;
    bool request = false;  // the warp's request: its elements and the sectors it moves
    // Where each sector of the request was outlined (its first run of cells),
    // by ascending sector, and the request's label.
    std::vector<std::array<ImVec2, 2>> sectorBoxes;
    std::array<ImVec2, 2> requestLabel{};
    std::string requestText;
};

GridLegend drawGridDiagram(DiagramCanvas& canvas, const Palette& palette, const Theme& theme, const GridScene& scene,
                           const GridOverlays& overlays, const GridPlacement& at);

// The legend's swatches for what the picture showed, in the order the legend lists them.
struct LegendSwatch {
    ImU32 colour;
    const char* label;
    bool outline = false;  // an outline in the colour (a frame), not a filled box
};
inline constexpr const char* kRequestLabel = "the warp's memory request: its lanes' elements";
inline constexpr const char* kSectorLabel = "a 32-byte sector it moves (8 floats; outlined)";
std::vector<LegendSwatch> gridLegendSwatches(const Palette& palette, const GridLegend& shown,
                                             const GridOverlays& overlays);

// Global reads of each cell of N (row-major, width x height), from the trace's counts.
std::vector<float> inputReadsPerCell(const TraceModel& model, unsigned& maxReads);

// The cells a view of `size` frames around the block: its input footprint and two cells more all round.
Rect blockFraming(const BlockReplay& replay);

}  // namespace tilescope::ui
