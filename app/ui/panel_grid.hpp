// The grid view of N: the input array as cells (values when zoomed in), with
// pan and zoom (the ImGui demo's image-viewer model), the array's border and
// the ghost cells outside it, the grid of blocks, and the selected block's
// overlays: input tile, output tile, halo, ghost cells (stored 0 or skipped),
// the cells loaded so far by the selected thread and by the whole block, and
// a heat map of global reads per element. A click selects the output element
// under it, and with it the block and thread that compute it. In compare mode
// the two kernels' grids stand side by side.
#pragma once

#include <imgui.h>

#include <array>
#include <vector>

#include "gfx/texture.hpp"
#include "trace/trace_index.hpp"
#include "ui/grid_diagram.hpp"
#include "ui/panel.hpp"

namespace tilescope::ui {

class TraceSession;
class LessonPlayer;

class GridPanel : public Panel {
public:
    GridPanel(PanelContext context, TraceSession& session, LessonPlayer& lessons, gfx::ColorMapper& colorMapper,
              GridOverlays& overlays)
        : m_context(context), m_session(session), m_lessons(lessons), m_colorMapper(colorMapper),
          m_overlays(overlays) {}
    void draw(bool* open) override;

private:
    struct Canvas {
        const TraceModel* uploadedFor = nullptr;
        gfx::ColorMappedImage values;
        gfx::ColorMappedImage heat;
        unsigned maxReads = 0;
        float zoom = 1.0f;
        float panX = 0.0f, panY = 0.0f;
        const BlockReplay* framed = nullptr;  // the block the view last zoomed to
        ImVec2 framedSize{0.0f, 0.0f};        // ...in a view of this size (compare mode halves it)
        bool moved = false;                   // zoomed or panned by the user since
        std::vector<std::array<int, 2>> framedMarks;  // the lesson's pointed-at cells it framed too
    };
    void drawCanvas(int run, ImVec2 size);

    PanelContext m_context;
    TraceSession& m_session;
    LessonPlayer& m_lessons;  // the cells a lesson's step points at; a question answered by clicking cells
    gfx::ColorMapper& m_colorMapper;
    // The overlays' switches as the user leaves them: held outside, because the SVG export draws the same.
    GridOverlays& m_overlays;
    std::array<Canvas, 2> m_canvas;
    bool m_zoomToBlock = true;
};

}  // namespace tilescope::ui
