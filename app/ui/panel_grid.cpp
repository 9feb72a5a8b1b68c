#include "ui/panel_grid.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/lesson_player.hpp"
#include "model/memory_view.hpp"
#include "model/trace_session.hpp"
#include "ui/grid_diagram.hpp"
#include "ui/image_view.hpp"
#include "ui/layout_probe.hpp"
#include "ui/lesson_draw.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

void GridPanel::draw(bool* open) {
    if (!ImGui::Begin("Grid of N###grid", open)) {
        ImGui::End();
        return;
    }
    TraceSession& session = m_session;
    const Theme& theme = m_context.theme;
    if (drawSteppingBar(session, theme, m_context.probe)) {
        // The overlays' switches in a popup: the canvas keeps the room (lecture mode).
        if (ImGui::Button("Overlays..."))
            ImGui::OpenPopup("overlays");
        // The hint, where the row has room for it.
        const char* hint = "wheel: zoom, drag: pan, click: select";
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(hint).x)
            ImGui::TextDisabled("%s", hint);
        else
            ImGui::NewLine();
        if (ImGui::BeginPopup("overlays")) {
            ImGui::Checkbox("tiles, halo, ghosts", &m_overlays.tiles);
            ImGui::Checkbox("loaded so far (block: square, thread: ring)", &m_overlays.loads);
            ImGui::Checkbox("the grid of blocks", &m_overlays.blocks);
            ImGui::Checkbox("heat map of global reads", &m_overlays.heat);
            ImGui::Checkbox("the warp's memory request of N and its 32-byte sectors", &m_overlays.request);
            if (ImGui::Checkbox("zoom to the selected block", &m_zoomToBlock))
                for (Canvas& c : m_canvas) {
                    c.framed = nullptr;
                    if (!m_zoomToBlock)
                        c.zoom = 1.0f;
                    c.panX = c.panY = 0.0f;
                }
            ImGui::EndPopup();
        }
        const ImVec2 space = ImGui::GetContentRegionAvail();
        const int runs = session.runCount();
        const float gap = ImGui::GetStyle().ItemSpacing.x;
        for (int i = 0; i < runs; ++i) {
            if (i > 0)
                ImGui::SameLine();
            drawCanvas(i, {(space.x - gap * static_cast<float>(runs - 1)) / static_cast<float>(runs), space.y});
        }
    }
    m_context.probe.recordWindow("grid.window");
    ImGui::End();
}

void GridPanel::drawCanvas(int runIndex, ImVec2 size) {
    TraceSession& session = m_session;
    TracedRun& run = session.run(runIndex);
    const Theme& theme = m_context.theme;
    const Palette& palette = theme.palette;
    Canvas& canvas = m_canvas[static_cast<std::size_t>(runIndex)];
    ImGui::BeginGroup();
    if (session.comparing())
        ImGui::TextUnformatted(run.kernel.c_str());
    if (!run.model || !run.replay || !run.outcome || !run.outcome->input) {
        ImGui::TextDisabled("%s", run.problem ? run.problem->message.c_str() : "tracing...");
        ImGui::EndGroup();
        return;
    }
    const TraceModel& model = *run.model;
    const BlockReplay& replay = *run.replay;
    const Trace& trace = model.trace();
    const Image& input = *run.outcome->input;
    const ArrayInfo& n = trace.arrays[kArrayInput];
    const int width = n.width, height = std::max(n.height, 1);
    const int r = trace.plan.radius;
    const int ry = trace.dims() == 2 ? r : 0;
    const Cursor cursor = run.cursor;

    // Textures: the values of N (channel 0) and the read counts, once per trace.
    const Image plane = input.channels == 1 ? input : input.plane(0);
    const ValueMapping mapping = mappingOf(plane.data);
    if (canvas.uploadedFor != &model) {
        canvas.uploadedFor = &model;
        (void)canvas.values.setData(plane.width, std::max(plane.height, 1), 1, plane.data.data());
        canvas.values.setMapping(mapping.map, mapping.low, mapping.high);
        const std::vector<float> perCell = inputReadsPerCell(model, canvas.maxReads);
        (void)canvas.heat.setData(width, height, 1, perCell.data());
        canvas.heat.setMapping(gfx::ColorMap::Sequential, 0.0f, static_cast<float>(std::max(canvas.maxReads, 1u)));
    }

    // The view: the array and a margin of r cells (the ghosts) all round.
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float spanX = static_cast<float>(width + 2 * r + 2), spanY = static_cast<float>(height + 2 * ry + 2);
    const float fit = std::max(1.0f, std::min(size.x / spanX, size.y / spanY));
    // A new block (or a new trace): zoom to its input footprint, so that the
    // tiles, halo and ghosts are large enough to read on a projector.
    // The view's size changes when a second kernel's trace arrives (compare
    // mode) or the window is resized before the user has zoomed: frame again.
    const bool resized = canvas.framedSize.x != size.x || canvas.framedSize.y != size.y;
    // A lesson step's pointed-at cells are framed too: what it points at is on screen.
    const LessonMarks* pointing = runIndex == 0 ? m_lessons.marks() : nullptr;
    const std::vector<std::array<int, 2>> noMarks;
    const std::vector<std::array<int, 2>>& marked = pointing ? pointing->cells : noMarks;
    if ((canvas.framed != &replay || (resized && !canvas.moved) || marked != canvas.framedMarks) && m_zoomToBlock) {
        canvas.framed = &replay;
        canvas.framedSize = size;
        canvas.framedMarks = marked;
        canvas.moved = false;
        Rect f = blockFraming(replay);
        for (const auto& c : marked) {
            const int y = trace.dims() == 2 ? c[1] : 0;
            f.x0 = std::min(f.x0, c[0] - 1);
            f.x1 = std::max(f.x1, c[0] + 2);
            if (trace.dims() == 2) {
                f.y0 = std::min(f.y0, y - 1);
                f.y1 = std::max(f.y1, y + 2);
            }
        }
        const float want = std::min(size.x / static_cast<float>(std::max(f.width(), 1)),
                                    size.y / static_cast<float>(std::max(f.height(), 1)));
        canvas.zoom = std::clamp(want / fit, 1.0f, 40.0f);
        const float c = fit * canvas.zoom;
        // Pan so that the footprint's centre sits in the view's centre.
        canvas.panX = (static_cast<float>(width) * 0.5f - (f.x0 + f.x1) * 0.5f) * c;
        canvas.panY = (static_cast<float>(height) * 0.5f - (f.y0 + f.y1) * 0.5f) * c;
    }
    ImGui::InvisibleButton("##canvas", {std::max(size.x, 10.0f), std::max(size.y, 10.0f)});
    const float cell = fit * canvas.zoom;
    const bool hovered = ImGui::IsItemHovered();
    const ImGuiIO& io = ImGui::GetIO();
    ImVec2 zero{origin.x + canvas.panX + (size.x - cell * static_cast<float>(width)) * 0.5f,
                origin.y + canvas.panY + (size.y - cell * static_cast<float>(height)) * 0.5f};
    if (hovered && io.MouseWheel != 0.0f) {
        // Zoom about the mouse: the cell under it stays under it.
        const float newZoom = std::clamp(canvas.zoom * std::pow(1.2f, io.MouseWheel), 1.0f, 40.0f);
        const float k = newZoom / canvas.zoom;
        const ImVec2 centre{origin.x + size.x * 0.5f, origin.y + size.y * 0.5f};
        canvas.panX = (canvas.panX + centre.x - io.MousePos.x) * k - (centre.x - io.MousePos.x);
        canvas.panY = (canvas.panY + centre.y - io.MousePos.y) * k - (centre.y - io.MousePos.y);
        canvas.zoom = newZoom;
        canvas.moved = true;
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 4.0f)) {
        canvas.panX += io.MouseDelta.x;
        canvas.panY += io.MouseDelta.y;
        canvas.moved = true;
    }
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        canvas.zoom = 1.0f;  // the whole array
        canvas.panX = canvas.panY = 0.0f;
        canvas.moved = true;
    }
    auto cellMin = [&](int x, int y) {
        return ImVec2{zero.x + cell * static_cast<float>(x), zero.y + cell * static_cast<float>(y)};
    };
    auto cellMax = [&](int x, int y) {
        return ImVec2{zero.x + cell * static_cast<float>(x + 1), zero.y + cell * static_cast<float>(y + 1)};
    };
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(origin, {origin.x + size.x, origin.y + size.y}, true);

    // Base, overlays and marks: the grid diagram (the SVG export draws the same).
    gfx::ColorMappedImage& base = m_overlays.heat ? canvas.heat : canvas.values;
    if (m_overlays.heat)
        m_context.legend.addColourBar("global reads of N", gfx::ColorMap::Sequential, 0.0f,
                                    static_cast<float>(std::max(canvas.maxReads, 1u)));
    DrawListCanvas target(draw, theme.mono, textureId(base.texture(m_colorMapper)));
    GridScene scene;
    scene.replay = &replay;
    scene.cursor = cursor;
    scene.thread = run.thread;
    scene.plane = &plane;
    scene.mapping = mapping;
    scene.maxReads = canvas.maxReads;
    scene.selectedOutput = session.selectedOutput();
    scene.problem = runIndex == 0 ? session.selectedProblem() : nullptr;
    const BlockRequests* requests = m_overlays.request ? session.requests(runIndex) : nullptr;
    if (const auto r = requests ? session.currentRequest(runIndex, isGlobalRequestOfN) : std::nullopt)
        scene.request = &requests->request(*r);
    GridPlacement placement;
    placement.zero = zero;
    placement.cell = cell;
    placement.viewMin = origin;
    placement.viewMax = {origin.x + size.x, origin.y + size.y};
    placement.lineWidth = theme.lineWidth;
    placement.monoSize = theme.fontPixels;
    const GridLegend shown = drawGridDiagram(target, palette, theme, scene, m_overlays, placement);
    // A lesson's marks: the cells the step points at, the cells of an answer.
    const LessonMarks* marks = runIndex == 0 ? m_lessons.marks() : nullptr;
    if (marks)
        drawLessonCellMarks(draw, theme, m_context.probe, "grid", *marks, [&](int x, int y, ImVec2& a, ImVec2& b) {
            const int row = trace.dims() == 2 ? y : 0;
            a = {zero.x + cell * static_cast<float>(x), zero.y + cell * static_cast<float>(row)};
            b = {a.x + cell, a.y + cell};
        });
    draw->PopClipRect();

    if (runIndex == 0) {
        m_context.probe.record("grid.cell0", cellMin(0, 0), cellMax(0, 0));
        m_context.probe.record("grid.view", origin, {origin.x + size.x, origin.y + size.y});
        // The request drawn: each sector's outline (its first run of cells) and the label.
        for (std::size_t k = 0; k < shown.sectorBoxes.size(); ++k)
            m_context.probe.record("grid.request.sector." + std::to_string(k), shown.sectorBoxes[k][0],
                                 shown.sectorBoxes[k][1]);
        if (!shown.requestText.empty())
            m_context.probe.record("grid.request.label", shown.requestLabel[0], shown.requestLabel[1], shown.requestText);
    }

    // Hover: the cell's value and what it is to the block; click: select.
    if (hovered) {
        const int hx = static_cast<int>(std::floor((io.MousePos.x - zero.x) / cell));
        const int hy = static_cast<int>(std::floor((io.MousePos.y - zero.y) / cell));
        if (hx >= -r && hx < width + r && hy >= -ry && hy < height + ry) {
            ImGui::BeginTooltip();
            const bool inside = hx >= 0 && hx < width && hy >= 0 && hy < height;
            if (trace.dims() == 2)
                ImGui::Text("N[%d][%d]", hy, hx);
            else
                ImGui::Text("N[%d]", hx);
            if (inside)
                ImGui::Text("value %s",
                            shortValue(plane.data[static_cast<std::size_t>(hy) * plane.width + hx]).c_str());
            else
                ImGui::TextUnformatted("a ghost cell: outside the array, 0 by definition");
            ImGui::Text("to block (%u,%u): %s", replay.block().x, replay.block().y,
                        cellKindName(replay.cellKind(hx, hy)));
            if (inside)
                ImGui::Text("read from global memory %u times by this block (%u so far)", replay.loadsOfCell(hx, hy),
                            replay.loadsOfCellBefore(hx, hy, cursor));
            const bool picking = marks && marks->pickingCells;
            ImGui::TextDisabled(picking ? "click: add this cell to your answer (again: take it out)"
                                        : "click: select the thread that computes P here");
            ImGui::EndTooltip();
            if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 16.0f) {
                if (picking)
                    m_lessons.toggleCell({hx, hy});
                else if (inside)
                    session.selectOutput(hx, hy);
            }
        }
    }
    ImGui::EndGroup();

    // The legend explains what is on screen.
    if (runIndex == 0) {
        for (const LegendSwatch& swatch : gridLegendSwatches(palette, shown, m_overlays)) {
            if (swatch.outline)
                m_context.legend.addOutline(swatch.colour, swatch.label);
            else
                m_context.legend.addSwatch(swatch.colour, swatch.label);
        }
        LegendPanel& legend = m_context.legend;
        if (marks && !marks->cells.empty())
            legend.addSwatch(palette.pointer, "the lesson points here (brackets)");
        if (marks && marks->grade && marks->expected && marks->expected->byCells) {
            legend.addSwatch(palette.answerRight, "your answer: right");
            legend.addSwatch(palette.answerWrong, "clicked, not loaded (crossed)");
            legend.addSwatch(palette.answerMissed, "loaded, not clicked (dashed)");
        } else if (marks && marks->expected && marks->expected->byCells) {
            legend.addSwatch(palette.answerRight, "the answer's cells");
        }
    }
}

}  // namespace tilescope::ui
