// The source view: the kernel as it ran, the selected thread's current line
// highlighted, and the current event in words (BlockReplay::describe). In
// compare mode, each kernel's, one above the other.
#pragma once

#include <array>

namespace tilescope::ui {

class App;

class SourcePanel {
public:
    explicit SourcePanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    void drawRun(int i, float height);

    App& m_app;
    std::array<int, 2> m_shownLine{};  // per run: scroll to the current line when it changes
};

}  // namespace tilescope::ui
