#include "ui/panel_grid.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ui/app.hpp"
#include "ui/image_view.hpp"
#include "ui/panel_legend.hpp"
#include "ui/trace_draw.hpp"
#include "ui/trace_session.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

void GridPanel::draw(bool* open) {
    if (!ImGui::Begin("Grid of N###grid", open)) {
        ImGui::End();
        return;
    }
    TraceSession& session = m_app.traceSession();
    const Theme& theme = m_app.theme();
    if (drawSteppingBar(session, theme, m_app.probe())) {
        // The overlays' switches in a popup: the canvas keeps the room (lecture mode).
        if (ImGui::Button("Overlays..."))
            ImGui::OpenPopup("overlays");
        ImGui::SameLine();
        ImGui::TextDisabled("wheel: zoom, drag: pan, click: select");
        if (ImGui::BeginPopup("overlays")) {
            ImGui::Checkbox("tiles, halo, ghosts", &m_tiles);
            ImGui::Checkbox("loaded so far (block: square, thread: ring)", &m_loads);
            ImGui::Checkbox("the grid of blocks", &m_blocks);
            ImGui::Checkbox("heat map of global reads", &m_heat);
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
    ImGui::End();
}

void GridPanel::drawCanvas(int runIndex, ImVec2 size) {
    TraceSession& session = m_app.traceSession();
    TracedRun& run = session.run(runIndex);
    const Theme& theme = m_app.theme();
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
        const std::vector<std::uint32_t> reads = model.inputReadCounts();
        std::vector<float> perCell(static_cast<std::size_t>(width) * height, 0.0f);
        canvas.maxReads = 0;
        for (std::size_t i = 0; i < reads.size(); ++i) {
            const ArrayInfo::Coords c = n.coords(static_cast<int>(i));
            if (c.x < width && c.y < height)
                perCell[static_cast<std::size_t>(c.y) * width + c.x] += static_cast<float>(reads[i]);
        }
        for (float v : perCell)
            canvas.maxReads = std::max(canvas.maxReads, static_cast<unsigned>(v));
        (void)canvas.heat.setData(width, height, 1, perCell.data());
        canvas.heat.setMapping(gfx::ColorMap::Sequential, 0.0f, static_cast<float>(std::max(canvas.maxReads, 1u)));
    }

    // The view: the array and a margin of r cells (the ghosts) all round.
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float spanX = static_cast<float>(width + 2 * r + 2), spanY = static_cast<float>(height + 2 * ry + 2);
    const float fit = std::max(1.0f, std::min(size.x / spanX, size.y / spanY));
    // A new block (or a new trace): zoom to its input footprint, so that the
    // tiles, halo and ghosts are large enough to read on a projector.
    const BlockGeometry& g = replay.geometry();
    // The view's size changes when a second kernel's trace arrives (compare
    // mode) or the window is resized before the user has zoomed: frame again.
    const bool resized = canvas.framedSize.x != size.x || canvas.framedSize.y != size.y;
    if ((canvas.framed != &replay || (resized && !canvas.moved)) && m_zoomToBlock) {
        canvas.framed = &replay;
        canvas.framedSize = size;
        canvas.moved = false;
        const Rect f = g.footprint.grown(2, trace.dims() == 2 ? 2 : 0);
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
    const float line = theme.lineWidth;

    // Base: values or reads, as a texture (per-cell data through the shader).
    gfx::ColorMappedImage& base = m_heat ? canvas.heat : canvas.values;
    beginOwnTextureFiltering(draw);
    draw->AddImage(textureId(base.texture(m_app.colorMapper())), cellMin(0, 0), cellMax(width - 1, height - 1));
    endOwnTextureFiltering(draw);
    if (m_heat)
        m_app.legend().addColourBar("global reads of N", gfx::ColorMap::Sequential, 0.0f,
                                    static_cast<float>(std::max(canvas.maxReads, 1u)));

    // The visible cells, for lines and labels.
    const int vx0 = std::max(-r, static_cast<int>(std::floor((origin.x - zero.x) / cell)));
    const int vy0 = std::max(-ry, static_cast<int>(std::floor((origin.y - zero.y) / cell)));
    const int vx1 = std::min(width + r, static_cast<int>(std::ceil((origin.x + size.x - zero.x) / cell)));
    const int vy1 = std::min(height + ry, static_cast<int>(std::ceil((origin.y + size.y - zero.y) / cell)));
    if (cell >= 8.0f) {
        for (int x = std::max(vx0, 0); x <= std::min(vx1, width); ++x)
            draw->AddLine(cellMin(x, 0), cellMin(x, height), palette.cellGrid);
        for (int y = std::max(vy0, 0); y <= std::min(vy1, height); ++y)
            draw->AddLine(cellMin(0, y), cellMin(width, y), palette.cellGrid);
    }

    const float band = std::max(2.0f, cell * 0.2f);
    bool anyHalo = false, anyStored = false, anySkipped = false;
    if (m_tiles) {
        // Halo and ghost cells of the selected block: a band round the cell,
        // so that the value (or the heat) still shows in the middle.
        for (int y = g.footprint.y0; y < g.footprint.y1; ++y)
            for (int x = g.footprint.x0; x < g.footprint.x1; ++x) {
                const CellKind kind = replay.cellKind(x, y);
                const ImVec2 a = cellMin(x, y), b = cellMax(x, y);
                if (kind == CellKind::Halo) {
                    anyHalo = true;
                    draw->AddRect({a.x + band * 0.5f, a.y + band * 0.5f}, {b.x - band * 0.5f, b.y - band * 0.5f},
                                  palette.halo, 0.0f, band);
                } else if (kind == CellKind::Ghost || kind == CellKind::PastEnd) {
                    const GhostHandling h = replay.ghostHandling(x, y);
                    if (h == GhostHandling::StoredZero) {
                        anyStored = true;
                        draw->AddRectFilled(a, b, palette.ghost);
                        if (cell >= 18.0f)
                            cellLabel(draw, theme, a, b, "0", textOver(palette.ghost));
                    } else {
                        anySkipped = true;
                        draw->AddRect({a.x + band * 0.5f, a.y + band * 0.5f}, {b.x - band * 0.5f, b.y - band * 0.5f},
                                      palette.ghost, 0.0f, band);
                        draw->AddLine({a.x + band, a.y + band}, {b.x - band, b.y - band}, palette.ghost, line * 1.5f);
                    }
                }
            }
        // Cells of the input tile outside the footprint (past the end) are
        // part of the tile too: the tile outline covers them.
    }

    // Loads so far: the block's (small square) and the selected thread's (ring).
    bool anyBlockLoad = false, anyThreadLoad = false;
    if (m_loads && cell >= 4.0f) {
        const float dot = std::max(2.0f, cell * 0.16f);
        for (int y = g.footprint.y0; y < g.footprint.y1; ++y)
            for (int x = g.footprint.x0; x < g.footprint.x1; ++x)
                if (replay.loadedBefore(x, y, cursor)) {
                    anyBlockLoad = true;
                    const ImVec2 a = cellMin(x, y), b = cellMax(x, y);
                    const ImVec2 m{(a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f};
                    draw->AddRectFilled({m.x - dot, m.y - dot}, {m.x + dot, m.y + dot}, palette.loadedByBlock);
                }
        for (const ArrayInfo::Coords& c : replay.cellsLoadedBy(run.thread, cursor)) {
            anyThreadLoad = true;
            const ImVec2 a = cellMin(c.x, c.y), b = cellMax(c.x, c.y);
            const ImVec2 m{(a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f};
            draw->AddCircle(m, cell * 0.3f, palette.loadedByThread, 0, std::max(2.0f, cell * 0.08f));
        }
    }

    // Values, when the cells are large enough to read.
    if (cell >= 2.4f * theme.fontPixels && !m_heat) {
        for (int y = std::max(vy0, 0); y < std::min(vy1, height); ++y)
            for (int x = std::max(vx0, 0); x < std::min(vx1, width); ++x) {
                const float v = plane.data[static_cast<std::size_t>(y) * plane.width + x];
                cellLabel(draw, theme, cellMin(x, y), cellMax(x, y), shortValue(v).c_str(),
                          textOver(mapping.colour(v)));
            }
    }

    // The grid of blocks: every block's output tile, thin.
    if (m_blocks) {
        for (unsigned by = 0; by < trace.plan.grid.y; ++by)
            for (unsigned bx = 0; bx < trace.plan.grid.x; ++bx) {
                const Rect t = blockGeometry(trace.plan, Dim3{bx, by, 0}).computed;
                draw->AddRect(cellMin(t.x0, t.y0), cellMin(t.x1, t.y1), withAlpha(palette.frame, 150), 0.0f, line);
            }
    }
    // The array's border.
    draw->AddRect(cellMin(0, 0), cellMin(width, height), palette.frame, 0.0f, line * 2.0f);
    // The selected block's tiles, thick.
    if (m_tiles) {
        if (!g.inputTile.empty())
            draw->AddRect(cellMin(g.inputTile.x0, g.inputTile.y0), cellMin(g.inputTile.x1, g.inputTile.y1),
                          palette.inputTile, 0.0f, line * 3.0f);
        draw->AddRect(cellMin(g.computed.x0, g.computed.y0), cellMin(g.computed.x1, g.computed.y1), palette.outputTile,
                      0.0f, line * 3.0f);
    }
    // The selected output element.
    if (const auto sel = session.selectedOutput()) {
        const int sy = trace.dims() == 2 ? (*sel)[1] : 0;
        draw->AddRect(cellMin((*sel)[0], sy), cellMax((*sel)[0], sy), palette.selection, 0.0f, line * 3.0f);
    }
    // The selected problem, when it is in this block: the cell of N its
    // element stands for, outlined; each of its threads, at the cell it
    // loads, framed inside.
    bool problemElement = false, problemThreadsShown = false;
    if (const ProblemReport* problem = runIndex == 0 ? session.selectedProblem() : nullptr) {
        const ProblemThreads marked = problemThreads(*problem, replay);
        if (marked.any()) {
            const float thick = std::max(2.0f, std::min(cell * 0.16f, line * 3.0f));
            std::optional<ArrayInfo::Coords> element;
            if (problem->array == kArrayShared && problem->index >= 0 && problem->index < replay.sharedSize()) {
                ArrayInfo::Coords c{};
                replay.sharedCell(problem->index, c.x, c.y);
                element = c;
            } else if (problem->array == kArrayInput && problem->index >= 0 && problem->index < n.size) {
                element = n.coords(problem->index);
            }
            if (element) {
                problemOutline(draw, theme, cellMin(element->x, element->y), cellMax(element->x, element->y),
                               palette.problem, thick);
                problemElement = true;
            }
            for (const std::optional<unsigned>& t : {marked.first, marked.second}) {
                if (!t)
                    continue;
                if (const auto home = homeInputCell(replay, *t)) {
                    const ImVec2 a = cellMin(home->x, home->y), b = cellMax(home->x, home->y);
                    const float inset = thick * 1.5f;
                    problemOutline(draw, theme, {a.x + inset, a.y + inset}, {b.x - inset, b.y - inset},
                                   palette.problemArrow, thick);
                    problemThreadsShown = true;
                }
            }
        }
    }
    draw->PopClipRect();

    if (runIndex == 0) {
        m_app.probe().record("grid.cell0", cellMin(0, 0), cellMax(0, 0));
        m_app.probe().record("grid.view", origin, {origin.x + size.x, origin.y + size.y});
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
            ImGui::TextDisabled("click: select the thread that computes P here");
            ImGui::EndTooltip();
            if (inside && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 16.0f)
                session.selectOutput(hx, hy);
        }
    }
    ImGui::EndGroup();

    // The legend explains what is on screen.
    if (runIndex == 0) {
        LegendPanel& legend = m_app.legend();
        if (m_tiles) {
            legend.addSwatch(palette.inputTile, "input tile");
            legend.addSwatch(palette.outputTile, "output tile");
            if (anyHalo)
                legend.addSwatch(palette.halo, "halo");
            if (anyStored)
                legend.addSwatch(palette.ghost, "ghost, stored 0");
            if (anySkipped)
                legend.addSwatch(palette.ghost, "ghost, load skipped (crossed)");
        }
        if (anyBlockLoad)
            legend.addSwatch(palette.loadedByBlock, "loaded by the block");
        if (anyThreadLoad)
            legend.addSwatch(palette.loadedByThread, "loaded by the thread (ring)");
        if (problemElement)
            legend.addSwatch(palette.problem, kProblemElementLabel);
        if (problemThreadsShown)
            legend.addSwatch(palette.problemArrow, kProblemThreadsLabel);
    }
}

}  // namespace tilescope::ui
