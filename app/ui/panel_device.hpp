// The device panel: the limits every launch is checked against (the GPU's,
// or the reference limits when there is none), each beside what the current
// set-up asks for and, in words, which setting it bounds (api/limits.hpp):
// "too many threads" or "too much shared memory" has numbers next to it,
// and the block edge, the tile, the mask and the grid have their reasons.
#pragma once

#include "ui/panel.hpp"

namespace tilescope::ui {

struct RunStatus;

class DevicePanel : public Panel {
public:
    DevicePanel(PanelContext context, const RunStatus& run) : m_context(context), m_run(run) {}
    void draw(bool* open) override;

private:
    PanelContext m_context;
    const RunStatus& m_run;
};

}  // namespace tilescope::ui
