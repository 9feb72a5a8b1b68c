#include "ui/panel_output.hpp"

#include <imgui.h>

#include <algorithm>

#include "ui/app.hpp"
#include "ui/image_view.hpp"
#include "ui/trace_draw.hpp"
#include "ui/trace_session.hpp"

namespace tilescope::ui {

void OutputPanel::draw(bool* open) {
    TraceSession& session = m_app.traceSession();
    const BlockReplay* replay = session.replay();
    const TracedRun& run = session.run(0);
    if (!beginStepThroughPanel("Output P###output", open, replay && run.outcome && run.outcome->result, session))
        return;
    const Theme& theme = m_app.theme();
    const Palette& palette = theme.palette;
    const Cursor cursor = session.cursor();
    const BlockGeometry& g = replay->geometry();
    const Image& output = run.outcome->result->output;
    const ValueMapping mapping = mappingOf(output.data);
    const int width = std::max(1, g.array.width()), height = std::max(1, g.array.height());
    if (replay->trace().dims() == 2)
        ImGui::Text("block (%u,%u) writes rows %d-%d, columns %d-%d of P", replay->block().x, replay->block().y,
                    g.computed.y0, g.computed.y1 - 1, g.computed.x0, g.computed.x1 - 1);
    else
        ImGui::Text("block %u writes P[%d] to P[%d]", replay->block().x, g.computed.x0, g.computed.x1 - 1);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float cell = std::clamp(std::min(avail.x / static_cast<float>(width), avail.y / static_cast<float>(height)),
                                  1.0f, theme.fontPixels * 3.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Dummy({cell * static_cast<float>(width), cell * static_cast<float>(height)});
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, {origin.x + cell * width, origin.y + cell * height}, IM_COL32(40, 40, 40, 255));
    for (int y = g.computed.y0; y < g.computed.y1; ++y)
        for (int x = g.computed.x0; x < g.computed.x1; ++x) {
            const auto v = replay->outputAt(x, y, 0, cursor);
            if (!v)
                continue;
            const ImVec2 a{origin.x + cell * x, origin.y + cell * y}, b{a.x + cell, a.y + cell};
            const ImU32 fill = mapping.colour(*v);
            draw->AddRectFilled(a, b, fill);
            if (cell >= theme.fontPixels * 2.2f)
                cellLabel(draw, theme, a, b, shortValue(*v).c_str(), textOver(fill));
        }
    draw->AddRect({origin.x + cell * g.computed.x0, origin.y + cell * g.computed.y0},
                  {origin.x + cell * g.computed.x1, origin.y + cell * g.computed.y1}, palette.outputTile, 0.0f, 0,
                  std::max(2.0f, theme.lineWidth * 2.0f));
    draw->AddRect(origin, {origin.x + cell * width, origin.y + cell * height}, palette.frame, 0.0f, 0, theme.lineWidth);
    ImGui::End();
}

}  // namespace tilescope::ui
