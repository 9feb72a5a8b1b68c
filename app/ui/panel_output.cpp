#include "ui/panel_output.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "model/trace_session.hpp"
#include "ui/image_view.hpp"
#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

void OutputPanel::draw(bool* open) {
    TraceSession& session = m_session;
    const BlockReplay* replay = session.replay();
    const TracedRun& run = session.run(0);
    if (!beginStepThroughPanel("Output P###output", open, replay && run.outcome && run.outcome->result, session))
        return;
    const Theme& theme = m_context.theme;
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
    if (run.outcome->wrongCount > 0) {
        char text[160];
        // Cells here are a unit or more: the count alone decides whether they are marked.
        const bool marked = markWrongOutputs(run.outcome->wrongPixels.size(), 1.0f);
        std::snprintf(text, sizeof text, "%zu of %zu outputs differ from the reference%s%s", run.outcome->wrongCount,
                      output.data.size(), marked ? " (outlined)" : "",
                      run.outcome->nanCount ? "; grey: not a number" : "");
        colouredText(theme.palette.error, text);
        m_context.probe.record("output.wrong", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), text);
    }
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
            // Not a number (a race can leave shared memory's NaN in P): no colour of the map.
            const bool nan = std::isnan(*v);
            const ImU32 fill = nan ? IM_COL32(90, 90, 90, 255) : mapping.colour(*v);
            draw->AddRectFilled(a, b, fill);
            if (cell >= theme.fontPixels * 2.2f)
                cellLabel(draw, theme, a, b, nan ? "NaN" : shortValue(*v).c_str(), textOver(fill));
        }
    draw->AddRect({origin.x + cell * g.computed.x0, origin.y + cell * g.computed.y0},
                  {origin.x + cell * g.computed.x1, origin.y + cell * g.computed.y1}, palette.outputTile, 0.0f,
                  std::max(2.0f, theme.lineWidth * 2.0f));
    draw->AddRect(origin, {origin.x + cell * width, origin.y + cell * height}, palette.frame, 0.0f, theme.lineWidth);
    m_context.probe.record("output.cell0", origin, {origin.x + cell, origin.y + cell}, std::to_string(width));
    // Every output that differs from the reference (in any block: the whole
    // launch ran), outlined over whatever the cursor has drawn so far.
    const std::vector<std::uint32_t>& wrong = run.outcome->wrongPixels;
    if (!wrong.empty() && output.width == width && markWrongOutputs(wrong.size(), cell)) {
        for (std::uint32_t pixel : wrong) {
            const int x = static_cast<int>(pixel % static_cast<std::uint32_t>(width));
            const int y = static_cast<int>(pixel / static_cast<std::uint32_t>(width));
            const ImVec2 a{origin.x + cell * x, origin.y + cell * y};
            wrongOutputMark(draw, theme, a, {a.x + cell, a.y + cell});
        }
        m_context.legend.addSwatch(palette.problem, kWrongOutputLabel);
    }
    m_context.probe.recordWindow("output.window");
    ImGui::End();
}

}  // namespace tilescope::ui
