// The thread view: every thread of the selected block as a cell coloured by
// its state at the cursor (loading, computing, switched off for the output,
// idle, at a barrier, done; idle lanes of the last warp hatched), warps
// outlined. A click selects a thread. In compare mode, each kernel's block,
// one above the other. The two threads of the problem selected in the
// Problems panel are ringed, with an arrow from the first access's thread to
// the second's.
#pragma once

#include <array>
#include <vector>

#include "ui/cell_picture.hpp"

namespace tilescope::ui {

class App;

class ThreadsPanel {
public:
    explicit ThreadsPanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    // Run i's block in `height` pixels; notes the states it drew in `seen`.
    void drawRun(int i, float height, bool (&seen)[16]);

    App& m_app;
    bool m_problemShown = false;  // this frame: the selected problem's threads are marked
    std::array<CellPicture, 2> m_pictures;  // each run's threads
    std::vector<CellLook> m_looks;          // this frame's, kept to spare an allocation a frame
};

}  // namespace tilescope::ui
