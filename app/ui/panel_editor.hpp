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

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "own/printout.hpp"
#include "ui/panel.hpp"

namespace tilescope::ui {


enum class CompileState { Idle, Compiling, Compiled, Failed, Cancelled };

// What the check of a run says about the kernel.
enum class Verdict { None, Running, Right, Wrong, Failed };

struct EditorState {
    std::string path;               // the file (empty: none open)
    std::string text;               // what the box shows and edits
    std::uint64_t textVersion = 0;  // bumped when the text is replaced from outside (a load): the box starts afresh
    bool modified = false;          // edited here since the last save or load

    CompileState compile = CompileState::Idle;
    double compileSeconds = 0.0;  // how long the compile in progress has run, or the last one took
    std::string compileNote;      // a compile that ended without a line to mark (no compiler, time limit)

    // A compile error, or a run that failed at a line of the file: the
    // gutter marks `errorLine` and the message is shown under the text.
    unsigned errorLine = 0;  // 0: none, or not at a line
    unsigned errorColumn = 0;
    std::string errorMessage;   // "error: expected ';' before '}' token"
    bool errorFromRun = false;  // the kernel compiled, and then failed as it ran

    int currentLine = 0;  // the line the step-through's selected thread stands on (0: none)

    Verdict verdict = Verdict::None;
    std::string verdictText;  // one line: "✓ your kernel is right", "✗ your kernel is wrong at 12 of 4096 outputs"
    std::string verdictDetail;  // what stands behind it
    // What the kernel printed (printf) in the run the verdict is about:
    // shown under it, in a section that folds (null or empty: none).
    std::shared_ptr<const KernelPrintout> printout;

    std::string fileNote;        // "reloaded: the file changed on disk", a file that cannot be read or written
    bool changedOnDisk = false;  // changed elsewhere while edited here: reload, or Ctrl+S to overwrite

    bool showPathField = false;  // the path field to open another file
    bool focusPath = false;      // File > Open kernel...: focus it once
    std::string pathField;
};

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
