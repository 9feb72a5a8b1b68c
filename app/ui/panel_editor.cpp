#include "ui/panel_editor.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

// Inside the text box, once a frame: where the text cursor is (its line,
// from 0), and a Tab typed turned into four spaces (a tab would not line up
// with the gutter's columns, and the Source panel shows the file as it is).
struct CursorProbe {
    int line = 0;
};

int onText(ImGuiInputTextCallbackData* data) {
    auto* probe = static_cast<CursorProbe*>(data->UserData);
    if (data->EventFlag != ImGuiInputTextFlags_CallbackAlways)
        return 0;
    if (ImGui::IsKeyPressed(ImGuiKey_Tab) && data->CursorPos > 0 &&
        data->Buf[data->CursorPos - 1] == '\t') {
        data->DeleteChars(data->CursorPos - 1, 1);
        data->InsertChars(data->CursorPos, "    ");
    }
    probe->line = static_cast<int>(std::count(data->Buf, data->Buf + data->CursorPos, '\n'));
    return 0;
}

int lineCount(const std::string& text) {
    return 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// Line n (from 1) of the text, without its line break.
std::string_view lineOf(const std::string& text, int n) {
    std::size_t start = 0;
    for (int i = 1; i < n; ++i) {
        start = text.find('\n', start);
        if (start == std::string::npos)
            return {};
        ++start;
    }
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos)
        end = text.size();
    return std::string_view(text).substr(start, end - start);
}

// The error's words with its line: "line 12: error: expected ';'".
std::string errorText(const EditorState& s) {
    std::string text = s.errorMessage;
    if (s.errorLine > 0) {
        const std::string where = "line " + std::to_string(s.errorLine) +
                                  (s.errorColumn > 0 ? ", column " + std::to_string(s.errorColumn) : "");
        text = where + ": " + text;
    }
    if (s.errorFromRun)
        text = "it compiled, then failed as it ran: " + text;
    return text;
}

}  // namespace

void EditorPanel::draw(bool* open) {
    if (!ImGui::Begin("Editor###editor", open)) {
        ImGui::End();
        return;
    }
    m_probe.recordWindow("editor.window");
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_S, false) && !m_state.path.empty() && m_callbacks.compile)
        m_callbacks.compile();
    drawToolbar();
    if (m_state.showPathField || m_state.path.empty())
        drawPathField();
    if (m_state.path.empty()) {
        ImGui::TextWrapped(
            "No kernel file is open. Type its path above, or start from an exercise (File > New from exercise).");
        ImGui::End();
        return;
    }
    drawStatus();

    // The text takes the height the error message under it leaves.
    float below = 0.0f;
    if (!m_state.errorMessage.empty()) {
        const float wrap = ImGui::GetContentRegionAvail().x - m_theme.lineWidth * 4.0f;
        below = ImGui::CalcTextSize(("\xE2\x9A\xA0 " + errorText(m_state)).c_str(), nullptr, false, wrap).y +
                ImGui::GetStyle().ItemSpacing.y * 2.0f;
    }
    const float height =
        std::max(ImGui::GetTextLineHeightWithSpacing() * 4.0f, ImGui::GetContentRegionAvail().y - below);
    drawText(height);
    drawError();
    ImGui::End();
}

void EditorPanel::drawToolbar() {
    const Palette& palette = m_theme.palette;
    if (!m_state.path.empty()) {
        const std::filesystem::path path(m_state.path);
        pushHeadingFont(m_theme);
        ImGui::TextUnformatted(path.filename().string().c_str());
        ImGui::PopFont();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", m_state.path.c_str());
        m_probe.record("editor.file", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_state.path);
        if (m_state.modified) {
            ImGui::SameLine();
            ImGui::TextColored(palette.warning, "edited, not saved");
        }
        const std::string folder = path.parent_path().string();
        if (!folder.empty()) {
            ImGui::SameLine();
            ImGui::TextDisabled("in %s", folder.c_str());
        }
    }
    if (!m_state.path.empty()) {
        const bool compiling = m_state.compile == CompileState::Compiling;
        if (ImGui::Button(m_state.modified ? "Save and compile" : "Compile") && m_callbacks.compile)
            m_callbacks.compile();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Ctrl+S: saves the file, compiles it and runs it on the set-up's input");
        ImGui::SameLine();
        ImGui::TextDisabled("Ctrl+S");
        if (compiling) {
            ImGui::SameLine();
            if (ImGui::Button("Cancel##compile") && m_callbacks.cancel)
                m_callbacks.cancel();
        }
        ImGui::SameLine();
        if (ImGui::Button("Open another..."))
            m_state.showPathField = !m_state.showPathField;
        ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 3.0f);
        drawCompileState();
    }
}

void EditorPanel::drawPathField() {
    const float button = ImGui::CalcTextSize("Open").x + ImGui::GetStyle().FramePadding.x * 2.0f;
    if (std::exchange(m_state.focusPath, false))
        ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-(button + ImGui::GetStyle().ItemSpacing.x));
    const bool enter = ImGui::InputTextWithHint("##kernelpath", "path to a kernel file (.cu)", &m_state.pathField,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    m_probe.record("editor.path", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_state.pathField);
    ImGui::SameLine();
    if ((ImGui::Button("Open##kernel") || enter) && !m_state.pathField.empty() && m_callbacks.open) {
        m_callbacks.open(m_state.pathField);
        m_state.showPathField = false;
    }
}

void EditorPanel::drawCompileState() {
    const Palette& palette = m_theme.palette;
    char text[200] = "";
    ImVec4 colour = palette.muted;
    switch (m_state.compile) {
        case CompileState::Compiling: {
            // A spinner of dots: the frame goes on while the compiler works.
            const int dots = 1 + static_cast<int>(m_state.compileSeconds * 3.0) % 3;
            std::snprintf(text, sizeof text, "compiling%.*s %.1f s", dots, "...", m_state.compileSeconds);
            colour = palette.warning;
            break;
        }
        case CompileState::Compiled:
            std::snprintf(text, sizeof text, "\xE2\x9C\x93 compiled in %.1f s", m_state.compileSeconds);
            colour = palette.good;
            break;
        case CompileState::Failed:
            std::snprintf(text, sizeof text, "\xE2\x9C\x97 does not compile%s",
                          m_state.errorLine > 0 ? (": line " + std::to_string(m_state.errorLine)).c_str() : "");
            colour = palette.error;
            break;
        case CompileState::Cancelled:
            std::snprintf(text, sizeof text, "compile cancelled: Ctrl+S compiles again");
            break;
        case CompileState::Idle:
            break;
    }
    // Beside the buttons when it fits there, else under them.
    if (ImGui::CalcTextSize(text).x > ImGui::GetContentRegionAvail().x)
        ImGui::NewLine();
    ImGui::TextColored(colour, "%s", text);
    if (text[0])
        m_probe.record("editor.status", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), text);
}

void EditorPanel::drawStatus() {
    const Palette& palette = m_theme.palette;
    if (!m_state.compileNote.empty())
        colouredText(palette.warning, m_state.compileNote);

    if (m_state.verdict != Verdict::None && !m_state.verdictText.empty()) {
        const bool good = m_state.verdict == Verdict::Right;
        const bool bad = m_state.verdict == Verdict::Wrong || m_state.verdict == Verdict::Failed;
        pushHeadingFont(m_theme);
        colouredText(good ? palette.good : bad ? palette.error : palette.muted, m_state.verdictText);
        ImGui::PopFont();
        m_probe.record("editor.verdict", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_state.verdictText);
        if (!m_state.verdictDetail.empty()) {
            colouredText(palette.muted, m_state.verdictDetail);
            m_probe.record("editor.verdict.detail", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                           m_state.verdictDetail);
        }
    }
    drawPrintout();
    if (!m_state.fileNote.empty()) {
        colouredText(palette.warning, m_state.fileNote);
        m_probe.record("editor.note", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_state.fileNote);
    }
    if (m_state.changedOnDisk) {
        if (ImGui::SmallButton("Take the file from disk") && m_callbacks.reload)
            m_callbacks.reload();
        ImGui::SameLine();
        ImGui::TextDisabled("or Ctrl+S to keep this text");
    }
}

void EditorPanel::drawPrintout() {
    const KernelPrintout* p = m_state.printout.get();
    if (!p || p->empty())
        return;
    // Its own id: the heading's count changes from run to run, the section's
    // folding stays.
    const std::string heading = p->heading();
    const bool open = ImGui::TreeNodeEx("printout", ImGuiTreeNodeFlags_DefaultOpen, "%s", heading.c_str());
    m_probe.record("editor.printout", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), heading);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("what printf printed, in the kernel and in launch(): at most %zu lines are kept",
                          KernelPrintout::kMaxLines);
    if (!open)
        return;
    const std::string rest = p->rest();
    pushMonoFont(m_theme);
    // At most eight lines high; the rest scrolls.
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const std::size_t rows = std::min<std::size_t>(p->lines.size() + (rest.empty() ? 0 : 1), 8);
    const float height = static_cast<float>(std::max<std::size_t>(rows, 1)) * line +
                         ImGui::GetStyle().WindowPadding.y * 2.0f;
    ImGui::BeginChild("##printout-lines", {0.0f, height}, ImGuiChildFlags_Borders,
                      ImGuiWindowFlags_HorizontalScrollbar);
    for (std::size_t i = 0; i < p->lines.size(); ++i) {
        ImGui::TextUnformatted(p->lines[i].c_str());
        if (m_probe.enabled())
            m_probe.record("editor.printout.line." + std::to_string(i + 1), ImGui::GetItemRectMin(),
                           ImGui::GetItemRectMax(), p->lines[i]);
    }
    if (!rest.empty()) {
        ImGui::TextDisabled("%s", rest.c_str());
        m_probe.record("editor.printout.rest", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), rest);
    }
    ImGui::EndChild();
    ImGui::PopFont();
    ImGui::TreePop();
}

void EditorPanel::drawText(float height) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const Palette& palette = m_theme.palette;
    pushMonoFont(m_theme);
    const float lineHeight = ImGui::GetTextLineHeight();  // what the text box advances by
    const int lines = lineCount(m_state.text);
    const int digits = std::max(3, static_cast<int>(std::to_string(lines).size()));
    const float digit = ImGui::CalcTextSize("0").x;
    const float mark = lineHeight * 0.9f;                 // the error mark, left of the numbers
    const float gutter = mark + digit * (digits + 1.0f);  // mark, numbers, a space
    const ImVec2 pad = style.FramePadding;

    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {0.0f, 0.0f});
    ImGui::BeginChild("##editor-scroll", {0.0f, height}, ImGuiChildFlags_Borders);
    ImGui::PopStyleVar();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();  // the content's top left (scrolled)
    const ImVec2 windowPos = ImGui::GetWindowPos();
    const float viewHeight = ImGui::GetWindowHeight();
    const float width = ImGui::GetContentRegionAvail().x;
    const float boxHeight = lines * lineHeight + pad.y * 2.0f + 1.0f;
    const float textTop = origin.y + pad.y;
    const float right = origin.x + width;
    auto lineTop = [&](int n) { return textTop + static_cast<float>(n - 1) * lineHeight; };

    // Behind the text (the box's own background is made transparent below):
    // the gutter, the box, the current line, the error line.
    const float visibleTop = windowPos.y, visibleBottom = windowPos.y + viewHeight;
    // Code on the window's own background, as the Source panel shows it; the
    // gutter a shade of the fields' colour, a rule between them.
    draw->AddRectFilled({origin.x, visibleTop}, {origin.x + gutter, visibleBottom},
                        ImGui::GetColorU32(ImGuiCol_FrameBg, 0.5f));
    draw->AddLine({origin.x + gutter - 1.0f, visibleTop}, {origin.x + gutter - 1.0f, visibleBottom},
                  ImGui::GetColorU32(ImGuiCol_Border));
    const int first = std::clamp(static_cast<int>(std::floor((visibleTop - textTop) / lineHeight)) + 1, 1, lines);
    const int last = std::clamp(static_cast<int>(std::ceil((visibleBottom - textTop) / lineHeight)) + 1, 1, lines);
    const int current = m_state.currentLine;
    const auto errorLine = static_cast<int>(m_state.errorLine);
    if (current >= 1 && current <= lines) {
        const float y = lineTop(current);
        draw->AddRectFilled({origin.x, y}, {right, y + lineHeight}, withAlpha(palette.loadedByThread, 110));
        m_legend.addSwatch(withAlpha(palette.loadedByThread, 110), "the selected thread's line");
        m_probe.record("editor.current", {origin.x, y}, {right, y + lineHeight}, std::to_string(current));
    }
    if (errorLine >= 1 && errorLine <= lines) {
        const float y = lineTop(errorLine);
        draw->AddRectFilled({origin.x + gutter, y}, {right, y + lineHeight}, withAlpha(palette.problem, 70));
        // The mark: a red disc with a casing, and the line's number in red.
        const ImVec2 centre{origin.x + mark * 0.55f, y + lineHeight * 0.5f};
        const float radius = lineHeight * 0.36f;
        draw->AddCircleFilled(centre, radius + std::max(1.0f, m_theme.lineWidth), palette.problemCasing);
        draw->AddCircleFilled(centre, radius, palette.problem);
        m_legend.addSwatch(palette.problem,
                           m_state.errorFromRun ? "the line where the run failed" : "the line of the compile error");
        m_probe.record("editor.error.mark", {centre.x - radius, centre.y - radius},
                       {centre.x + radius, centre.y + radius}, std::to_string(errorLine));
        m_probe.record("editor.error.line", {origin.x + gutter, y}, {right, y + lineHeight}, std::to_string(errorLine));
    }
    for (int n = first; n <= last; ++n) {
        char number[16];
        std::snprintf(number, sizeof number, "%d", n);
        const float y = lineTop(n);
        const float x = origin.x + gutter - digit * 0.5f - ImGui::CalcTextSize(number).x;
        const ImU32 ink = n == errorLine ? palette.problem
                          : n == current ? ImGui::GetColorU32(ImGuiCol_Text)
                                         : ImGui::GetColorU32(ImGuiCol_TextDisabled);
        draw->AddText({x, y}, ink, number);
        if (m_probe.enabled()) {
            m_probe.record("editor.gutter." + std::to_string(n), {x, y}, {origin.x + gutter, y + lineHeight}, number);
            m_probe.record("editor.line." + std::to_string(n), {origin.x + gutter + pad.x, y}, {right, y + lineHeight},
                           std::string(lineOf(m_state.text, n)));
        }
    }

    // The text box: as tall as its text, so that this child scrolls it and
    // the gutter together.
    ImGui::SetCursorScreenPos({origin.x + gutter, origin.y});
    ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
    ImGui::PushID(static_cast<int>(m_state.textVersion));  // a text loaded from outside: the box starts afresh
    CursorProbe cursor;
    cursor.line = m_cursorLine;
    if (ImGui::InputTextMultiline("##text", &m_state.text, {width - gutter, boxHeight},
                                  ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackAlways, onText,
                                  &cursor))
        m_state.modified = true;
    const bool active = ImGui::IsItemActive();
    ImGui::PopID();
    ImGui::PopStyleColor();

    // The view follows the text cursor when it moves (the box itself never
    // scrolls: it is as tall as its text), and goes to the step-through's
    // line and to a new error's line when they change.
    const float scroll = ImGui::GetScrollY();
    auto reveal = [&](int n, float where) {
        const float top = pad.y + static_cast<float>(n - 1) * lineHeight;  // in the child's content
        if (where >= 0.0f)
            ImGui::SetScrollY(std::max(0.0f, top - viewHeight * where));
        else if (top < scroll)
            ImGui::SetScrollY(std::max(0.0f, top - lineHeight));
        else if (top + lineHeight * 2.0f > scroll + viewHeight)
            ImGui::SetScrollY(top + lineHeight * 2.0f - viewHeight);
    };
    if (active && cursor.line != m_cursorLine)
        reveal(cursor.line + 1, -1.0f);
    m_cursorLine = active ? cursor.line : -1;
    if (!active && current > 0 && current != m_scrolledToLine)
        reveal(current, 0.4f);
    m_scrolledToLine = current;
    if (errorLine > 0 && m_state.errorLine != m_scrolledToError)
        reveal(errorLine, 0.4f);
    m_scrolledToError = m_state.errorLine;
    ImGui::EndChild();
    ImGui::PopFont();
}

void EditorPanel::drawError() {
    if (m_state.errorMessage.empty())
        return;
    problemMessage(m_theme, m_probe, "editor.error", errorText(m_state));
}

}  // namespace tilescope::ui
