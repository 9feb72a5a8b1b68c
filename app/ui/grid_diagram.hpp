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
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"

namespace tilescope::ui {

// Rectangles, lines, circles and text in screen units (y down), colours as ImGui packs them.
class DiagramCanvas {
public:
    virtual ~DiagramCanvas() = default;
    // The base: cells x0 <= x < x1, y0 <= y < y1 of the array, cell (x0, y0)
    // at a and cell (x1 - 1, y1 - 1) ending at b, each in colourOf(x, y).
    virtual void cells(ImVec2 a, ImVec2 b, int x0, int y0, int x1, int y1,
                       const std::function<ImU32(int, int)>& colourOf) = 0;
    virtual void rect(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) = 0;
    virtual void rectFilled(ImVec2 a, ImVec2 b, ImU32 colour) = 0;
    virtual void line(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) = 0;
    virtual void circle(ImVec2 centre, float radius, ImU32 colour, float thickness) = 0;
    // Text in the mono font, `size` units high, its top-left corner at `at`.
    virtual ImVec2 textSize(float size, const char* text) const = 0;
    virtual void text(ImVec2 at, float size, const char* text, ImU32 colour) = 0;
};

// An ImGui draw list; the base cells are a texture already mapped to colours.
class DrawListCanvas final : public DiagramCanvas {
public:
    DrawListCanvas(ImDrawList* draw, ImFont* mono, ImTextureID base = ImTextureID{})
        : m_draw(draw), m_mono(mono ? mono : ImGui::GetFont()), m_base(base) {}
    void cells(ImVec2 a, ImVec2 b, int, int, int, int, const std::function<ImU32(int, int)>&) override;
    void rect(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) override;
    void rectFilled(ImVec2 a, ImVec2 b, ImU32 colour) override;
    void line(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) override;
    void circle(ImVec2 centre, float radius, ImU32 colour, float thickness) override;
    ImVec2 textSize(float size, const char* text) const override;
    void text(ImVec2 at, float size, const char* text, ImU32 colour) override;

private:
    ImDrawList* m_draw;
    ImFont* m_mono;
    ImTextureID m_base;
};

// `text` centred in the cell [a, b], at most `fontSize` high, when it fits.
void cellLabel(DiagramCanvas& canvas, float fontSize, ImVec2 a, ImVec2 b, const char* text, ImU32 colour);
// The problem outline of trace_draw.hpp, on any canvas.
void problemOutline(DiagramCanvas& canvas, const Theme& theme, ImVec2 a, ImVec2 b, ImU32 colour, float thickness);

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
