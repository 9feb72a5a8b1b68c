// The shared memory view: the block's shared tile at the cursor (values as
// they are stored, ghost zeros marked, unwritten elements dark), and the mask
// in constant memory with the tap the selected thread uses now outlined. In
// compare mode, each kernel's, one above the other.
#pragma once

namespace tilescope::ui {

class App;

class SharedPanel {
public:
    explicit SharedPanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    // Run i's tile and mask in `height` pixels; notes what the legend needs.
    void drawRun(int i, float height, bool& ghostZero, bool& unwritten);

    App& m_app;
};

}  // namespace tilescope::ui
