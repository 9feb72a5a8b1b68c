// The Editor panel: the student's own kernel file, editable. Line numbers in
// a gutter; the line the step-through stands on highlighted as the Source
// panel highlights it; Ctrl+S (or Compile) saves and compiles, off the UI
// thread, with "compiling..." and a Cancel button meanwhile; a compile error
// is marked at its line (a red mark in the gutter, the line tinted) and said
// in words under the text; after a compile, whether the kernel is right, and
// what it printed (its first lines, in a section that folds).
//
// The panel knows only its EditorState, its PanelContext and the callbacks
// below: who compiles, runs and watches the file (KernelFile and
// the App) is none of its business.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <utility>

#include "exec/printout.hpp"
#include "model/editor_state.hpp"
#include "ui/panel.hpp"

namespace tilescope::ui {


struct EditorCallbacks {
    std::function<void()> compile;                 // save, then compile off the UI thread
    std::function<void()> cancel;                  // stop the compile in progress
    std::function<void()> reload;                  // take the file's text from disk
    std::function<void(const std::string&)> open;  // another file
};

class EditorPanel : public Panel {
public:
    EditorPanel(PanelContext context, EditorState& state, EditorCallbacks callbacks)
        : m_state(state), m_theme(context.theme), m_probe(context.probe), m_legend(context.legend),
          m_callbacks(std::move(callbacks)) {}
    void draw(bool* open) override;

private:
    void drawToolbar();
    void drawCompileState();
    void drawPathField();
    void drawStatus();
    void drawPrintout();
    void drawText(float height);
    void drawError();

    EditorState& m_state;
    const Theme& m_theme;
    LayoutProbe& m_probe;
    LegendPanel& m_legend;
    EditorCallbacks m_callbacks;
    int m_cursorLine = -1;     // the text cursor's line in the last frame (the view follows it when it moves)
    int m_scrolledToLine = 0;  // the step-through line scrolled to last
    unsigned m_scrolledToError = 0;
};

}  // namespace tilescope::ui
