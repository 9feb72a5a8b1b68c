// The set-up panel: what to run. Kernel (1D and 2D, each with its book
// figure), mask (presets and an editable grid), radius, block edge, input
// (built-in, a file by path, or one dropped on the window) and its size, and
// the backend. Every choice that cannot work says why right under it, in the
// words the launch planner uses; nothing here runs anything (the App sees the
// changed set-up and asks the runner).
#pragma once

#include <string>
#include <vector>

namespace tilescope::ui {

class App;

class SetupPanel {
public:
    explicit SetupPanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    void drawKernel();
    void drawMask();
    void drawMaskGrid();
    void drawLaunch();
    void drawBarriers();
    void drawInput();
    void drawBackend();
    // A problem message in place, scrolled into view the frame it appears.
    void problem(const char* probeName, const std::string& message);

    App& m_app;
    std::string m_path;      // the input path being typed
    std::string m_maskPath;  // the mask file path being typed
    bool m_square = true;    // 2D size: width and height move together
    std::vector<std::string> m_problemsShown;  // the problem messages of the last frame
    std::vector<std::string> m_problemsNow;
};

}  // namespace tilescope::ui
