// The counts panel: the selected block's and the traced grid's counters and
// the book's ratios, each beside the book's formula for the same launch, and
// the measured time of the run with its backend. Two columns in compare mode.
// Under them, the warps' requests of the block and of the launch (sectors,
// wavefronts, serialised constant passes), and, with every block traced, the
// launch through the cache model (memory_view.hpp): made once per trace, with it.
#pragma once

#include "ui/panel.hpp"

namespace tilescope::ui {

class TraceSession;
struct RunStatus;
struct OpenedTrace;

class CountsPanel : public Panel {
public:
    CountsPanel(PanelContext context, TraceSession& session, const RunStatus& run, const OpenedTrace& openedTrace)
        : m_context(context), m_session(session), m_run(run), m_openedTrace(openedTrace) {}
    void draw(bool* open) override;

private:
    PanelContext m_context;
    TraceSession& m_session;
    const RunStatus& m_run;
    const OpenedTrace& m_openedTrace;
};

}  // namespace tilescope::ui
