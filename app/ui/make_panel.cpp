#include "ui/make_panel.hpp"

#include "ui/panel_charts.hpp"
#include "ui/panel_class.hpp"
#include "ui/panel_counts.hpp"
#include "ui/panel_device.hpp"
#include "ui/panel_grid.hpp"
#include "ui/panel_hardware.hpp"
#include "ui/panel_output.hpp"
#include "ui/panel_problems.hpp"
#include "ui/panel_result.hpp"
#include "ui/panel_shared.hpp"
#include "ui/panel_source.hpp"
#include "ui/panel_threads.hpp"

namespace tilescope::ui {

std::unique_ptr<Panel> makePanel(PanelId id, const PanelSources& s) {
    // No default: a row of the table without a line here is a compiler warning.
    switch (id) {
        case PanelId::Setup:
            return std::make_unique<SetupPanel>(s.context, s.setup, s.view, s.run, s.maskFileProblem, s.setupActions);
        case PanelId::Result:
            return std::make_unique<ResultPanel>(s.context, s.run, s.runner, s.colorMapper);
        case PanelId::Device:
            return std::make_unique<DevicePanel>(s.context, s.run);
        case PanelId::Help:
            return std::make_unique<HelpPanel>(s.context, s.shortcuts);
        case PanelId::Grid:
            return std::make_unique<GridPanel>(s.context, s.traceSession, s.lessons, s.colorMapper, s.gridOverlays);
        case PanelId::Threads:
            return std::make_unique<ThreadsPanel>(s.context, s.traceSession, s.lessons);
        case PanelId::Shared:
            return std::make_unique<SharedPanel>(s.context, s.traceSession, s.panels);
        case PanelId::Output:
            return std::make_unique<OutputPanel>(s.context, s.traceSession);
        case PanelId::Source:
            return std::make_unique<SourcePanel>(s.context, s.traceSession, s.setup, s.ownKernel);
        case PanelId::Counts:
            return std::make_unique<CountsPanel>(s.context, s.traceSession, s.run, s.openedTrace);
        case PanelId::Hardware:
            return std::make_unique<HardwarePanel>(s.context, s.traceSession, s.openedTrace);
        case PanelId::Problems:
            return std::make_unique<ProblemsPanel>(s.context, s.traceSession);
        case PanelId::Editor:
            return std::make_unique<EditorPanel>(s.context, s.editor, s.editorCallbacks);
        case PanelId::Charts:
            return std::make_unique<ChartsPanel>(s.context, s.wake);
        case PanelId::Class:
            return std::make_unique<ClassPanel>(s.context, s.classView, s.classCallbacks);
    }
    return nullptr;
}

}  // namespace tilescope::ui
