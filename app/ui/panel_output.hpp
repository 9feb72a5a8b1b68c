// The output view: P as the selected block has written it up to the cursor.
#pragma once

namespace tilescope::ui {

class App;

class OutputPanel {
public:
    explicit OutputPanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    App& m_app;
};

}  // namespace tilescope::ui
