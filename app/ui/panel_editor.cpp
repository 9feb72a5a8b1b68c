#include "ui/panel_editor.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <TextEditor.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "ui/cuda_language.hpp"
#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

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


ImU32 toU32(const ImVec4& c) {
    return ImGui::ColorConvertFloat4ToU32(c);
}

// The editor's colours in the theme's: the everyday mode's dark panel with
// the editor's own dark syntax colours, lecture-hall mode's dark-on-light
// with darker, saturated syntax colours that hold on a washed-out projector.
// The background is see-through: the panel draws the step-through's line
// under the text, on the window's own background, as the Source panel does.
TextEditor::Palette editorPalette(const Theme& theme) {
    using C = TextEditor::Color;
    TextEditor::Palette p = theme.lecture ? TextEditor::GetLightPalette() : TextEditor::GetDarkPalette();
    auto set = [&p](C c, ImU32 colour) { p[static_cast<std::size_t>(c)] = colour; };
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    set(C::text, text);
    set(C::identifier, text);
    set(C::cursor, text);
    set(C::background, ImGui::GetColorU32(ImGuiCol_WindowBg, 0.0f));
    set(C::lineNumber, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    set(C::currentLineNumber, text);
    set(C::selection, ImGui::GetColorU32(ImGuiCol_TextSelectedBg));
    if (theme.lecture) {
        set(C::keyword, IM_COL32(0, 84, 166, 255));        // Okabe-Ito's blue, darkened
        set(C::declaration, IM_COL32(136, 34, 120, 255));  // its reddish purple, darkened
        set(C::knownIdentifier, IM_COL32(0, 110, 78, 255));
        set(C::number, IM_COL32(150, 70, 0, 255));
        set(C::string, IM_COL32(160, 30, 30, 255));
        set(C::preprocessor, IM_COL32(110, 80, 0, 255));
        set(C::comment, IM_COL32(85, 85, 85, 255));
        set(C::punctuation, text);
        set(C::currentLineHighlight, IM_COL32(0, 0, 0, 14));
    }
    return p;
}

const char* markKindName(EditorMarker::Kind kind) {
    switch (kind) {
        case EditorMarker::Kind::CompileError: return "compile";
        case EditorMarker::Kind::RunError: return "run";
        case EditorMarker::Kind::Problem: return "problem";
        case EditorMarker::Kind::DroppedBarrier: return "barrier";
    }
    return "";
}

}  // namespace

EditorPanel::EditorPanel(PanelContext context, EditorState& state, EditorCallbacks callbacks)
    : m_state(state), m_theme(context.theme), m_probe(context.probe), m_legend(context.legend),
      m_callbacks(std::move(callbacks)) {
    m_editor.SetLanguage(cudaLanguage());
    m_editor.SetTabSize(4);
    m_editor.SetInsertSpacesOnTabs(true);  // the Source panel shows the file as it is: spaces line up there
    m_editor.SetShowLineNumbersEnabled(true);
    m_editor.SetShowMatchingBrackets(true);
    m_editor.SetCompletePairedGlyphs(false);
    m_editor.SetAutoIndentEnabled(true);
    m_editor.SetShowScrollbarMiniMapEnabled(true);
    m_editor.SetShowWhitespacesEnabled(false);
    // Long lines wrap, as the Source panel wraps them: no code is cut at the
    // panel's edge (lecture-hall mode's type is large).
    m_editor.SetWordWrapEnabled(true);
    // Its own marker tooltips take the marker's colour for their background
    // and do not wrap: the panel shows its own (markTooltip).
    m_editor.SetLineDecorator(2, [this](TextEditor::Decorator& d) { drawMark(d); });
    m_editor.SetCustomLineNumberRenderer([this](const TextEditor::CustomLineNumber& n) {
        const std::string number = std::to_string(n.lineNumber + 1);
        const float width = ImGui::CalcTextSize(number.c_str()).x;
        const bool current = static_cast<int>(n.lineNumber) + 1 == m_state.currentLine;
        const ImVec2 at{n.pos.x + n.size.x - width, n.pos.y};
        n.drawList->AddText(at, current ? ImGui::GetColorU32(ImGuiCol_Text) : n.color, number.c_str());
        if (m_probe.enabled())
            m_probe.record("editor.gutter." + number, at, {n.pos.x + n.size.x, n.pos.y + n.size.y}, number);
    });
}

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

// [SECTION] The text

void EditorPanel::takeText() {
    if (m_state.textVersion == m_loadedVersion)
        return;
    // A text loaded from outside (a file opened, reloaded from disk): the
    // editor starts afresh, its undo history with it.
    m_editor.SetText(m_state.text);
    m_loadedVersion = m_state.textVersion;
    m_marksKey.clear();
    m_touched = false;
}

void EditorPanel::applyPalette() {
    if (m_paletteSet && m_paletteLecture == m_theme.lecture)
        return;
    m_editor.SetPalette(editorPalette(m_theme));
    m_paletteSet = true;
    m_paletteLecture = m_theme.lecture;
    m_marksKey.clear();
}

std::vector<EditorPanel::LineMark> EditorPanel::lineMarks() const {
    std::vector<LineMark> marks;
    auto add = [&marks](const LineMark& m) {
        for (LineMark& other : marks)
            if (other.line == m.line) {
                // One mark a line: the texts joined, the weightier kind's colour and click.
                other.text += "\n" + m.text;
                if (m.kind < other.kind) {
                    other.kind = m.kind;
                    other.column = m.column;
                    other.problem = m.problem;
                } else if (!other.problem) {
                    other.problem = m.problem;
                }
                other.stale = other.stale && m.stale;
                other.selected = other.selected || m.selected;
                return;
            }
        marks.push_back(m);
    };
    if (m_state.errorLine > 0) {
        LineMark m;
        m.line = m_state.errorLine;
        m.column = m_state.errorColumn;
        m.kind = m_state.errorFromRun ? EditorMarker::Kind::RunError : EditorMarker::Kind::CompileError;
        m.text = errorText(m_state);
        m.stale = m_state.modified;
        add(m);
    }
    const bool stale = m_state.text != m_state.markedText;
    for (const EditorMarker& p : m_state.problemMarkers) {
        LineMark m;
        m.line = p.line;
        m.column = p.column;
        m.kind = p.kind;
        m.text = p.text;
        m.problem = p.problem;
        m.stale = stale;
        m.selected = p.problem && m_state.selectedProblem == p.problem;
        add(m);
    }
    for (unsigned line : m_state.droppedBarriers) {
        LineMark m;
        m.line = line;
        m.kind = EditorMarker::Kind::DroppedBarrier;
        m.text = "__syncthreads() dropped here (the Source panel's check box): tick it there to put it back";
        add(m);
    }
    return marks;
}

void EditorPanel::updateMarkers(bool textChanged) {
    std::vector<LineMark> marks = lineMarks();
    std::string key;
    for (const LineMark& m : marks)
        key += std::to_string(m.line) + markKindName(m.kind) + (m.stale ? "s" : "") + (m.selected ? "*" : "") +
               m.text + "|";
    m_marks = std::move(marks);
    if (key == m_marksKey && !textChanged)
        return;
    // The editor moves a marker with its line as lines come and go; the
    // marks stand where the check found them (a stale mark is about the
    // checked text), so they are made again when the text changes.
    m_marksKey = key;
    m_editor.ClearMarkers();
    const Palette& palette = m_theme.palette;
    for (const LineMark& m : m_marks) {
        const ImU32 ink = m.stale ? toU32(palette.muted)
                          : m.kind == EditorMarker::Kind::DroppedBarrier ? toU32(palette.warning)
                          : m.kind == EditorMarker::Kind::Problem        ? palette.problemArrow
                                                                         : palette.problem;
        m_editor.AddMarker(m.line - 1, withAlpha(ink, m.selected ? 150 : 90), withAlpha(ink, m.selected ? 90 : 60),
                           "", "");
    }
}

void EditorPanel::markTooltip(const LineMark& m) const {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(m_theme.fontPixels * 40.0f);
    ImGui::TextUnformatted(m.text.c_str());
    if (m.stale)
        ImGui::TextDisabled("the text changed since this check: Ctrl+S checks it again");
    if (m.problem)
        ImGui::TextDisabled("click: select it in the Problems panel, and step the views to it");
    else if (m.kind == EditorMarker::Kind::CompileError || m.kind == EditorMarker::Kind::RunError)
        ImGui::TextDisabled("click: put the cursor there");
    ImGui::PopTextWrapPos();
    m_probe.record("editor.tooltip", ImGui::GetWindowPos(),
                   {ImGui::GetWindowPos().x + ImGui::GetWindowSize().x, ImGui::GetWindowPos().y + ImGui::GetWindowSize().y},
                   m.text);
    ImGui::EndTooltip();
}

// In the editor's decoration column, beside the line numbers: the mark's
// disc, which says what it is when hovered and selects it when clicked.
void EditorPanel::drawMark(const TextEditor::Decorator& d) {
    const unsigned line = static_cast<unsigned>(d.line) + 1;
    const auto m = std::find_if(m_marks.begin(), m_marks.end(), [&](const LineMark& x) { return x.line == line; });
    // At the line's first row: the editor steps its decorations one row a
    // line, which leaves them above their lines below a line that wraps.
    const ImVec2 at{ImGui::GetCursorScreenPos().x, m_editor.DocPos2ScreenPos(TextEditor::DocPos(d.line, 0)).y};
    ImGui::SetCursorScreenPos(at);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const Palette& palette = m_theme.palette;
    if (static_cast<int>(line) == m_state.currentLine) {
        // The step-through's line: a pointer, as well as the band under the text.
        const float h = d.height, x = at.x + d.width * 0.15f;
        draw->AddTriangleFilled({x, at.y + h * 0.2f}, {x, at.y + h * 0.8f}, {x + h * 0.35f, at.y + h * 0.5f},
                                m == m_marks.end() ? palette.loadedByThread : palette.problemCasing);
    }
    if (m == m_marks.end())
        return;
    const ImVec2 size{d.width, d.height};
    const bool clicked = ImGui::InvisibleButton("##mark", size);
    const bool hovered = ImGui::IsItemHovered();
    const ImU32 ink = m->stale ? toU32(palette.muted)
                      : m->kind == EditorMarker::Kind::DroppedBarrier ? toU32(palette.warning)
                      : m->kind == EditorMarker::Kind::Problem        ? palette.problemArrow
                                                                      : palette.problem;
    const ImVec2 centre{at.x + d.width * 0.55f, at.y + d.height * 0.5f};
    const float radius = d.height * 0.34f;
    const float casing = std::max(1.0f, m_theme.lineWidth);
    draw->AddCircleFilled(centre, radius + casing, palette.problemCasing);
    if (m->stale) {
        draw->AddCircle(centre, radius - casing * 0.5f, ink, 0, casing * 2.0f);  // hollow: about text that changed
    } else {
        draw->AddCircleFilled(centre, radius, ink);
        if (m->selected || hovered)
            draw->AddCircle(centre, radius + casing * 2.5f, ink, 0, casing * 1.5f);
    }
    const ImVec2 min{centre.x - radius, centre.y - radius}, max{centre.x + radius, centre.y + radius};
    const std::string number = std::to_string(line);
    m_probe.record("editor.marker." + number, min, max, m->text);
    if (m->stale)
        m_probe.record("editor.marker." + number + ".stale", min, max, m->text);
    if (m->kind == EditorMarker::Kind::CompileError || m->kind == EditorMarker::Kind::RunError)
        m_probe.record("editor.error.mark", min, max, number);
    if (hovered)
        markTooltip(*m);
    if (clicked) {
        if (m->problem && m_callbacks.selectProblem) {
            m_callbacks.selectProblem(*m->problem);
        } else if (m->kind == EditorMarker::Kind::CompileError || m->kind == EditorMarker::Kind::RunError) {
            m_editor.SetCursor(TextEditor::DocPos(line - 1, m->column > 0 ? m->column - 1 : 0));
            m_editor.SetFocus();
        }
    }
}

void EditorPanel::drawText(float height) {
    takeText();
    applyPalette();
    const Palette& palette = m_theme.palette;
    pushMonoFont(m_theme);
    const ImVec2 min = ImGui::GetCursorScreenPos();
    const ImVec2 size{ImGui::GetContentRegionAvail().x, height};
    const ImVec2 max{min.x + size.x, min.y + size.y};
    const int lines = static_cast<int>(m_editor.GetLineCount());
    const int current = m_state.currentLine;
    updateMarkers(false);

    // Under the text (the editor's background is see-through): the line the
    // step-through stands on, where the editor drew it last frame (it lays
    // its lines out as it draws them).
    const float lineHeight = m_editor.GetLineHeight();
    if (current >= 1 && current <= lines && lineHeight > 0.0f) {
        const auto line = static_cast<std::size_t>(current - 1);
        const float y = m_editor.DocPos2ScreenPos(TextEditor::DocPos(line, 0)).y;
        const float last = m_editor.DocPos2ScreenPos(TextEditor::DocPos(line, m_editor.GetLineText(line).size())).y;
        ImDrawList* draw = ImGui::GetWindowDrawList();
        draw->PushClipRect(min, max, true);
        draw->AddRectFilled({min.x, y}, {max.x, last + lineHeight}, withAlpha(palette.loadedByThread, 110));
        draw->PopClipRect();
        m_legend.addSwatch(withAlpha(palette.loadedByThread, 110), "the selected thread's line");
    }
    for (const LineMark& m : m_marks)
        if (!m.stale && (m.kind == EditorMarker::Kind::CompileError || m.kind == EditorMarker::Kind::RunError))
            m_legend.addSwatch(palette.problem,
                               m.kind == EditorMarker::Kind::RunError ? "the line where the run failed"
                                                                      : "the line of the compile error");
        else if (!m.stale && m.kind == EditorMarker::Kind::Problem)
            m_legend.addSwatch(palette.problemArrow, "a line of a problem the check found (hover it, click it)");

    // No horizontal scroll bar: long lines wrap.
    if (m_editor.Render("##text", size, ImGuiChildFlags_Borders, ImGuiWindowFlags_NoMove)) {
        m_state.text = m_editor.GetText();
        m_state.modified = true;
        updateMarkers(true);
    }
    // The student works in the text once they click in it (ImGui may give a
    // new window the keyboard focus by itself): from then on, while it has
    // the keyboard, the view stays where they put it.
    if (ImGui::IsMouseHoveringRect(min, max) && ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
        ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows))
        m_touched = true;
    const bool focused =
        m_touched && ImGui::IsWindowFocused(ImGuiFocusedFlags_ChildWindows) && ImGui::GetIO().WantTextInput;

    // Hovering a marked line says what its mark says (the disc says it too).
    if (ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) && !ImGui::IsAnyItemActive())
        for (const LineMark& m : m_marks) {
            const float y = m_editor.DocPos2ScreenPos(TextEditor::DocPos(m.line - 1, 0)).y;
            const ImVec2 a{m_editor.DocPos2ScreenPos(TextEditor::DocPos(m.line - 1, 0)).x, std::max(y, min.y)};
            const ImVec2 b{max.x, std::min(y + lineHeight, max.y)};
            if (a.y < b.y && ImGui::IsMouseHoveringRect(a, b) && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopup))
                markTooltip(m);
        }

    // The view goes to the step-through's line and to a new error's line
    // when they change (not while the student types).
    if (!focused && current > 0 && current != m_scrolledToLine)
        m_editor.ScrollToLine(static_cast<std::size_t>(current - 1), TextEditor::Scroll::alignMiddle);
    m_scrolledToLine = current;
    if (m_state.errorLine > 0 && m_state.errorLine != m_scrolledToError)
        m_editor.ScrollToLine(m_state.errorLine - 1, TextEditor::Scroll::alignMiddle);
    m_scrolledToError = m_state.errorLine;
    // And to a new check's first problem, until the step-through stands
    // somewhere: again each frame until the line is in view (the panel may
    // still be finding its size), unless the student has the keyboard.
    if (m_state.markedProblems.get() != m_scrolledToProblems) {
        m_scrolledToProblems = m_state.markedProblems.get();
        m_problemInView = m_state.problemMarkers.empty();
    }
    if (!m_problemInView && (focused || current != 0)) {
        m_problemInView = true;
    } else if (!m_problemInView) {
        const auto first = std::min_element(m_state.problemMarkers.begin(), m_state.problemMarkers.end(),
                                            [](const EditorMarker& a, const EditorMarker& b) { return a.line < b.line; });
        const std::size_t line = first->line - 1;
        const std::size_t row = m_editor.DocPos2VisPos(TextEditor::DocPos(line, 0)).row;
        if (row >= m_editor.GetFirstVisibleRow() && row + 1 <= m_editor.GetLastVisibleRow() &&
            m_editor.GetLastVisibleRow() > m_editor.GetFirstVisibleRow() + 1)
            m_problemInView = true;
        else if (++m_scrollWait % 4 == 1)  // (a scroll asked for lands a frame later)
            // At the top, with a line above it: the rest of a race below, as far as the view reaches.
            m_editor.ScrollToLine(line > 0 ? line - 1 : 0, TextEditor::Scroll::alignTop);
    }

    if (m_probe.enabled())
        recordLines(min, max);
    ImGui::PopFont();
}

// For the tests: each line drawn, the step-through's, the marked lines, the
// cursor and the selection, where they are on the screen.
void EditorPanel::recordLines(ImVec2 min, ImVec2 max) {
    m_probe.record("editor.text", min, max);
    const float lineHeight = m_editor.GetLineHeight();
    // The text's right edge: left of the scroll bar.
    const float right = max.x - ImGui::GetStyle().ScrollbarSize - ImGui::GetStyle().ChildBorderSize;
    const std::size_t first = m_editor.GetFirstVisibleRow(), last = m_editor.GetLastVisibleRow();
    for (std::size_t row = first; row <= last; ++row) {
        // A line's first row (a long line wraps onto more).
        const TextEditor::DocPos start = m_editor.VisPos2DocPos(TextEditor::VisPos(row, 0));
        if (start.index != 0 || (row > first && start.line == m_editor.VisPos2DocPos(TextEditor::VisPos(row - 1, 0)).line))
            continue;
        const std::size_t i = start.line;
        const ImVec2 at = m_editor.DocPos2ScreenPos(TextEditor::DocPos(i, 0));
        const std::string number = std::to_string(i + 1);
        const ImVec2 end{right, at.y + lineHeight};
        m_probe.record("editor.line." + number, at, end, m_editor.GetLineText(i));
        if (static_cast<int>(i) + 1 == m_state.currentLine)
            m_probe.record("editor.current", {min.x, at.y}, end, number);
        for (const LineMark& m : m_marks)
            if (m.line == i + 1 && (m.kind == EditorMarker::Kind::CompileError || m.kind == EditorMarker::Kind::RunError))
                m_probe.record("editor.error.line", at, end, number);
    }
    const TextEditor::DocPos cursor = m_editor.GetMainCursorPosition();
    const ImVec2 at = m_editor.DocPos2ScreenPos(cursor);
    m_probe.record("editor.cursor", at, {at.x + 2.0f, at.y + lineHeight},
                   std::to_string(cursor.line + 1) + ":" + std::to_string(cursor.index + 1));
    if (m_editor.MainCursorHasSelection())
        m_probe.record("editor.selection", at, {at.x + 2.0f, at.y + lineHeight},
                       m_editor.GetSectionText(m_editor.GetMainCursorSelection()));
}

void EditorPanel::drawError() {
    if (m_state.errorMessage.empty())
        return;
    problemMessage(m_theme, m_probe, "editor.error", errorText(m_state));
}

}  // namespace tilescope::ui
