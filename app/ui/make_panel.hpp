// How each panel of the table (panel_table.hpp) is made: from the pieces it
// draws. PanelSources gathers everything a panel may take (the context every
// panel draws with, the models, the App's actions); each panel takes only
// what it needs of it, in its constructor.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>

#include "ui/panel.hpp"
#include "ui/panel_class.hpp"
#include "ui/panel_editor.hpp"
#include "ui/panel_help.hpp"
#include "ui/panel_setup.hpp"
#include "model/panel_table.hpp"

namespace tilescope::gfx {
class ColorMapper;
}

namespace tilescope::ui {

class TraceSession;
class Runner;
class LessonPlayer;
struct GridOverlays;
struct SetupState;
struct ViewState;
struct RunStatus;
struct OpenedTrace;

struct PanelSources {
    PanelContext context;
    TraceSession& traceSession;
    Runner& runner;
    LessonPlayer& lessons;
    gfx::ColorMapper& colorMapper;
    GridOverlays& gridOverlays;  // the grid view's switches (the SVG export draws the same)
    SetupState& setup;
    ViewState& view;
    const PanelVisibility& panels;
    const RunStatus& run;
    const OpenedTrace& openedTrace;
    const std::string& maskFileProblem;
    SetupActions setupActions;
    std::function<const KernelInfo*()> ownKernel;  // the kernel file's entry (null: it has not compiled)
    EditorState& editor;  // the kernel file's, in the editor
    EditorCallbacks editorCallbacks;
    std::span<const Shortcut> shortcuts;
    ClassView& classView;  // the graded class open, in the Class panel
    ClassCallbacks classCallbacks;
    std::function<void()> wake;  // wakes the frame loop from another thread (the charts' sweep is in)
};

std::unique_ptr<Panel> makePanel(PanelId id, const PanelSources& sources);

}  // namespace tilescope::ui
