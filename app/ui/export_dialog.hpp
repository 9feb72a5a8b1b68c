// File > Export...: a small window that fills an ExportRequest (format,
// view, range of steps, every, fps, size, path) and hands it back when the
// user presses Export. It knows nothing of the app beyond what it is given
// each frame: the trace's step count, whether MP4 is built in, and what the
// last export said.
#pragma once

#include <optional>
#include <string>

#include "ui/exporter.hpp"

namespace tilescope::ui {

class LayoutProbe;
struct Theme;

struct ExportDialogState {
    long long steps = -1;  // the trace's lockstep steps (-1: no trace yet)
    long long step = 0;    // where the step-through stands (the SVG's step)
    bool gif = true;       // this build writes GIF (not the browser's)
    bool mp4 = false;      // this build writes MP4
    std::string mp4Codec;  // and with what
    std::string message;   // what the last export wrote, or why it failed
    bool failed = false;
};

class ExportDialog {
public:
    void open() { m_open = m_focus = true; }
    bool isOpen() const { return m_open; }
    // Draws the window when open; returns a request when Export was pressed
    // (the window then closes, so that it is not in the frames).
    std::optional<ExportRequest> draw(const ExportDialogState& state, const Theme& theme, LayoutProbe& probe);

private:
    bool m_open = false;
    bool m_focus = false;
    int m_format = 0;           // ExportFormat
    int m_view = 0;             // ExportView
    int m_from = 0, m_to = -1;  // -1: the last step
    int m_every = 1;
    float m_fps = 8.0f;
    bool m_resize = false;
    int m_width = 640, m_height = 480;
    char m_path[1024] = "tilescope.gif";
};

}  // namespace tilescope::ui
