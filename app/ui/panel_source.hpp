// The source view: the kernel as it ran, the selected thread's current line
// highlighted, and the current event in words (BlockReplay::describe). In
// compare mode, each kernel's, one above the other.
//
// Every line that holds a __syncthreads() has a check box in the margin:
// unticking it drops that barrier (SetupState::droppedBarriers) for the
// result and the trace alike, the classroom race demonstration.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ui/panel.hpp"

namespace tilescope {
struct KernelInfo;
}

namespace tilescope::ui {

class TraceSession;
struct SetupState;

class SourcePanel : public Panel {
public:
    SourcePanel(PanelContext context, TraceSession& session, SetupState& setup,
                std::function<const KernelInfo*()> ownKernel)
        : m_context(context), m_session(session), m_setup(setup), m_ownKernel(std::move(ownKernel)) {}
    void draw(bool* open) override;

private:
    void drawRun(int i, float height);
    // The margin of line `line`: a check box when the set-up's kernel has a
    // barrier there (`barriers`), else blank space of the same width.
    void drawMargin(unsigned line, bool barriers);

    PanelContext m_context;
    TraceSession& m_session;
    SetupState& m_setup;                             // the Source panel's check boxes drop barriers from it
    std::function<const KernelInfo*()> m_ownKernel;  // the kernel file's entry, for a set-up that runs it
    const KernelInfo* m_barrierKernel = nullptr;     // the kernel m_barrierLines belong to
    std::vector<unsigned> m_barrierLines;            // its lines that hold a __syncthreads()
    bool m_struck = false;                 // this frame: a dropped barrier is struck through (the legend says so)
    std::array<int, 2> m_shownLine{};      // per run: scroll to the current line when it changes,
    std::array<float, 2> m_shownHeight{};  // or (lecture-hall mode) when the code's view changes height
};

}  // namespace tilescope::ui
