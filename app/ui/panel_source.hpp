// The source view: the kernel as it ran, the selected thread's current line
// highlighted, and the current event in words (BlockReplay::describe).
#pragma once

namespace tilescope::ui {

class App;

class SourcePanel {
public:
    explicit SourcePanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    App& m_app;
    int m_shownLine = 0;  // scroll to the current line when it changes
};

}  // namespace tilescope::ui
