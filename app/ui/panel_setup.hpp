// The set-up panel: what to run. Kernel (1D and 2D, each with its book
// figure), mask (presets and an editable grid), radius, block edge, input
// (built-in, a file by path, or one dropped on the window) and its size, and
// the backend. Every choice that cannot work says why right under it, in the
// words the launch planner uses; nothing here runs anything (the App sees the
// changed set-up and asks the runner).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "ui/panel.hpp"

namespace tilescope {
struct KernelInfo;
}

namespace tilescope::ui {

struct SetupState;
struct ViewState;
struct RunStatus;

// What the set-up panel may ask of the app.
struct SetupActions {
    std::function<std::string()> ownKernelLabel;  // "your conv2d_tiled (file.cu)"; empty: no kernel file open
    std::function<const KernelInfo*()> ownKernel;  // the kernel file's entry (null: it has not compiled)
    std::function<void()> openKernel;             // File > Open kernel...: the editor's path field
    std::function<void(const std::string&)> openInputFile;
    std::function<Status(const std::string&)> loadMaskFile;  // into the custom grid (a problem: maskFileProblem)
    std::function<bool()> takeFocusPathRequest;              // Ctrl+O asked to focus the path field (once)
};

class SetupPanel : public Panel {
public:
    SetupPanel(PanelContext context, SetupState& setup, ViewState& view, const RunStatus& run,
               const std::string& maskFileProblem, SetupActions actions)
        : m_context(context), m_setup(setup), m_view(view), m_run(run), m_maskFileProblem(maskFileProblem),
          m_actions(std::move(actions)) {}
    void draw(bool* open) override;

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

    PanelContext m_context;
    SetupState& m_setup;
    ViewState& m_view;  // the kernel compared with
    const RunStatus& m_run;
    const std::string& m_maskFileProblem;  // what went wrong with the last mask file read
    SetupActions m_actions;
    std::string m_path;      // the input path being typed
    std::string m_maskPath;  // the mask file path being typed
    bool m_square = true;    // 2D size: width and height move together
    std::vector<std::string> m_problemsShown;  // the problem messages of the last frame
    std::vector<std::string> m_problemsNow;
};

}  // namespace tilescope::ui
