#include "ui/grid_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "export/svg_writer.hpp"
#include "model/memory_view.hpp"
#include "model/trace_session.hpp"

namespace tilescope::ui {

namespace {

constexpr float kCell = 40.0f;  // a cell, in user units (points, when printed)
// The mono font's size: as on screen, values show in cells 2.4 of it wide,
// so at this size a 40-unit cell shows none (they would crowd the load marks)
// and the ghosts' 0 stays legible.
constexpr float kMonoSize = 17.0f;
constexpr float kTextSize = 14.0f;  // title and legend
constexpr float kMargin = 16.0f;

exports::Rgba rgba(ImU32 c) {
    return {static_cast<std::uint8_t>((c >> IM_COL32_R_SHIFT) & 0xff),
            static_cast<std::uint8_t>((c >> IM_COL32_G_SHIFT) & 0xff),
            static_cast<std::uint8_t>((c >> IM_COL32_B_SHIFT) & 0xff),
            static_cast<std::uint8_t>((c >> IM_COL32_A_SHIFT) & 0xff)};
}

// The grid diagram's shapes as SVG elements; the base cells one rectangle
// each, only those in view.
class SvgCanvas final : public DiagramCanvas {
public:
    SvgCanvas(exports::SvgDocument& svg, ImVec2 viewMin, ImVec2 viewMax) : m_svg(svg), m_min(viewMin), m_max(viewMax) {}

    void cells(ImVec2 a, ImVec2 b, int x0, int y0, int x1, int y1,
               const std::function<ImU32(int, int)>& colourOf) override {
        const float w = (b.x - a.x) / static_cast<float>(x1 - x0), h = (b.y - a.y) / static_cast<float>(y1 - y0);
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                const float px = a.x + w * static_cast<float>(x - x0), py = a.y + h * static_cast<float>(y - y0);
                if (px + w <= m_min.x || px >= m_max.x || py + h <= m_min.y || py >= m_max.y)
                    continue;
                m_svg.rect(px, py, w, h, rgba(colourOf(x, y)));
            }
    }
    void rect(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) override {
        // ImGui draws an outline inside [a, b] by half a pixel; the SVG strokes the same path.
        m_svg.rectOutline(a.x + 0.5f, a.y + 0.5f, b.x - a.x - 1.0f, b.y - a.y - 1.0f, rgba(colour), thickness);
    }
    void rectFilled(ImVec2 a, ImVec2 b, ImU32 colour) override {
        m_svg.rect(a.x, a.y, b.x - a.x, b.y - a.y, rgba(colour));
    }
    void line(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) override {
        m_svg.line(a.x, a.y, b.x, b.y, rgba(colour), thickness);
    }
    void circle(ImVec2 centre, float radius, ImU32 colour, float thickness) override {
        m_svg.circle(centre.x, centre.y, radius, rgba(colour), thickness);
    }
    // A monospaced face: 0.6 em a character, a line 1.2 em high.
    ImVec2 textSize(float size, const char* text) const override {
        return {0.6f * size * static_cast<float>(std::char_traits<char>::length(text)), size};
    }
    void text(ImVec2 at, float size, const char* text, ImU32 colour) override {
        // From the top-left corner to the baseline: about 0.8 em down.
        m_svg.text(at.x, at.y + 0.8f * size, size, text, rgba(colour), true);
    }

private:
    exports::SvgDocument& m_svg;
    ImVec2 m_min, m_max;
};

std::string rectText(const Rect& r) {
    return std::to_string(r.x0) + " " + std::to_string(r.y0) + " " + std::to_string(r.x1) + " " + std::to_string(r.y1);
}

}  // namespace

Result<std::string> writeGridSvg(const std::filesystem::path& path, TraceSession& session, const Theme& theme,
                                 const GridOverlays& overlays) {
    TracedRun& run = session.run(0);
    if (!run.model || !run.replay || !run.outcome || !run.outcome->input)
        return badInput("no trace to draw yet" + (run.problem ? ": " + run.problem->message : std::string()));
    const BlockReplay& replay = *run.replay;
    const Trace& trace = replay.trace();
    const Image& input = *run.outcome->input;
    const Image plane = input.channels == 1 ? input : input.plane(0);
    const ArrayInfo& n = trace.arrays[kArrayInput];
    const int width = n.width, height = std::max(n.height, 1);
    const int r = trace.plan.radius, ry = trace.dims() == 2 ? r : 0;

    // The block's framing, within the array and its ghost cells.
    Rect f = blockFraming(replay);
    f = f.intersect(Rect{-r, -ry, width + r, height + ry});
    const float viewW = kCell * static_cast<float>(f.width()), viewH = kCell * static_cast<float>(f.height());

    // Title, the diagram, the legend under it.
    const Cursor cursor = run.cursor;
    const std::uint32_t step = cursor >= replay.size() ? replay.stepCount() : replay.stepAt(cursor);
    char title[256];
    std::snprintf(title, sizeof title, "%s: block (%u,%u), step %u of %u", trace.kernel.c_str(), replay.block().x,
                  replay.block().y, step, replay.stepCount());
    const float top = kMargin + kTextSize * 1.6f;
    const ImVec2 viewMin{kMargin, top}, viewMax{kMargin + viewW, top + viewH};

    unsigned maxReads = 1;
    const std::vector<float> reads = inputReadsPerCell(*run.model, maxReads);
    GridScene scene;
    scene.replay = &replay;
    scene.cursor = cursor;
    scene.thread = run.thread;
    scene.plane = &plane;
    scene.mapping = mappingOf(plane.data);
    scene.readsPerCell = reads;
    scene.maxReads = maxReads;
    scene.selectedOutput = session.selectedOutput();
    scene.problem = session.selectedProblem();
    const BlockRequests* requests = overlays.request ? session.requests(0) : nullptr;
    if (const auto r = requests ? session.currentRequest(0, isGlobalRequestOfN) : std::nullopt)
        scene.request = &requests->request(*r);
    GridPlacement at;
    at.cell = kCell;
    at.zero = {viewMin.x - kCell * static_cast<float>(f.x0), viewMin.y - kCell * static_cast<float>(f.y0)};
    at.viewMin = viewMin;
    at.viewMax = viewMax;
    at.lineWidth = std::max(1.0f, theme.lineWidth);
    at.monoSize = kMonoSize;

    // Drawn first into a scratch document to learn the legend, then for real
    // (the legend's height decides the picture's).
    exports::SvgDocument scratch(1, 1);
    SvgCanvas scratchCanvas(scratch, viewMin, viewMax);
    const GridLegend shown = drawGridDiagram(scratchCanvas, theme.palette, theme, scene, overlays, at);
    const std::vector<LegendSwatch> swatches = gridLegendSwatches(theme.palette, shown, overlays);
    const float rowHeight = kTextSize * 1.5f;
    const float legendTop = viewMax.y + kMargin;
    float longest = 0.0f;
    for (const LegendSwatch& s : swatches)
        longest = std::max(longest, 0.55f * kTextSize * static_cast<float>(std::char_traits<char>::length(s.label)));
    const float pictureW =
        std::max({viewMax.x + kMargin, kMargin * 2 + kTextSize * 2 + longest, 0.55f * kTextSize * 60});
    const float pictureH = legendTop + rowHeight * static_cast<float>(swatches.size()) + kMargin;

    const ImVec2 cell0 = at.zero;
    char attributes[512];
    std::snprintf(attributes, sizeof attributes,
                  "data-cell=\"%g\" data-cell0=\"%g %g\" data-input-tile=\"%s\" data-output-tile=\"%s\" "
                  "data-step=\"%u\"",
                  static_cast<double>(kCell), static_cast<double>(cell0.x), static_cast<double>(cell0.y),
                  rectText(replay.geometry().inputTile).c_str(), rectText(replay.geometry().computed).c_str(), step);
    exports::SvgDocument svg(pictureW, pictureH, attributes);
    svg.comment(std::string("TileScope: the grid of N, ") + title);
    svg.rect(0, 0, pictureW, pictureH, {255, 255, 255, 255});
    svg.text(kMargin, kMargin + kTextSize, kTextSize * 1.1, title, {0, 0, 0, 255}, false, true);
    svg.beginClip(viewMin.x, viewMin.y, viewW, viewH);
    SvgCanvas canvas(svg, viewMin, viewMax);
    drawGridDiagram(canvas, theme.palette, theme, scene, overlays, at);
    svg.endClip();
    float y = legendTop;
    for (const LegendSwatch& s : swatches) {
        if (s.outline) {
            svg.rectOutline(kMargin + 1.5, y + 1.5, kTextSize * 1.2 - 3.0, kTextSize * 1.0 - 3.0, rgba(s.colour), 3.0);
        } else {
            svg.rect(kMargin, y, kTextSize * 1.2, kTextSize * 1.0, rgba(s.colour));
        }
        svg.rectOutline(kMargin, y, kTextSize * 1.2, kTextSize * 1.0, {0, 0, 0, 255}, 0.5);
        svg.text(kMargin + kTextSize * 1.8, y + kTextSize * 0.85, kTextSize, s.label, {0, 0, 0, 255});
        y += rowHeight;
    }
    if (Status s = svg.write(path); !s)
        return s.error();
    return "wrote " + path.string() + ": the grid of N, block (" + std::to_string(replay.block().x) + "," +
           std::to_string(replay.block().y) + ") at step " + std::to_string(step) + " of " +
           std::to_string(replay.stepCount());
}

}  // namespace tilescope::ui
