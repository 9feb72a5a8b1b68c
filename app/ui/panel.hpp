// What a panel is: a window of the app that draws itself (the ImHex model),
// made from what it draws and nothing more. Every panel draws with a
// PanelContext (the theme, the legend it explains its colours in, and the
// layout probe that records where things were drawn, for tests), and takes
// besides it only the model pieces it reads and the callbacks it may call:
// no panel knows the App. The table of panels (panel_table.hpp) says which
// panels there are; make_panel.hpp makes each from its pieces.
#pragma once

namespace tilescope::ui {

struct Theme;
class LegendPanel;
class LayoutProbe;

struct PanelContext {
    const Theme& theme;
    LegendPanel& legend;
    LayoutProbe& probe;
};

class Panel {
public:
    virtual ~Panel() = default;
    // Draws the panel's window; `open` is its flag in the View menu (the
    // window's close button clears it).
    virtual void draw(bool* open) = 0;
    // Whether what it shows is what it will stay: a screenshot waits for
    // every panel shown to settle (the charts wait for their sweep).
    virtual bool settled() const { return true; }
};

}  // namespace tilescope::ui
