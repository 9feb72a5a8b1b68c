#include "ui/panel_source.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "trace/sources.hpp"
#include "ui/app.hpp"
#include "ui/trace_draw.hpp"
#include "ui/trace_session.hpp"

namespace tilescope::ui {

void SourcePanel::draw(bool* open) {
    TraceSession& session = m_app.traceSession();
    if (!beginStepThroughPanel("Source###source", open, session.replay() != nullptr, session))
        return;
    // In compare mode each kernel's source, one above the other, each at its
    // selected thread's line.
    stackRuns(session, m_app.theme().heading, [&](int i, float share) { drawRun(i, share); });
    ImGui::End();
}

void SourcePanel::drawRun(int i, float height) {
    TraceSession& session = m_app.traceSession();
    const float top = ImGui::GetCursorScreenPos().y;
    const BlockReplay* replay = session.replay(i);
    if (!replay) {
        ImGui::TextDisabled("no trace yet");
        return;
    }
    const Theme& theme = m_app.theme();
    const Cursor cursor = session.cursor(i);
    const unsigned thread = session.selectedThread(i);
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
    const float codeHeight =
        std::max(ImGui::GetTextLineHeightWithSpacing() * 3.0f, height - (ImGui::GetCursorScreenPos().y - top));
    ImGui::BeginChild("##code", {0, session.comparing() ? codeHeight : 0.0f}, false,
                      ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(theme.mono);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    int& shownLine = m_shownLine[static_cast<std::size_t>(i)];
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
            if (line != shownLine)
                ImGui::SetScrollHereY(0.4f);
        }
        ImGui::TextDisabled("%3d", n);
        ImGui::SameLine();
        ImGui::TextUnformatted(body.data(), body.data() + body.size());
        start = end + 1;
    }
    shownLine = line;
    ImGui::PopFont();
    ImGui::EndChild();
}

}  // namespace tilescope::ui
