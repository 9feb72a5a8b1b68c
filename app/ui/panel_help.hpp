// The help overlay: the keyboard shortcuts, over everything, until F1 or Esc.
#pragma once

namespace tilescope::ui {

class App;

class HelpPanel {
public:
    explicit HelpPanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    App& m_app;
};

}  // namespace tilescope::ui
