// The Editor panel: the student's own kernel file, editable, in
// ImGuiColorTextEdit's text editor: CUDA highlighted (ui/cuda_language.hpp),
// line numbers, undo and redo, find and replace (Ctrl+F), matching brackets,
// in the theme's colours. Ctrl+S (or Compile) saves and compiles, off the UI
// thread, with "compiling..." and a Cancel button meanwhile; after a compile,
// whether the kernel is right, and what it printed (its first lines, in a
// section that folds).
//
// What went wrong is marked at its line, the line tinted and a disc beside
// its number: a compile error or a refusal (its words also under the text),
// a run that failed there, and each problem the check found (a race at both
// of its lines, an access out of bounds, a read of memory nobody wrote, a
// barrier not reached; model/editor_markers.hpp), and a barrier dropped in
// the Source panel. Hovering a mark says what it is; clicking a problem's
// selects it in the Problems panel, which steps the views to it. Once the
// text changes, the check's marks are drawn stale (grey) until the next
// check. The line the step-through stands on is highlighted as the Source
// panel highlights it.
//
// The panel knows only its EditorState, its PanelContext and the callbacks
// below: who compiles, runs and watches the file (KernelFile and the App) is
// none of its business.
#pragma once

#include <TextEditor.h>
#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exec/printout.hpp"
#include "model/editor_state.hpp"
#include "ui/panel.hpp"

namespace tilescope::ui {

struct EditorCallbacks {
    std::function<void()> compile;                     // save, then compile off the UI thread
    std::function<void()> cancel;                      // stop the compile in progress
    std::function<void()> reload;                      // take the file's text from disk
    std::function<void(const std::string&)> open;      // another file
    std::function<void(std::size_t)> selectProblem;  // a problem's mark clicked (an index into the Problems panel's)
};

class EditorPanel : public Panel {
public:
    EditorPanel(PanelContext context, EditorState& state, EditorCallbacks callbacks);
    void draw(bool* open) override;

private:
    // One mark a line: the problems at a line joined.
    struct LineMark {
        unsigned line = 0;
        unsigned column = 0;
        EditorMarker::Kind kind = EditorMarker::Kind::Problem;
        std::string text;
        std::optional<std::size_t> problem;
        bool stale = false;
        bool selected = false;  // the Problems panel's selection is this mark's
    };

    void drawToolbar();
    void drawCompileState();
    void drawPathField();
    void drawStatus();
    void drawPrintout();
    void drawText(float height);
    void drawError();
    void takeText();  // the state's text into the editor when it was loaded from outside
    void applyPalette();
    std::vector<LineMark> lineMarks() const;
    void updateMarkers(bool textChanged);
    void drawMark(const TextEditor::Decorator& decorator);
    void markTooltip(const LineMark& mark) const;
    void recordLines(ImVec2 childMin, ImVec2 childMax);

    EditorState& m_state;
    const Theme& m_theme;
    LayoutProbe& m_probe;
    LegendPanel& m_legend;
    EditorCallbacks m_callbacks;
    TextEditor m_editor;
    std::uint64_t m_loadedVersion = ~std::uint64_t{0};  // the state's textVersion the editor holds
    bool m_paletteLecture = false;
    bool m_paletteSet = false;
    std::vector<LineMark> m_marks;  // as given to the editor
    std::string m_marksKey;         // what they were made from, to remake them when it changes
    int m_scrolledToLine = 0;       // the step-through line scrolled to last
    unsigned m_scrolledToError = 0;
    const void* m_scrolledToProblems = nullptr;  // the check whose first mark is scrolled to
    bool m_problemInView = true;                 // that mark has been in view (or the student took over)
    int m_scrollWait = 0;
    bool m_touched = false;                      // clicked in since the text was loaded
};

}  // namespace tilescope::ui
