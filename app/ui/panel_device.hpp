// The device panel: the limits every launch is checked against (the GPU's,
// or the reference limits when there is none), each beside what the current
// set-up asks for and, in words, which setting it bounds (api/limits.hpp):
// "too many threads" or "too much shared memory" has numbers next to it,
// and the block edge, the tile, the mask and the grid have their reasons.
#pragma once

namespace tilescope::ui {

class App;

class DevicePanel {
public:
    explicit DevicePanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    App& m_app;
};

}  // namespace tilescope::ui
