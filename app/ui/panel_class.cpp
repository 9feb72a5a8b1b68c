#include "ui/panel_class.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <implot.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

// The marks of a case, in words and a shape: a projector's washed-out
// colours and colour-blind eyes read them alike.
constexpr const char* kPass = "\xE2\x9C\x93 pass";  // ✓ pass
constexpr const char* kFail = "\xE2\x9C\x97 FAIL";  // ✗ FAIL
constexpr const char* kNotRun = "- not run";

std::string score(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

// The height of the patterns' box: its heading, its hint and each sentence wrapped at `wrap`.
float patternsHeight(std::size_t, const ClassResults& results, float wrap) {
    const ImGuiStyle& style = ImGui::GetStyle();
    float h = style.WindowPadding.y * 2.0f + ImGui::GetTextLineHeightWithSpacing() * 2.0f + style.ItemSpacing.y;
    if (results.patterns.empty())
        return h + ImGui::GetTextLineHeightWithSpacing();
    const float textWidth = wrap - style.ItemSpacing.x;
    for (const PatternRow& row : patternsByCount(results))
        h += ImGui::CalcTextSize(("\xE2\x80\xA2 " + row.sentence).c_str(), nullptr, false, textWidth).y +
             style.ItemSpacing.y;
    return h + style.ItemSpacing.y + ImGui::GetTextLineHeight() * 0.3f;  // the heading font is larger
}

std::string oneDecimal(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

}  // namespace

void ClassPanel::draw(bool* open) {
    if (!ImGui::Begin("Class###class", open)) {
        ImGui::End();
        return;
    }
    m_probe.recordWindow("class.window");
    if (m_view.live || m_view.liveWaiting || !m_view.liveWhere.empty()) {  // followed from a server
        drawLive();
        ImGui::End();
        return;
    }
    const ClassResults* results = m_view.results.get();
    if (!results || m_view.focusPath)
        drawPathField();
    if (!m_view.problem.empty())
        problemMessage(m_theme, m_probe, "class.problem", m_view.problem);
    if (!results) {
        ImGui::TextWrapped(
            "No class is open. Type the path of a results folder (or its class.json) above: `tilescope grade "
            "--out results/ submissions/` writes one. `tilescope --class results/` opens it at start.");
        ImGui::End();
        return;
    }
    drawSummary(*results);

    // The histogram and the patterns side by side over the rows; stacked in
    // a narrow panel. The patterns take the height their sentences need, up
    // to a share of the panel (past it they scroll); the rows the rest.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float avail = ImGui::GetContentRegionAvail().y;
    const float width = ImGui::GetContentRegionAvail().x;
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const bool sideBySide = width > m_theme.fontPixels * 50.0f;
    const float patternsWidth = sideBySide ? width * 0.58f - style.ItemSpacing.x : width;
    const float patternsNeed = patternsHeight(results->patterns.empty() ? 0 : results->patterns.size(), *results,
                                              patternsWidth - style.WindowPadding.x * 2.0f);
    // The rows keep room for their heading, the table's header and up to
    // five rows: a projected class still shows the students, the opened one among them.
    const std::size_t shown = rowsWithPattern(*results, m_view.pattern).size();
    const float rowsNeed = line * (3.0f + static_cast<float>(std::min<std::size_t>(shown, 5)));
    const float roomAbove = std::max(line * 4.0f, avail - rowsNeed);
    const float histogramHeight =
        std::min(std::clamp(avail * 0.28f, std::min(line * 7.0f, std::max(avail * 0.34f, line * 5.0f)), line * 14.0f),
                 roomAbove * (sideBySide ? 1.0f : 0.5f));
    if (sideBySide) {
        const float top = std::min(std::max(histogramHeight, std::min(patternsNeed, avail * 0.45f)), roomAbove);
        ImGui::BeginChild("##histogram", {width - patternsWidth - style.ItemSpacing.x, top}, ImGuiChildFlags_None,
                          ImGuiWindowFlags_NoScrollbar);
        drawHistogram(*results, top);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##patterns", {0.0f, top}, ImGuiChildFlags_Borders);
        drawPatterns(*results, top);
        ImGui::EndChild();
    } else {
        ImGui::BeginChild("##histogram", {0.0f, histogramHeight}, ImGuiChildFlags_None, ImGuiWindowFlags_NoScrollbar);
        drawHistogram(*results, histogramHeight);
        ImGui::EndChild();
        const float height = std::min(
            {patternsNeed, std::max(avail * 0.26f, line * 4.0f), std::max(line * 3.0f, roomAbove - histogramHeight)});
        ImGui::BeginChild("##patterns", {0.0f, height}, ImGuiChildFlags_Borders);
        drawPatterns(*results, height);
        ImGui::EndChild();
    }
    ImGui::Dummy({0.0f, style.ItemSpacing.y * 0.5f});
    drawRows(*results);
    ImGui::End();
}

void ClassPanel::drawPathField() {
    const float button = ImGui::CalcTextSize("Open").x + ImGui::GetStyle().FramePadding.x * 2.0f;
    if (std::exchange(m_view.focusPath, false))
        ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-(button + ImGui::GetStyle().ItemSpacing.x));
    const bool enter = ImGui::InputTextWithHint("##classpath", "a results folder, or its class.json", &m_view.pathField,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    m_probe.record("class.path", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_view.pathField);
    ImGui::SameLine();
    if ((ImGui::Button("Open##class") || enter) && !m_view.pathField.empty() && m_callbacks.open)
        m_callbacks.open(m_view.pathField);
}

void ClassPanel::drawSummary(const ClassResults& results) {
    const ClassSummary s = summarize(results);
    pushHeadingFont(m_theme);
    const std::string title = results.assignment + ": " + std::to_string(s.submissions) +
                              (s.submissions == 1 ? " submission" : " submissions") + ", mean " + oneDecimal(s.mean) +
                              " / " + score(results.maxScore) + ", median " + score(s.median);
    ImGui::TextWrapped("%s", title.c_str());
    ImGui::PopFont();
    m_probe.record("class.title", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), title);
    const std::string counts = std::to_string(s.graded) + " graded (" + std::to_string(s.clean) +
                               " pass every case), " + std::to_string(s.compileErrors) + " did not compile, " +
                               std::to_string(s.refused) + " refused, " + std::to_string(s.failed) + " failed";
    ImGui::TextWrapped("%s", counts.c_str());
    m_probe.record("class.summary", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), counts);
    if (!m_view.note.empty()) {
        colouredText(m_theme.palette.muted, m_view.note);
        m_probe.record("class.note", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_view.note);
    }
}

void ClassPanel::drawHistogram(const ClassResults& results, float height) {
    const std::vector<ScoreBin> bins = scoreHistogram(results);
    const int n = static_cast<int>(bins.size());
    std::vector<double> xs(bins.size()), ys(bins.size());
    std::vector<const char*> labels(bins.size());
    double highest = 1;
    for (int i = 0; i < n; ++i) {
        xs[i] = i;
        ys[i] = bins[i].count;
        labels[i] = bins[i].label.c_str();
        highest = std::max(highest, ys[i]);
    }
    // Too short for bars with their counts over them (a projected class with
    // a row opened): the scores as one line of words instead.
    if (height < ImGui::GetTextLineHeightWithSpacing() * 3.5f) {
        std::string text = "Scores:";
        for (int i = 0; i < n; ++i)
            if (bins[i].count > 0)
                text += " " + bins[i].label + " (" + std::to_string(bins[i].count) + ")" + (i + 1 < n ? "," : "");
        if (!text.empty() && text.back() == ',')
            text.pop_back();
        text += "  (score, and how many submissions)";
        ImGui::TextWrapped("%s", text.c_str());
        m_probe.record("class.histogram", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), text);
        return;
    }
    const float scale = m_theme.fontPixels / 16.0f;
    ImPlot::StyleColorsAuto();
    ImPlotStyle& style = ImPlot::GetStyle();
    style.PlotPadding = {10.0f * scale, 10.0f * scale};
    style.LabelPadding = {5.0f * scale, 5.0f * scale};
    style.MajorTickLen = {10.0f * scale, 10.0f * scale};
    style.PlotMinSize = {160.0f * scale, 120.0f * scale};
    const ImPlotFlags flags = ImPlotFlags_NoMouseText | ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect |
                              ImPlotFlags_NoLegend | ImPlotFlags_NoTitle;
    if (!ImPlot::BeginPlot("Scores##class", {-1.0f, height - ImGui::GetStyle().ItemSpacing.y}, flags))
        return;
    // The count stands over each bar: the y axis needs no numbers of its own.
    // A short plot leaves out the axis's words: its numbers say "score" enough.
    const bool roomy = height > ImGui::GetTextLineHeightWithSpacing() * 6.5f;
    ImPlot::SetupAxes(roomy ? "score (over each bar: how many submissions)" : nullptr, nullptr,
                      ImPlotAxisFlags_NoGridLines, ImPlotAxisFlags_NoTickLabels);
    ImPlot::SetupAxisLimits(ImAxis_X1, -0.6, n - 0.4, ImPlotCond_Always);
    // Room over the tallest bar for its count: a line of text in the plot's
    // height (as drawn in the last frame), however short the plot is.
    const double textShare =
        m_plotHeight > 0.0f
            ? std::min(0.6, 1.5 * static_cast<double>(ImGui::GetTextLineHeight()) / static_cast<double>(m_plotHeight))
            : 0.25;
    ImPlot::SetupAxisLimits(ImAxis_Y1, 0.0, highest / (1.0 - textShare), ImPlotCond_Always);
    ImPlot::SetupAxisTicks(ImAxis_X1, xs.data(), n, labels.data());
    ImPlot::SetupAxisFormat(ImAxis_Y1, "%g");
    ImPlot::SetupMouseText(ImPlotLocation_NorthEast, ImPlotMouseTextFlags_None);
    ImPlotSpec spec;
    spec.FillColor = ImGui::ColorConvertU32ToFloat4(m_theme.palette.series[0]);
    spec.LineColor = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    spec.LineWeight = std::max(1.0f, m_theme.lineWidth);
    ImPlot::PlotBars("submissions", xs.data(), ys.data(), n, 0.8, spec);
    // The count over each bar: read from the back of the room, not guessed from the axis.
    for (int i = 0; i < n; ++i)
        if (bins[i].count > 0)
            ImPlot::PlotText(std::to_string(bins[i].count).c_str(), xs[i], ys[i],
                             {0.0f, -ImGui::GetTextLineHeight() * 0.7f});
    const ImVec2 at = ImPlot::GetPlotPos(), size = ImPlot::GetPlotSize();
    m_plotHeight = size.y;
    m_probe.record("class.histogram", at, {at.x + size.x, at.y + size.y});
    if (m_probe.enabled())
        for (int i = 0; i < n; ++i) {
            const ImVec2 a = ImPlot::PlotToPixels(xs[i] - 0.4, ys[i]), b = ImPlot::PlotToPixels(xs[i] + 0.4, 0.0);
            m_probe.record("class.bar." + std::to_string(i), a, b,
                           bins[i].label + ": " + std::to_string(bins[i].count));
        }
    ImPlot::EndPlot();
}

void ClassPanel::drawPatterns(const ClassResults& results, float) {
    const std::vector<PatternRow> rows = patternsByCount(results);
    const ImVec2 headAt = ImGui::GetCursorScreenPos();
    pushHeadingFont(m_theme);
    ImGui::TextUnformatted("What the class got wrong");
    ImGui::PopFont();
    if (m_view.pattern) {
        ImGui::SameLine();
        if (ImGui::SmallButton("Show all"))
            m_view.pattern.reset();
        m_probe.record("class.show-all", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    }
    m_probe.record("class.patterns.heading", headAt, ImGui::GetItemRectMax());
    if (rows.empty()) {
        ImGui::TextWrapped("No problem is shared: every submission that ran passed.");
        return;
    }
    ImGui::TextColored(m_theme.palette.muted, "click one: the rows below show only its submissions");
    const float wrap = ImGui::GetContentRegionAvail().x;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const ClassPattern& p = results.patterns[rows[r].pattern];
        const bool chosen = m_view.pattern && *m_view.pattern == p.key;
        // The chosen one is marked with a shape too, not by its highlight alone.
        const std::string text = std::string(chosen ? "\xE2\x96\xB6 " : "\xE2\x80\xA2 ") + rows[r].sentence;
        const float textWidth = wrap - ImGui::GetStyle().ItemSpacing.x;
        const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, textWidth);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::PushID(static_cast<int>(r));
        if (ImGui::Selectable("##pattern", chosen, ImGuiSelectableFlags_None, {wrap, size.y})) {
            if (chosen)
                m_view.pattern.reset();
            else
                m_view.pattern = p.key;
        }
        ImGui::PopID();
        const ImVec2 end = ImGui::GetCursorScreenPos();
        ImGui::SetCursorScreenPos(at);
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + textWidth);  // the window's own coordinates
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        m_probe.record("class.pattern." + std::to_string(r), at, {at.x + wrap, at.y + size.y}, rows[r].sentence);
        ImGui::SetCursorScreenPos(end);
        ImGui::Dummy({0.0f, 0.0f});
    }
    m_probe.recordWindow("class.patterns");  // the box as drawn (its list scrolls inside it)
}

void ClassPanel::drawRows(const ClassResults& results) {
    const Palette& palette = m_theme.palette;
    const std::vector<std::size_t> rows = rowsWithPattern(results, m_view.pattern);
    if (!m_view.opened)
        m_scrolledTo.reset();
    const std::string heading = m_view.pattern ? std::to_string(rows.size()) + " of " +
                                                     std::to_string(results.submissions.size()) +
                                                     " submissions have the chosen pattern"
                                               : "Every submission (click one: its kernel opens at its first problem)";
    ImGui::TextWrapped("%s", heading.c_str());
    m_probe.record("class.rows.heading", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), heading);

    // The marks, explained whether or not the rows are scrolled into view.
    m_legend.addSwatch(ImGui::ColorConvertFloat4ToU32(palette.good),
                       "\xE2\x9C\x93 pass: the case met every requirement");
    m_legend.addSwatch(ImGui::ColorConvertFloat4ToU32(palette.error),
                       "\xE2\x9C\x97 FAIL: it did not (hover a row: why)");
    const int columns = 3 + static_cast<int>(results.cases.size());
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersOuter;
    const ImVec2 tableAt = ImGui::GetCursorScreenPos();
    // Narrow cells: a lecture-size font still fits every column in the panel.
    const ImVec2 padding = ImGui::GetStyle().CellPadding;
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, {std::max(2.0f, padding.x * 0.5f), padding.y});
    const bool table = ImGui::BeginTable("##submissions", columns, flags, ImGui::GetContentRegionAvail());
    ImGui::PopStyleVar();
    if (!table)
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Student", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("Score");
    ImGui::TableSetupColumn("Status");
    // A case's column under its size and radius, short: "45x37 r2" (its name in full when hovered).
    std::vector<std::string> caseLabels;
    for (const ClassCase& c : results.cases)
        caseLabels.push_back(c.size + " r" + std::to_string(c.radius));
    for (const std::string& label : caseLabels)
        ImGui::TableSetupColumn(label.c_str());
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int column = 0; column < columns; ++column) {
        ImGui::TableSetColumnIndex(column);
        ImGui::TableHeader(ImGui::TableGetColumnName(column));
        if (column >= 3 && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s (%g points)", results.cases[static_cast<std::size_t>(column - 3)].name.c_str(),
                              results.cases[static_cast<std::size_t>(column - 3)].points);
    }

    const ImVec4 good = palette.good, bad = palette.error;
    for (std::size_t i : rows) {
        const ClassSubmission& s = results.submissions[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushID(static_cast<int>(i));
        const bool opened = m_view.opened && *m_view.opened == i;
        const std::string label = (opened ? "\xE2\x96\xB6 " : "") + s.student;
        if (ImGui::Selectable(label.c_str(), opened, ImGuiSelectableFlags_SpanAllColumns) && m_callbacks.openSubmission)
            m_callbacks.openSubmission(i);
        const ImVec2 rowMin = ImGui::GetItemRectMin(), rowMax = ImGui::GetItemRectMax();
        // A row opened (a click, --class-open) is scrolled into view once:
        // the marked row is the one the rest of the screen is about.
        if (opened && m_scrolledTo != i) {
            ImGui::SetScrollHereY(0.5f);
            m_scrolledTo = i;
        }
        if (ImGui::IsItemHovered()) {
            std::string tip = s.file.string();
            if (!s.message.empty())
                tip += "\n" + s.message;
            for (const ClassCaseResult& c : s.cases)
                if (!c.passed && !c.explanation.empty())
                    tip += "\n" + c.name + ": " + c.explanation;
            ImGui::SetTooltip("%s", tip.c_str());
        }
        ImGui::PopID();
        ImGui::TableNextColumn();
        const std::string points = score(s.score) + " / " + score(s.maxScore);
        ImGui::TextUnformatted(points.c_str());
        ImGui::TableNextColumn();
        if (s.status == SubmissionStatus::Graded)
            ImGui::TextUnformatted(statusLabel(s.status));
        else
            ImGui::TextColored(palette.warning, "\xE2\x9A\xA0 %s",
                               s.status == SubmissionStatus::CompileError ? "no compile" : statusLabel(s.status));
        for (std::size_t k = 0; k < results.cases.size(); ++k) {
            ImGui::TableNextColumn();
            const ClassCaseResult* c = k < s.cases.size() ? &s.cases[k] : nullptr;
            const bool ran = c && s.status != SubmissionStatus::CompileError && s.status != SubmissionStatus::Refused;
            if (!ran)
                ImGui::TextColored(palette.muted, "%s", kNotRun);
            else
                ImGui::TextColored(c->passed ? good : bad, "%s", c->passed ? kPass : kFail);
        }
        m_probe.record("class.row." + s.student, rowMin, {ImGui::GetItemRectMax().x, rowMax.y}, points);
    }
    ImGui::EndTable();
    m_probe.record("class.rows", tableAt, ImGui::GetItemRectMax());
}

}  // namespace tilescope::ui
