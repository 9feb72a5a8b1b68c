// The student's kernel file as the Editor panel shows it, as plain data: its
// text, the compile in progress or its end, an error at a line, the problems
// the check found at their lines, the verdict of the last run and what the
// kernel printed. KernelFile (kernel_file.hpp)
// fills it, the Editor panel (ui/panel_editor.hpp) draws and edits it.
#pragma once

#include <cstdint>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/printout.hpp"
#include "model/editor_markers.hpp"

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

    // The check's problems at their lines (the compile error is marked from
    // errorLine above), found in `markedText`: once the text differs from
    // it, they are shown as stale until the next check.
    std::vector<EditorMarker> problemMarkers;
    std::string markedText;
    std::shared_ptr<const ProblemSet> markedProblems;  // the set they were made from
    std::vector<unsigned> droppedBarriers;  // lines whose __syncthreads() the set-up drops (the Source panel)
    std::optional<std::size_t> selectedProblem;  // the Problems panel's selection (an index into its items)

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

}  // namespace tilescope::ui
