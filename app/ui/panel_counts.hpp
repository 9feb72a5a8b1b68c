// The counts panel: the selected block's and the traced grid's counters and
// the book's ratios, each beside the book's formula for the same launch, and
// the measured time of the run with its backend. Two columns in compare mode.
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
