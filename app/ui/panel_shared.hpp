// The shared memory view: the block's shared tile at the cursor (values as
// they are stored, ghost zeros marked, unwritten elements dark), and the mask
// in constant memory with the tap the selected thread uses now outlined. In
// compare mode, each kernel's, one above the other. The problem selected in
// the Problems panel, when it is in this block: its element outlined, and an
// arrow from the first access's thread to the second's, each thread drawn at
// the element it stores (its own cell of the tile).
#pragma once

namespace tilescope::ui {

class App;

class SharedPanel {
public:
    explicit SharedPanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    // What the legend must explain.
    struct Seen {
        bool ghostZero = false, unwritten = false, problemElement = false, problemArrow = false;
    };
    // Run i's tile and mask in `height` pixels; notes what the legend needs.
    void drawRun(int i, float height, Seen& seen);

    App& m_app;
};

}  // namespace tilescope::ui
