// The hardware panel: what the GPU did during an instrumented run (the
// trace's `hardware` record, trace/hardware.hpp). One row per SM that ran a
// block, time across (nanoseconds from the earliest block's start), one bar
// per block, labelled with the block's index where it fits; the selected
// block is highlighted, and hovering a bar tells its block, SM, start,
// duration and the hardware warp slots its warps occupied.
//
// The record comes from the trace opened with --open-trace when there is
// one, otherwise from the step-through views' trace. CPU runs have none: the
// panel then says why in one line instead of drawing.
#pragma once

#include "ui/panel.hpp"

namespace tilescope::ui {

class TraceSession;
struct OpenedTrace;

class HardwarePanel : public Panel {
public:
    HardwarePanel(PanelContext context, TraceSession& session, const OpenedTrace& openedTrace)
        : m_context(context), m_session(session), m_openedTrace(openedTrace) {}
    void draw(bool* open) override;

private:
    PanelContext m_context;
    TraceSession& m_session;
    const OpenedTrace& m_openedTrace;  // its hardware record, when a trace file is open
};

}  // namespace tilescope::ui
