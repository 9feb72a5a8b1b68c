// The counts panel: the selected block's and the traced grid's counters and
// the book's ratios, each beside the book's formula for the same launch, and
// the measured time of the run with its backend. Two columns in compare mode.
// Under them, the warps' requests of the block and of the launch (sectors,
// wavefronts, serialised constant passes), and, with every block traced, the
// launch through the cache model (memory_view.hpp): made once per trace, with it.
#pragma once

namespace tilescope::ui {

class App;

class CountsPanel {
public:
    explicit CountsPanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    App& m_app;
};

}  // namespace tilescope::ui
