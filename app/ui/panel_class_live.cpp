// The Class panel's live view: the class now, as a running `tilescope serve
// --roster` answers it (model/live_class.hpp). A summary line (how many
// right, stuck, not compiling, with nothing yet), where it comes from and
// how long ago its last check was; the histogram of those four; the problems
// grouped across students by kind and lines, most students first; and a
// tile per student with their latest verdict and how long ago, in the
// roster's order. Names are hidden until the teacher asks for them (the
// panel is made for a projector). Every state is said by a mark and a word
// as well as its colour.
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "model/live_class.hpp"
#include "ui/layout_probe.hpp"
#include "ui/panel_class.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

ImVec4 stateColour(const Palette& palette, LiveState state) {
    switch (state) {
        case LiveState::Right:
            return palette.good;
        case LiveState::Stuck:
            return palette.error;
        case LiveState::Refused:
            return palette.warning;
        case LiveState::NotYet:
            break;
    }
    return palette.muted;
}

// The histogram's label of a state: its mark and one short word (four fit
// under their bars in lecture-size type).
const char* stateLabel(LiveState state) {
    switch (state) {
        case LiveState::Right:
            return "\xE2\x9C\x93 right";
        case LiveState::Stuck:
            return "\xE2\x9C\x97 stuck";
        case LiveState::Refused:
            return "\xE2\x9A\xA0 error";
        case LiveState::NotYet:
            break;
    }
    return "\xE2\x80\x93 not yet";
}

// `text` cut to `width` with "..." (a tile's line).
std::string fitted(const std::string& text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width)
        return text;
    std::string cut = text;
    while (!cut.empty() && ImGui::CalcTextSize((cut + "...").c_str()).x > width) {
        cut.pop_back();
        while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80)  // a whole UTF-8 character
            cut.pop_back();
        if (!cut.empty() && static_cast<unsigned char>(cut.back()) >= 0xC0)
            cut.pop_back();
    }
    return cut + "...";
}

double secondsSince(const LiveClass& live, const LiveStudent& s) {
    if (s.agoSeconds < 0)
        return -1;
    return s.agoSeconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - live.received).count();
}

}  // namespace

void ClassPanel::drawLive() {
    const Palette& palette = m_theme.palette;
    const ImGuiStyle& style = ImGui::GetStyle();
    const LiveClass* live = m_view.live.get();
    if (!live) {
        if (!m_view.liveStatus.empty())
            problemMessage(m_theme, m_probe, "class.live.problem", m_view.liveStatus);
        else
            ImGui::TextWrapped("Asking the server for the class...");
        return;
    }
    const LiveSummary summary = summarize(*live);

    // The summary, large, and the names' switch on its right.
    const std::string title = "The class now: " + summarySentence(summary);
    const float namesWidth = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("names").x;
    const float projectorWidth = ImGui::CalcTextSize("Projector").x + style.FramePadding.x * 2.0f;
    const float controls = namesWidth + projectorWidth + style.ItemSpacing.x * 2.0f;
    const float titleRight = ImGui::GetContentRegionAvail().x - controls;
    pushHeadingFont(m_theme);
    const ImVec2 titleAt = ImGui::GetCursorScreenPos();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(titleRight, m_theme.fontPixels * 10.0f));
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    m_probe.record("class.live.title", titleAt, ImGui::GetItemRectMax(), title);
    const ImVec2 afterTitle = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos({titleAt.x + ImGui::GetContentRegionAvail().x - controls + style.ItemSpacing.x, titleAt.y});
    ImGui::Checkbox("names", &m_view.names);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Show the students' names (hidden by default: the panel is made for a projector)");
    m_probe.record("class.live.names", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_view.names ? "on" : "off");
    ImGui::SameLine();
    if (ImGui::Button("Projector") && m_callbacks.classNow)
        m_callbacks.classNow();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The class now on a projector: lecture-size type, this panel filling the window (Esc: back)");
    m_probe.record("class.live.projector", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImGui::SetCursorScreenPos({afterTitle.x, std::max(afterTitle.y, ImGui::GetItemRectMax().y + style.ItemSpacing.y)});

    // Where it comes from, and how fresh it is.
    double newest = -1;
    for (const LiveStudent& s : live->students)
        if (s.last == live->lastCheck && s.last != 0)
            newest = secondsSince(*live, s);
    std::string status = "from " + m_view.liveWhere + ": " + std::to_string(live->checks) +
                         (live->checks == 1 ? " check" : " checks") +
                         (newest >= 0 ? ", the last (check " + std::to_string(live->lastCheck) + ") " + agoText(newest)
                                      : std::string(", none yet"));
    if (!m_view.note.empty())
        status += "  \xC2\xB7  " + m_view.note;
    ImGui::PushStyleColor(ImGuiCol_Text, palette.muted);
    ImGui::TextWrapped("%s", status.c_str());
    ImGui::PopStyleColor();
    m_probe.record("class.live.status", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), status);
    if (!m_view.liveStatus.empty())
        problemMessage(m_theme, m_probe, "class.live.problem", m_view.liveStatus);

    // The tiles take what the class needs (two lines each where they fit,
    // one where they do not); the histogram and the problems the rest, at
    // least six lines.
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float avail = ImGui::GetContentRegionAvail().y;
    const float width = ImGui::GetContentRegionAvail().x;
    const std::vector<std::size_t> rows = liveRows(*live, m_view.livePattern);
    const float pad = style.FramePadding.y + m_theme.lineWidth;
    const float topLeast = line * 4.0f;
    const float heading = line + style.ItemSpacing.y;
    // Two lines a tile where the class fits so; else one line, wider.
    auto layoutFor = [&](int lines, float least, int& columns) {
        columns = std::max(1, static_cast<int>((width + style.ItemSpacing.x) / (least + style.ItemSpacing.x)));
        const int tileRows = static_cast<int>((rows.size() + static_cast<std::size_t>(columns) - 1) /
                                              static_cast<std::size_t>(columns));
        return heading +
               static_cast<float>(tileRows) *
                   (ImGui::GetTextLineHeight() * static_cast<float>(lines) + pad * 2.0f + style.ItemSpacing.y) +
               style.WindowPadding.y;
    };
    int columns = 1;
    int tileLines = 2;
    float tilesNeed = layoutFor(2, m_theme.fontPixels * 10.0f, columns);
    if (tilesNeed > avail - topLeast) {
        tileLines = 1;
        tilesNeed = layoutFor(1, m_theme.fontPixels * 13.0f, columns);
    }
    const float tilesHeight = std::min(tilesNeed, std::max(line * 3.0f, avail - topLeast));
    const float top = std::max(line * 3.0f, avail - tilesHeight - style.ItemSpacing.y);

    const bool sideBySide = width > m_theme.fontPixels * 40.0f;
    const std::vector<LivePattern> patterns = livePatterns(*live);
    if (sideBySide) {
        const float histogramWidth = std::max(m_theme.fontPixels * 18.0f, width * 0.36f);
        ImGui::BeginChild("##livehistogram", {histogramWidth, top}, ImGuiChildFlags_None, ImGuiWindowFlags_NoScrollbar);
        drawLiveHistogram(summary, top);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##livepatterns", {0.0f, top}, ImGuiChildFlags_Borders,
                          ImGuiWindowFlags_AlwaysVerticalScrollbar);
        drawLivePatterns(*live, patterns);
        ImGui::EndChild();
    } else {
        ImGui::BeginChild("##livehistogram", {0.0f, top * 0.45f}, ImGuiChildFlags_None, ImGuiWindowFlags_NoScrollbar);
        drawLiveHistogram(summary, top * 0.45f);
        ImGui::EndChild();
        ImGui::BeginChild("##livepatterns", {0.0f, top * 0.55f - style.ItemSpacing.y}, ImGuiChildFlags_Borders,
                          ImGuiWindowFlags_AlwaysVerticalScrollbar);
        drawLivePatterns(*live, patterns);
        ImGui::EndChild();
    }
    drawLiveStudents(*live, rows, columns, tileLines);
}

void ClassPanel::drawLiveHistogram(const LiveSummary& summary, float height) {
    const float scale = m_theme.fontPixels / 16.0f;
    ImPlot::StyleColorsAuto();
    ImPlotStyle& style = ImPlot::GetStyle();
    style.PlotPadding = {10.0f * scale, 10.0f * scale};
    style.LabelPadding = {5.0f * scale, 5.0f * scale};
    style.MajorTickLen = {0.0f, 0.0f};
    style.PlotMinSize = {120.0f * scale, 60.0f * scale};
    const ImPlotFlags flags = ImPlotFlags_NoMouseText | ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect |
                              ImPlotFlags_NoLegend | ImPlotFlags_NoTitle | ImPlotFlags_NoInputs;
    if (!ImPlot::BeginPlot("Now##classlive", {-1.0f, height - ImGui::GetStyle().ItemSpacing.y}, flags))
        return;
    double xs[kLiveStateCount], ys[kLiveStateCount];
    const char* labels[kLiveStateCount];
    double highest = 1;
    for (int i = 0; i < kLiveStateCount; ++i) {
        xs[i] = i;
        ys[i] = summary.count[static_cast<std::size_t>(i)];
        labels[i] = stateLabel(static_cast<LiveState>(i));
        highest = std::max(highest, ys[i]);
    }
    ImPlot::SetupAxes(nullptr, nullptr, ImPlotAxisFlags_NoGridLines, ImPlotAxisFlags_NoTickLabels | ImPlotAxisFlags_NoGridLines);
    ImPlot::SetupAxisLimits(ImAxis_X1, -0.6, kLiveStateCount - 0.4, ImPlotCond_Always);
    const double textShare =
        m_plotHeight > 0.0f
            ? std::min(0.6, 1.5 * static_cast<double>(ImGui::GetTextLineHeight()) / static_cast<double>(m_plotHeight))
            : 0.25;
    ImPlot::SetupAxisLimits(ImAxis_Y1, 0.0, highest / (1.0 - textShare), ImPlotCond_Always);
    ImPlot::SetupAxisTicks(ImAxis_X1, xs, kLiveStateCount, labels);
    for (int i = 0; i < kLiveStateCount; ++i) {
        ImPlotSpec spec;
        spec.FillColor = stateColour(m_theme.palette, static_cast<LiveState>(i));
        spec.LineColor = ImGui::GetStyleColorVec4(ImGuiCol_Text);
        spec.LineWeight = std::max(1.0f, m_theme.lineWidth);
        ImGui::PushID(i);
        ImPlot::PlotBars("##state", &xs[i], &ys[i], 1, 0.8, spec);
        ImGui::PopID();
        ImPlot::PlotText(std::to_string(summary.count[static_cast<std::size_t>(i)]).c_str(), xs[i], ys[i],
                         {0.0f, -ImGui::GetTextLineHeight() * 0.7f});
    }
    const ImVec2 at = ImPlot::GetPlotPos(), size = ImPlot::GetPlotSize();
    m_plotHeight = size.y;
    m_probe.record("class.live.histogram", at, {at.x + size.x, at.y + size.y});
    if (m_probe.enabled())
        for (int i = 0; i < kLiveStateCount; ++i) {
            const ImVec2 a = ImPlot::PlotToPixels(xs[i] - 0.4, ys[i]), b = ImPlot::PlotToPixels(xs[i] + 0.4, 0.0);
            m_probe.record("class.live.bar." + std::to_string(i), a, b,
                           std::string(liveStateWords(static_cast<LiveState>(i))) + ": " +
                               std::to_string(summary.count[static_cast<std::size_t>(i)]));
        }
    ImPlot::EndPlot();
}

void ClassPanel::drawLivePatterns(const LiveClass& live, const std::vector<LivePattern>& patterns) {
    const ImVec2 headAt = ImGui::GetCursorScreenPos();
    pushHeadingFont(m_theme);
    ImGui::TextWrapped("What the class is stuck on");
    ImGui::PopFont();
    if (m_view.livePattern) {
        // Beside the heading where it fits, else under it.
        const float button = ImGui::CalcTextSize("Show all").x + ImGui::GetStyle().FramePadding.x * 2.0f;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + button <=
            ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x)
            ImGui::SameLine();
        if (ImGui::SmallButton("Show all##live"))
            m_view.livePattern.reset();
        m_probe.record("class.live.show-all", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    }
    m_probe.record("class.live.patterns.heading", headAt, ImGui::GetItemRectMax());
    if (patterns.empty()) {
        const LiveSummary s = summarize(live);
        ImGui::TextWrapped("%s", s.of(LiveState::NotYet) == s.students ? "No check yet."
                                                                       : "Nothing: every kernel checked is right.");
        m_probe.recordWindow("class.live.patterns");
        return;
    }
    // The list keeps its scrollbar (AlwaysVerticalScrollbar): its width does
    // not change from one frame to the next as the list grows past its height.
    // (A selectable's highlight reaches half an item spacing past its width.)
    const float wrap = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x;
    for (std::size_t r = 0; r < patterns.size(); ++r) {
        const LivePattern& p = patterns[r];
        const bool chosen = m_view.livePattern && *m_view.livePattern == p.key;
        const std::string text = std::string(chosen ? "\xE2\x96\xB6 " : "\xE2\x80\xA2 ") + p.sentence;
        const float textWidth = wrap - ImGui::GetStyle().ItemSpacing.x;
        const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, textWidth);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::PushID(static_cast<int>(r));
        if (ImGui::Selectable("##livepattern", chosen, ImGuiSelectableFlags_None, {wrap, size.y})) {
            if (chosen)
                m_view.livePattern.reset();
            else
                m_view.livePattern = p.key;
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Click: only the students with this problem below (again: all of them)");
        ImGui::PopID();
        const ImVec2 end = ImGui::GetCursorScreenPos();
        ImGui::SetCursorScreenPos(at);
        // The wrap position is in the window's own coordinates, not the screen's.
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + textWidth);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        m_probe.record("class.live.pattern." + std::to_string(r), at, {at.x + wrap, at.y + size.y}, p.sentence);
        ImGui::SetCursorScreenPos(end);
        ImGui::Dummy({0.0f, 0.0f});
    }
    m_probe.recordWindow("class.live.patterns");
}

void ClassPanel::drawLiveStudents(const LiveClass& live, const std::vector<std::size_t>& rows, int columns,
                                  int tileLines) {
    const Palette& palette = m_theme.palette;
    const ImGuiStyle& style = ImGui::GetStyle();
    const std::string heading =
        m_view.livePattern ? std::to_string(rows.size()) + " of " + std::to_string(live.students.size()) +
                                 " students have the chosen problem (click one: their latest kernel opens at it)"
                           : "Each student's latest check (click one: their kernel opens at its first problem)";
    ImGui::TextUnformatted(fitted(heading, ImGui::GetContentRegionAvail().x).c_str());
    m_probe.record("class.live.tiles.heading", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), heading);
    ImGui::BeginChild("##livetiles", {0.0f, 0.0f}, ImGuiChildFlags_None);
    const float width = ImGui::GetContentRegionAvail().x;
    // The columns share the width the tiles have.
    const float w = (width - style.ItemSpacing.x * static_cast<float>(columns - 1)) / static_cast<float>(columns);
    const float pad = style.FramePadding.y + m_theme.lineWidth;
    const float lineHeight = ImGui::GetTextLineHeight();
    const float h = lineHeight * static_cast<float>(tileLines) + pad * 2.0f;
    const float bar = std::max(4.0f, m_theme.lineWidth * 2.5f);  // the state's colour, on the tile's left edge
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const LiveStudent& s = live.students[rows[k]];
        const int column = static_cast<int>(k % static_cast<std::size_t>(columns));
        const int row = static_cast<int>(k / static_cast<std::size_t>(columns));
        const ImVec2 a{origin.x + static_cast<float>(column) * (w + style.ItemSpacing.x),
                       origin.y + static_cast<float>(row) * (h + style.ItemSpacing.y)};
        const ImVec2 b{a.x + w, a.y + h};
        ImGui::SetCursorScreenPos(a);
        ImGui::PushID(static_cast<int>(rows[k]));
        const bool clicked = ImGui::InvisibleButton("##student", {w, h});
        const bool hovered = ImGui::IsItemHovered();
        ImGui::PopID();
        const bool opened = m_view.liveOpened && *m_view.liveOpened == s.id;
        const ImU32 colour = ImGui::ColorConvertFloat4ToU32(stateColour(palette, s.state));
        draw->AddRectFilled(a, b, ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg), 3.0f);
        draw->AddRectFilled(a, {a.x + bar, b.y}, colour, 3.0f, ImDrawFlags_RoundLeft);
        if (opened)
            draw->AddRect(a, b, palette.selection, 3.0f, m_theme.lineWidth * 2.0f);
        const float textX = a.x + bar + style.FramePadding.x;
        const float textWidth = b.x - textX - style.FramePadding.x;
        const std::string label = (opened ? "\xE2\x96\xB6 " : "") + liveStudentLabel(s, m_view.names);
        const std::string verdict = std::string(liveStateMark(s.state)) + " " + liveVerdictText(s);
        const std::string ago = agoText(secondsSince(live, s));
        ImGui::PushClipRect(a, b, true);
        if (tileLines == 2) {
            const std::string first = fitted(label, textWidth);
            draw->AddText({textX, a.y + pad}, ImGui::GetColorU32(ImGuiCol_Text), first.c_str());
            // The time on the right of the first line where it fits.
            const float agoWidth = ImGui::CalcTextSize(ago.c_str()).x;
            if (!ago.empty() && ImGui::CalcTextSize(first.c_str()).x + agoWidth + style.ItemSpacing.x * 2.0f < textWidth)
                draw->AddText({b.x - style.FramePadding.x - agoWidth, a.y + pad},
                              ImGui::ColorConvertFloat4ToU32(palette.muted), ago.c_str());
            // The lines are what matters: the short form where the whole does not fit.
            const std::string shown = ImGui::CalcTextSize(verdict.c_str()).x <= textWidth
                                          ? verdict
                                          : std::string(liveStateMark(s.state)) + " " + liveVerdictShort(s);
            draw->AddText({textX, a.y + pad + lineHeight}, colour, fitted(shown, textWidth).c_str());
        } else {
            const std::string both =
                fitted(label + "  " + liveStateMark(s.state) + " " + liveVerdictShort(s), textWidth);
            draw->AddText({textX, a.y + pad}, ImGui::GetColorU32(ImGuiCol_Text), both.c_str());
        }
        ImGui::PopClipRect();
        if (hovered) {
            std::string tip = liveStudentLabel(s, m_view.names) + ": " + liveVerdictText(s);
            if (!ago.empty())
                tip += " (" + ago + ", check " + std::to_string(s.last) + ", " + std::to_string(s.checks) +
                       (s.checks == 1 ? " check sent)" : " checks sent)");
            for (const LiveProblem& p : s.problems)
                tip += "\n\xE2\x80\xA2 " + liveProblemText(p) + (p.reason.empty() ? "" : ": " + p.reason);
            if (s.last != 0)
                tip += "\nClick: open this kernel at its first problem";
            ImGui::SetTooltip("%s", tip.c_str());
        }
        if (clicked && m_callbacks.openLiveStudent)
            m_callbacks.openLiveStudent(rows[k]);
        m_probe.record("class.live.student." + std::to_string(s.number), a, b,
                       liveStudentLabel(s, m_view.names) + " | " + verdict);
    }
    if (!rows.empty()) {
        const int tileRows = static_cast<int>((rows.size() + static_cast<std::size_t>(columns) - 1) / columns);
        ImGui::SetCursorScreenPos(origin);
        ImGui::Dummy({width, static_cast<float>(tileRows) * (h + style.ItemSpacing.y) - style.ItemSpacing.y});
    }
    m_probe.recordWindow("class.live.tiles");
    ImGui::EndChild();
}

}  // namespace tilescope::ui
