#include "ui/panel_problems.hpp"

#include <imgui.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "model/trace_session.hpp"
#include "trace/problems.hpp"
#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

constexpr const char* kClean =
    "no problems found: every shared access is ordered by a barrier, nothing outside the arrays, the output matches "
    "the reference";
constexpr const char* kCleanBlocks =
    "no problems found in what was checked: every shared access is ordered by a barrier, nothing outside the arrays";

// Wrapped text with a bar at its left in `bar` (the selected problem).
void barredText(const Theme& theme, ImU32 bar, const std::string& text) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = std::max(3.0f, theme.lineWidth * 3.0f);
    ImGui::Indent(width * 2.0f);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::Unindent(width * 2.0f);
    ImGui::GetWindowDrawList()->AddRectFilled(at, {at.x + width, ImGui::GetItemRectMax().y}, bar);
}

}  // namespace

void ProblemsPanel::draw(bool* open) {
    const ProblemSet* set = m_session.problems();
    if (!beginStepThroughPanel("Problems###problems", open, set != nullptr, m_session))
        return;
    m_probe.recordWindow("problems.window");
    const Trace& trace = m_session.run(0).model->trace();
    const bool whole = m_session.problemsOfWholeLaunch();
    const std::string scope = m_session.problemsScope();
    const Palette& palette = m_theme.palette;

    if (set->clean()) {
        const char* text = whole ? kClean : kCleanBlocks;
        colouredText(palette.good, std::string("\xE2\x9C\x93 ") + text);
        m_probe.record("problems.clean", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), text);
    } else {
        pushHeadingFont(m_theme);
        const std::string summary = trace.kernel + ": " + set->summary();
        ImGui::TextWrapped("%s", summary.c_str());
        ImGui::PopFont();
        m_probe.record("problems.summary", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), summary);
    }
    if (!scope.empty()) {
        colouredText(palette.warning, scope);
        m_probe.record("problems.scope", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), scope);
    }
    if (set->clean()) {
        ImGui::End();
        return;
    }

    // The selected one in full (the rows below are one line each).
    if (const ProblemReport* selected = m_session.selectedProblem()) {
        const std::string text = describeProblem(trace, *selected);
        barredText(m_theme, palette.problem, text);
        m_probe.record("problems.selected", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), text);
    } else {
        ImGui::TextDisabled("click a problem: the views go to its step and mark it");
    }

    // The list scrolls under the lines above, which stay in view. Items are
    // ordered by kind: one range, under one header, per kind.
    ImGui::BeginChild("##list", {0.0f, 0.0f}, ImGuiChildFlags_None, ImGuiWindowFlags_HorizontalScrollbar);
    const std::vector<ProblemReport>& items = set->items;
    for (std::size_t begin = 0; begin < items.size();) {
        std::size_t end = begin;
        while (end < items.size() && items[end].kind == items[begin].kind)
            ++end;
        drawKind(static_cast<int>(items[begin].kind), begin, end);
        begin = end;
    }
    ImGui::EndChild();
    m_shownSelection = m_session.selectedProblemIndex();
    ImGui::End();
}

void ProblemsPanel::drawKind(int kind, std::size_t begin, std::size_t end) {
    const ProblemSet& set = *m_session.problems();
    const Trace& trace = m_session.run(0).model->trace();
    const auto k = static_cast<ProblemKind>(kind);
    const std::uint64_t count = set.count(k);
    const std::string title = std::string(problemKindTitle(k)) + " (" + std::to_string(count) + ")";
    const std::optional<std::size_t> selected = m_session.selectedProblemIndex();
    // A selection made elsewhere (--problem) opens its header and scrolls to its row.
    const bool reveal = selected && selected != m_shownSelection && *selected >= begin && *selected < end;
    if (reveal)
        ImGui::SetNextItemOpen(true);
    const bool open =
        ImGui::CollapsingHeader((title + "###kind" + std::to_string(kind)).c_str(), ImGuiTreeNodeFlags_DefaultOpen);
    m_probe.record(std::string("problems.kind.") + problemKindKey(k), ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                   title);
    if (!open)
        return;
    // Where they come from: the pairs of source lines, each once (what to fix).
    for (const ProblemGroup& g : set.groups) {
        if (g.kind != k)
            continue;
        std::string where = g.order != HazardOrder::None ? std::string(hazardOrderName(g.order)) : std::string();
        if (g.array < kArrayCount)
            where += (where.empty() ? "" : " ") + std::string("on ") + groupArrayName(trace, g);
        where += where.empty() ? "" : ", ";
        where += g.secondLine > 0
                     ? "lines " + std::to_string(g.firstLine) + " \xE2\x86\x92 " + std::to_string(g.secondLine)
                 : g.firstLine > 0 ? "line " + std::to_string(g.firstLine)
                                   : "never written";
        ImGui::TextDisabled("%s: %llu", where.c_str(), static_cast<unsigned long long>(g.count));
    }
    if (end - begin < count)
        ImGui::TextDisabled("the first %zu are listed", end - begin);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(end - begin));
    if (reveal)
        clipper.IncludeItemByIndex(static_cast<int>(*selected - begin));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const std::size_t index = begin + static_cast<std::size_t>(row);
            const std::string text = describeProblem(trace, set.items[index]);
            const bool isSelected = selected && *selected == index;
            if (ImGui::Selectable((text + "##" + std::to_string(index)).c_str(), isSelected))
                m_session.selectProblem(index);
            if (reveal && isSelected) {
                // Into view, only if it is not (the header above stays in view when it can).
                const float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowHeight();
                if (ImGui::GetItemRectMin().y < top || ImGui::GetItemRectMax().y > bottom)
                    ImGui::SetScrollHereY(0.3f);
            }
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                ImGui::PushTextWrapPos(m_theme.fontPixels * 36.0f);
                ImGui::TextUnformatted(text.c_str());
                ImGui::TextDisabled("click: go to its step, and mark it in the views");
                ImGui::PopTextWrapPos();
                ImGui::EndTooltip();
            }
            m_probe.record("problems.row." + std::to_string(index), ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                           text);
        }
    }
}

}  // namespace tilescope::ui
