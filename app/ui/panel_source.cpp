#include "ui/panel_source.hpp"

#include <imgui.h>

#include <string>
#include <string_view>

#include "trace/sources.hpp"
#include "ui/app.hpp"
#include "ui/trace_draw.hpp"
#include "ui/trace_session.hpp"

namespace tilescope::ui {

void SourcePanel::draw(bool* open) {
    TraceSession& session = m_app.traceSession();
    const BlockReplay* replay = session.replay();
    if (!beginStepThroughPanel("Source###source", open, replay != nullptr, session))
        return;
    const Theme& theme = m_app.theme();
    const Cursor cursor = session.cursor();
    const unsigned thread = session.selectedThread();
    const auto current = replay->currentEvent(thread, cursor);
    int line = 0;
    // The selected thread's current event, and the block's latest one, in words.
    if (current) {
        line = replay->events()[*current].line;
        ImGui::TextWrapped("%s", replay->describe(*current).c_str());
    } else {
        ImGui::TextDisabled("the selected thread has not started yet");
    }
    if (cursor > 0 && cursor <= replay->size()) {
        const std::uint32_t last = replay->eventAt(cursor - 1);
        if (!current || last != *current)
            ImGui::TextDisabled("latest in the block: %s", replay->describe(last).c_str());
    }
    ImGui::Separator();

    const std::string_view text = kernelSource(replay->trace().plan.kernel);
    ImGui::BeginChild("##code", {0, 0}, false, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(theme.mono);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    int n = 1;
    for (std::size_t start = 0; start < text.size(); ++n) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view body = text.substr(start, end - start);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        if (n == line) {
            draw->AddRectFilled(
                at, {at.x + ImGui::GetWindowWidth() + ImGui::GetScrollX(), at.y + ImGui::GetTextLineHeight()},
                withAlpha(theme.palette.loadedByThread, 110));
            if (line != m_shownLine)
                ImGui::SetScrollHereY(0.4f);
        }
        ImGui::TextDisabled("%3d", n);
        ImGui::SameLine();
        ImGui::TextUnformatted(body.data(), body.data() + body.size());
        start = end + 1;
    }
    m_shownLine = line;
    ImGui::PopFont();
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace tilescope::ui
