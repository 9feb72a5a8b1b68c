#include "ui/grid_diagram.hpp"

#include "ui/widgets.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "model/memory_view.hpp"
#include "ui/image_view.hpp"

namespace tilescope::ui {

// [SECTION] The grid of N

GridLegend drawGridDiagram(DiagramCanvas& canvas, const Palette& palette, const Theme& theme, const GridScene& scene,
                           const GridOverlays& overlays, const GridPlacement& at) {
    GridLegend shown;
    const BlockReplay& replay = *scene.replay;
    const Trace& trace = replay.trace();
    const ArrayInfo& n = trace.arrays[kArrayInput];
    const Image& plane = *scene.plane;
    const int width = n.width, height = std::max(n.height, 1);
    const int r = trace.plan.radius;
    const int ry = trace.dims() == 2 ? r : 0;
    const float cell = at.cell;
    const float line = at.lineWidth;
    const BlockGeometry& g = replay.geometry();
    auto cellMin = [&](int x, int y) {
        return ImVec2{at.zero.x + cell * static_cast<float>(x), at.zero.y + cell * static_cast<float>(y)};
    };
    auto cellMax = [&](int x, int y) {
        return ImVec2{at.zero.x + cell * static_cast<float>(x + 1), at.zero.y + cell * static_cast<float>(y + 1)};
    };

    // Base: values or reads (per-cell data: a texture on screen).
    const gfx::ColorMap heatMap = gfx::ColorMap::Sequential;
    const float heatHigh = static_cast<float>(std::max(scene.maxReads, 1u));
    canvas.cells(cellMin(0, 0), cellMax(width - 1, height - 1), 0, 0, width, height, [&](int x, int y) -> ImU32 {
        if (overlays.heat) {
            const std::size_t i = static_cast<std::size_t>(y) * width + x;
            const float reads = i < scene.readsPerCell.size() ? scene.readsPerCell[i] : 0.0f;
            const gfx::Rgb8 c = gfx::colourOfValue(heatMap, reads, 0.0f, heatHigh);
            return IM_COL32(c.r, c.g, c.b, 255);
        }
        return scene.mapping.colour(plane.data[static_cast<std::size_t>(y) * plane.width + x]);
    });

    // The visible cells, for lines and labels.
    const int vx0 = std::max(-r, static_cast<int>(std::floor((at.viewMin.x - at.zero.x) / cell)));
    const int vy0 = std::max(-ry, static_cast<int>(std::floor((at.viewMin.y - at.zero.y) / cell)));
    const int vx1 = std::min(width + r, static_cast<int>(std::ceil((at.viewMax.x - at.zero.x) / cell)));
    const int vy1 = std::min(height + ry, static_cast<int>(std::ceil((at.viewMax.y - at.zero.y) / cell)));
    if (cell >= 8.0f) {
        for (int x = std::max(vx0, 0); x <= std::min(vx1, width); ++x)
            canvas.line(cellMin(x, 0), cellMin(x, height), palette.cellGrid, 1.0f);
        for (int y = std::max(vy0, 0); y <= std::min(vy1, height); ++y)
            canvas.line(cellMin(0, y), cellMin(width, y), palette.cellGrid, 1.0f);
    }

    const float band = std::max(2.0f, cell * 0.2f);
    if (overlays.tiles) {
        // Halo and ghost cells of the selected block: a band round the cell,
        // so that the value (or the heat) still shows in the middle.
        for (int y = g.footprint.y0; y < g.footprint.y1; ++y)
            for (int x = g.footprint.x0; x < g.footprint.x1; ++x) {
                const CellKind kind = replay.cellKind(x, y);
                const ImVec2 a = cellMin(x, y), b = cellMax(x, y);
                if (kind == CellKind::Halo) {
                    shown.halo = true;
                    canvas.rect({a.x + band * 0.5f, a.y + band * 0.5f}, {b.x - band * 0.5f, b.y - band * 0.5f},
                                palette.halo, band);
                } else if (kind == CellKind::Ghost || kind == CellKind::PastEnd) {
                    const GhostHandling h = replay.ghostHandling(x, y);
                    if (h == GhostHandling::StoredZero) {
                        shown.stored = true;
                        canvas.rectFilled(a, b, palette.ghost);
                        if (cell >= 18.0f)
                            cellLabel(canvas, at.monoSize, a, b, "0", textOver(palette.ghost));
                    } else {
                        shown.skipped = true;
                        canvas.rect({a.x + band * 0.5f, a.y + band * 0.5f}, {b.x - band * 0.5f, b.y - band * 0.5f},
                                    palette.ghost, band);
                        canvas.line({a.x + band, a.y + band}, {b.x - band, b.y - band}, palette.ghost, line * 1.5f);
                    }
                }
            }
        // Cells of the input tile outside the footprint (past the end) are
        // part of the tile too: the tile outline covers them.
    }

    // The warp's request: its lanes' elements filled (under the loads' marks),
    // the cell lines drawn again over the fill; their values in black or white over it.
    std::vector<SectorRun> runs;
    std::vector<std::int64_t> requested;  // y * width + x of each element, sorted
    if (overlays.request && scene.request) {
        shown.request = true;
        const WarpRequest& q = *scene.request;
        const std::span<const Event> events = replay.events();
        for (std::uint32_t e : q.events) {
            const ArrayInfo::Coords c = n.coords(events[e].index);
            if (c.x >= width || c.y >= height)
                continue;
            requested.push_back(static_cast<std::int64_t>(c.y) * width + c.x);
            const ImVec2 a = cellMin(c.x, c.y), b = cellMax(c.x, c.y);
            canvas.rectFilled(a, b, palette.request);
            if (cell >= 8.0f)
                canvas.rect(a, b, palette.cellGrid, 1.0f);
        }
        std::sort(requested.begin(), requested.end());
        runs = sectorRuns(n, q, events);
    }
    auto inRequest = [&](int x, int y) {
        return std::binary_search(requested.begin(), requested.end(), static_cast<std::int64_t>(y) * width + x);
    };

    // Loads so far: the block's (small square) and the selected thread's (ring).
    if (overlays.loads && cell >= 4.0f) {
        const float dot = std::max(2.0f, cell * 0.16f);
        for (int y = g.footprint.y0; y < g.footprint.y1; ++y)
            for (int x = g.footprint.x0; x < g.footprint.x1; ++x)
                if (replay.loadedBefore(x, y, scene.cursor)) {
                    shown.blockLoad = true;
                    const ImVec2 a = cellMin(x, y), b = cellMax(x, y);
                    const ImVec2 m{(a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f};
                    canvas.rectFilled({m.x - dot, m.y - dot}, {m.x + dot, m.y + dot}, palette.loadedByBlock);
                }
        for (const ArrayInfo::Coords& c : replay.cellsLoadedBy(scene.thread, scene.cursor)) {
            shown.threadLoad = true;
            const ImVec2 a = cellMin(c.x, c.y), b = cellMax(c.x, c.y);
            const ImVec2 m{(a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f};
            canvas.circle(m, cell * 0.3f, palette.loadedByThread, std::max(2.0f, cell * 0.08f));
        }
    }

    // Values, when the cells are large enough to read.
    if (cell >= 2.4f * at.monoSize && !overlays.heat) {
        for (int y = std::max(vy0, 0); y < std::min(vy1, height); ++y)
            for (int x = std::max(vx0, 0); x < std::min(vx1, width); ++x) {
                const float v = plane.data[static_cast<std::size_t>(y) * plane.width + x];
                // Only whole cells: a label cut by the view's edge reads as another number.
                const ImVec2 a = cellMin(x, y), b = cellMax(x, y);
                if (a.x < at.viewMin.x || a.y < at.viewMin.y || b.x > at.viewMax.x || b.y > at.viewMax.y)
                    continue;
                cellLabel(canvas, at.monoSize, cellMin(x, y), cellMax(x, y), shortValue(v).c_str(),
                          textOver(inRequest(x, y) ? palette.request : scene.mapping.colour(v)));
            }
    }

    // The grid of blocks: every block's output tile, thin.
    if (overlays.blocks) {
        for (unsigned by = 0; by < trace.plan.grid.y; ++by)
            for (unsigned bx = 0; bx < trace.plan.grid.x; ++bx) {
                const Rect t = blockGeometry(trace.plan, Dim3{bx, by, 0}).computed;
                canvas.rect(cellMin(t.x0, t.y0), cellMin(t.x1, t.y1), withAlpha(palette.frame, 150), line);
            }
    }
    // The array's border.
    canvas.rect(cellMin(0, 0), cellMin(width, height), palette.frame, line * 2.0f);
    // The selected block's tiles, thick.
    if (overlays.tiles) {
        if (!g.inputTile.empty())
            canvas.rect(cellMin(g.inputTile.x0, g.inputTile.y0), cellMin(g.inputTile.x1, g.inputTile.y1),
                        palette.inputTile, line * 3.0f);
        canvas.rect(cellMin(g.computed.x0, g.computed.y0), cellMin(g.computed.x1, g.computed.y1), palette.outputTile,
                    line * 3.0f);
    }
    // The selected output element.
    if (scene.selectedOutput) {
        const int sy = trace.dims() == 2 ? (*scene.selectedOutput)[1] : 0;
        const int sx = (*scene.selectedOutput)[0];
        canvas.rect(cellMin(sx, sy), cellMax(sx, sy), palette.selection, line * 3.0f);
    }
    // The selected problem, when it is in this block: the cell of N its
    // element stands for, outlined; each of its threads, at the cell it
    // loads, framed inside.
    if (const ProblemReport* problem = scene.problem) {
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
                problemOutline(canvas, theme, cellMin(element->x, element->y), cellMax(element->x, element->y),
                               palette.problem, thick);
                shown.problemElement = true;
            }
            for (const std::optional<unsigned>& t : {marked.first, marked.second}) {
                if (!t)
                    continue;
                if (const auto home = homeInputCell(replay, *t)) {
                    const ImVec2 a = cellMin(home->x, home->y), b = cellMax(home->x, home->y);
                    const float inset = thick * 1.5f;
                    problemOutline(canvas, theme, {a.x + inset, a.y + inset}, {b.x - inset, b.y - inset},
                                   palette.problemArrow, thick);
                    shown.problemThreads = true;
                }
            }
        }
    }
    // The request's sectors, over everything: each run of a sector's cells
    // outlined, over a casing that keeps it visible on any fill; then its label.
    if (shown.request) {
        const float thick = std::max(2.0f, std::min(cell * 0.12f, line * 2.5f));
        const float casing = std::max(1.0f, line);
        std::int64_t lastSector = -1;
        float top = 1e30f, bottom = -1e30f, left = 1e30f;
        for (const SectorRun& run : runs) {
            const ImVec2 a = cellMin(run.x0, run.y), b = cellMax(run.x1 - 1, run.y);
            canvas.rect(a, b, palette.sectorCasing, thick + 2.0f * casing);
            if (run.sector != lastSector) {
                shown.sectorBoxes.push_back({a, b});
                lastSector = run.sector;
            }
            top = std::min(top, a.y);
            bottom = std::max(bottom, b.y);
            left = std::min(left, a.x);
        }
        for (const SectorRun& run : runs)
            canvas.rect(cellMin(run.x0, run.y), cellMax(run.x1 - 1, run.y), palette.sector, thick);
        // "request: 6 sectors, 67% used" above the request (below it when the view has no room above).
        if (!runs.empty()) {
            shown.requestText = "request: " + sectorSummary(*scene.request);
            const float size = at.monoSize;
            const ImVec2 extent = canvas.textSize(size, shown.requestText.c_str());
            const float pad = std::max(2.0f, size * 0.25f);
            const float w = extent.x + 2.0f * pad, h = extent.y + 2.0f * pad;
            float y = top - h - casing * 2.0f - thick;
            if (y < at.viewMin.y)
                y = bottom + casing * 2.0f + thick;
            y = std::clamp(y, at.viewMin.y, std::max(at.viewMin.y, at.viewMax.y - h));
            const float x = std::clamp(left, at.viewMin.x, std::max(at.viewMin.x, at.viewMax.x - w));
            canvas.rectFilled({x, y}, {x + w, y + h}, palette.sectorCasing);
            canvas.rect({x, y}, {x + w, y + h}, palette.sector, std::max(1.0f, line));
            canvas.text({x + pad, y + pad}, size, shown.requestText.c_str(), palette.sector);
            shown.requestLabel = {ImVec2{x, y}, ImVec2{x + w, y + h}};
        }
    }
    return shown;
}

std::vector<LegendSwatch> gridLegendSwatches(const Palette& palette, const GridLegend& shown,
                                             const GridOverlays& overlays) {
    std::vector<LegendSwatch> swatches;
    if (overlays.tiles) {
        swatches.push_back({palette.inputTile, "input tile"});
        swatches.push_back({palette.outputTile, "output tile"});
        if (shown.halo)
            swatches.push_back({palette.halo, "halo"});
        if (shown.stored)
            swatches.push_back({palette.ghost, "ghost, stored 0"});
        if (shown.skipped)
            swatches.push_back({palette.ghost, "ghost, load skipped (crossed)"});
    }
    if (shown.blockLoad)
        swatches.push_back({palette.loadedByBlock, "loaded by the block"});
    if (shown.threadLoad)
        swatches.push_back({palette.loadedByThread, "loaded by the thread (ring)"});
    if (shown.request) {
        swatches.push_back({palette.request, kRequestLabel});
        swatches.push_back({palette.sector, kSectorLabel, true});
    }
    if (shown.problemElement)
        swatches.push_back({palette.problem, kProblemElementLabel});
    if (shown.problemThreads)
        swatches.push_back({palette.problemArrow, kProblemThreadsLabel});
    return swatches;
}

std::vector<float> inputReadsPerCell(const TraceModel& model, unsigned& maxReads) {
    const ArrayInfo& n = model.trace().arrays[kArrayInput];
    const int width = n.width, height = std::max(n.height, 1);
    const std::vector<std::uint32_t> reads = model.inputReadCounts();
    std::vector<float> perCell(static_cast<std::size_t>(width) * height, 0.0f);
    for (std::size_t i = 0; i < reads.size(); ++i) {
        const ArrayInfo::Coords c = n.coords(static_cast<int>(i));
        if (c.x < width && c.y < height)
            perCell[static_cast<std::size_t>(c.y) * width + c.x] += static_cast<float>(reads[i]);
    }
    maxReads = 0;
    for (float v : perCell)
        maxReads = std::max(maxReads, static_cast<unsigned>(v));
    return perCell;
}

Rect blockFraming(const BlockReplay& replay) {
    return replay.geometry().footprint.grown(2, replay.trace().dims() == 2 ? 2 : 0);
}

}  // namespace tilescope::ui
