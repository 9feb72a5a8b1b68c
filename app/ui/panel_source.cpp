#include "ui/panel_source.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // RenderCheckMark: a check box one text line high

#include <algorithm>
#include <cfloat>
#include <string>
#include <string_view>
#include <vector>

#include "api/runner.hpp"
#include "core/kernel_catalogue.hpp"
#include "model/code_rows.hpp"
#include "model/setup_rules.hpp"
#include "model/trace_session.hpp"
#include "trace/sources.hpp"
#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"

namespace tilescope::ui {

void SourcePanel::draw(bool* open) {
    TraceSession& session = m_session;
    if (!beginStepThroughPanel("Source###source", open, session.replay() != nullptr, session))
        return;
    // In compare mode each kernel's source, one above the other, each at its
    // selected thread's line.
    m_struck = false;
    stackRuns(session, m_context.theme, [&](int i, float share) { drawRun(i, share); });
    if (m_struck)
        m_context.legend.addSwatch(m_context.theme.palette.problem, "__syncthreads() dropped (struck through)");
    ImGui::End();
}

void SourcePanel::drawRun(int i, float height) {
    TraceSession& session = m_session;
    const float top = ImGui::GetCursorScreenPos().y;
    const BlockReplay* replay = session.replay(i);
    if (!replay) {
        ImGui::TextDisabled("no trace yet");
        return;
    }
    const Theme& theme = m_context.theme;
    const Cursor cursor = session.cursor(i);
    const unsigned thread = session.selectedThread(i);
    const auto current = replay->currentEvent(thread, cursor);
    int line = 0;
    // The selected thread's current event, and the block's latest one, in words.
    if (current) {
        line = replay->events()[*current].line;
        ImGui::TextWrapped("%s", replay->describe(*current).c_str());
    } else {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("the selected thread has not started yet");
        ImGui::PopStyleColor();
    }
    // The block's latest event too, but not in lecture-hall mode, where the
    // room is the code's (the class follows the selected thread).
    if (cursor > 0 && cursor <= replay->size() && !m_context.theme.lecture) {
        const std::uint32_t last = replay->eventAt(cursor - 1);
        if (!current || last != *current) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("latest in the block: %s", replay->describe(last).c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::Separator();

    const std::string_view text = kernelSource(kernelOf(replay->trace().plan));
    // Barriers can be dropped in the set-up's own kernel (not in the one it
    // is compared with, nor in a trace file).
    const SetupState& setup = m_setup;
    const KernelInfo& traced = kernelOf(replay->trace().plan);
    const bool barriers = i == 0 && !session.showingFile() && setupKernel(setup.kernel, m_ownKernel()) == &traced;
    if (barriers && m_barrierKernel != &traced) {
        m_barrierKernel = &traced;  // a kernel file compiled again is registered anew
        m_barrierLines = barrierLines(traced);
    }
    const float codeHeight =
        std::max(ImGui::GetTextLineHeightWithSpacing() * 3.0f, height - (ImGui::GetCursorScreenPos().y - top));
    // Long lines wrap under their own first column (never cut at the
    // panel's edge), at blanks or between tokens, never inside one
    // (codeRowStarts); a token wider than the panel stays whole (the
    // layout probe reports it as clipped).
    ImGui::BeginChild("##code", {0, session.comparing() ? codeHeight : 0.0f}, ImGuiChildFlags_None);
    pushMonoFont(theme);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    // Unrounded (CalcTextSize rounds up), as ImGui's own word wrap measures.
    auto measure = [](std::string_view piece) {
        return ImGui::GetFont()
            ->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0.0f, piece.data(), piece.data() + piece.size())
            .x;
    };
    std::vector<std::size_t> rows;
    int& shownLine = m_shownLine[static_cast<std::size_t>(i)];
    float& shownHeight = m_shownHeight[static_cast<std::size_t>(i)];
    const bool resized = ImGui::GetWindowHeight() != shownHeight;
    shownHeight = ImGui::GetWindowHeight();
    int n = 1;
    for (std::size_t start = 0; start < text.size(); ++n) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view body = text.substr(start, end - start);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float codeX =
            ImGui::GetTextLineHeight() * 1.3f + ImGui::CalcTextSize("000").x + ImGui::GetStyle().ItemSpacing.x;
        const float wrapWidth = std::max(ImGui::GetContentRegionAvail().x - codeX, ImGui::GetFontSize() * 4.0f);
        // An indentation that leaves no room for the line's first word is drawn narrower.
        if (const std::size_t indent = std::min(body.find_first_not_of(" \t"), body.size());
            indent > 0 && indent < body.size()) {
            const std::size_t wordEnd = std::min(body.find_first_of(" \t", indent), body.size());
            const float room = wrapWidth - measure(body.substr(indent, wordEnd - indent));
            const std::size_t fits = room > 0.0f ? static_cast<std::size_t>(room / measure(" ")) : 0;
            body.remove_prefix(indent - std::min(indent, fits));
        }
        // In lecture-hall mode a line's further rows hang under its own
        // indentation, two spaces in, so that they read as one statement.
        float hang = 0.0f;
        if (theme.lecture) {
            const std::size_t indent = std::min(body.find_first_not_of(" \t"), body.size());
            hang = std::min(measure(body.substr(0, indent)) + measure("  "), wrapWidth * 0.5f);
            // No further in than leaves room for the line's longest word.
            for (std::size_t w = indent; w < body.size();) {
                const std::size_t e = std::min(body.find_first_of(" \t", w), body.size());
                hang = std::min(hang, wrapWidth - measure(body.substr(w, e - w)));
                w = std::min(body.find_first_not_of(" \t", e), body.size());
            }
            hang = std::max(hang, 0.0f);
        }
        rows = codeRowStarts(body, wrapWidth, measure, hang);
        const float rowHeight = ImGui::GetTextLineHeight();
        if (n == line) {
            draw->AddRectFilled(at,
                                {at.x + ImGui::GetWindowWidth(), at.y + rowHeight * static_cast<float>(rows.size())},
                                withAlpha(theme.palette.loadedByThread, 110));
            // (In lecture-hall mode, once the line is laid out, below.)
            if (line != shownLine && !theme.lecture)
                ImGui::SetScrollHereY(0.4f);
        }
        drawMargin(static_cast<unsigned>(n), barriers);
        ImGui::SameLine(0.0f, 0.0f);
        ImGui::TextDisabled("%3d", n);
        ImGui::SameLine();
        // The rows one under the other, one item, as wrapped text is laid out.
        const ImVec2 codeAt = ImGui::GetCursorScreenPos();
        auto row = [&](std::size_t k) {
            const std::size_t end = k + 1 < rows.size() ? rows[k + 1] : body.size();
            return body.substr(rows[k], end - rows[k]);
        };
        float widest = 0.0f;
        for (std::size_t k = 0; k < rows.size(); ++k) {
            std::string_view r = row(k);
            while (!r.empty() && (r.back() == ' ' || r.back() == '\t'))
                r.remove_suffix(1);
            widest = std::max(widest, (k ? hang : 0.0f) + measure(r));
            draw->AddText({codeAt.x + (k ? hang : 0.0f), codeAt.y + rowHeight * static_cast<float>(k)},
                          ImGui::GetColorU32(ImGuiCol_Text), r.data(), r.data() + r.size());
        }
        ImGui::Dummy({widest, rowHeight * static_cast<float>(rows.size())});
        // Lecture-hall mode's view of the code is a few rows high: the
        // current line itself in its middle, again when the view changes
        // height (the layout settling, the legend growing).
        if (n == line && theme.lecture && (line != shownLine || resized))
            ImGui::SetScrollHereY(0.5f);
        if (m_context.probe.enabled()) {
            // The line as its rows break it, for the tests: a newline where a row ends.
            std::string broken;
            for (std::size_t k = 0; k < rows.size(); ++k)
                broken += (k ? "\n" : "") + std::string(row(k));
            m_context.probe.record("source.code." + std::to_string(i) + "." + std::to_string(n), codeAt,
                                   {codeAt.x + widest, codeAt.y + rowHeight * static_cast<float>(rows.size())}, broken);
        }
        if (barriers && std::find(setup.droppedBarriers.begin(), setup.droppedBarriers.end(),
                                  static_cast<unsigned>(n)) != setup.droppedBarriers.end()) {
            // Dropped: the barrier struck through.
            const std::size_t at = body.find("__syncthreads()");
            if (at != std::string_view::npos) {
                // On the row that holds it.
                std::size_t k = 0;
                while (k + 1 < rows.size() && rows[k + 1] <= at)
                    ++k;
                const ImVec2 start = ImGui::GetItemRectMin();
                const float x0 =
                    start.x + (k ? hang : 0.0f) + ImGui::CalcTextSize(body.data() + rows[k], body.data() + at).x;
                const float x1 = x0 + ImGui::CalcTextSize("__syncthreads();").x;
                const float y = start.y + ImGui::GetTextLineHeight() * (static_cast<float>(k) + 0.55f);
                draw->AddLine({x0, y}, {x1, y}, theme.palette.problem, std::max(2.0f, theme.lineWidth * 2.0f));
                m_struck = true;
            }
        }
        start = end + 1;
    }
    shownLine = line;
    ImGui::PopFont();
    ImGui::EndChild();
}

void SourcePanel::drawMargin(unsigned line, bool barriers) {
    const float size = ImGui::GetTextLineHeight();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (!barriers || std::find(m_barrierLines.begin(), m_barrierLines.end(), line) == m_barrierLines.end()) {
        ImGui::Dummy({size * 1.3f, size});
        return;
    }
    SetupState& setup = m_setup;
    std::vector<unsigned>& dropped = setup.droppedBarriers;
    const auto it = std::find(dropped.begin(), dropped.end(), line);
    const bool kept = it == dropped.end();
    ImGui::PushID(static_cast<int>(line));
    // Drawn by hand, one text line high: a framed check box would make the line taller.
    if (ImGui::InvisibleButton("##barrier", {size * 1.3f, size})) {
        if (kept) {
            // The first barrier dropped: warps run last to first, which
            // shows the race (in order, a warp often finds its data in place).
            if (dropped.empty())
                setup.schedule = Schedule::Reverse;
            dropped.push_back(line);
            std::sort(dropped.begin(), dropped.end());
        } else {
            dropped.erase(it);
            if (dropped.empty())
                setup.schedule = Schedule::InOrder;
        }
    }
    const bool hovered = ImGui::IsItemHovered();
    ImGui::PopID();
    const Theme& theme = m_context.theme;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float inset = std::max(1.0f, size * 0.1f);
    const ImVec2 a{at.x + inset, at.y + inset}, b{at.x + size - inset, at.y + size - inset};
    const ImU32 ink = kept ? ImGui::GetColorU32(ImGuiCol_Text) : theme.palette.problem;
    draw->AddRectFilled(a, b, ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg));
    draw->AddRect(a, b, ink, 0.0f, std::max(1.0f, theme.lineWidth));
    if (kept)
        ImGui::RenderCheckMark(draw, {a.x + inset, a.y + inset}, ink, b.x - a.x - 2.0f * inset);
    m_context.probe.record("source.barrier." + std::to_string(line), a, b, kept ? "kept" : "dropped");
    if (hovered)
        ImGui::SetTooltip(kept ? "__syncthreads() on line %u: untick to drop it (a race demonstration)"
                               : "__syncthreads() on line %u is dropped: tick to put it back",
                          line);
}

}  // namespace tilescope::ui
