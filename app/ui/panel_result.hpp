// The result panel: the input N and the output P side by side (one above the
// other for 1D arrays, so that P[i] sits under N[i]), each through the colour
// map, with the backend, the time and the largest difference from the
// double-precision reference under them. While a new result is being
// computed it shows progress and a Cancel button over the previous pictures.
// A run that fails (a file that cannot be read, a GPU that fails, a cancel)
// is reported in words, and the pictures of the last good run stay, marked
// as such: nothing the user saw is lost to a bad input.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gfx/texture.hpp"
#include "model/runner.hpp"
#include "ui/panel.hpp"

namespace tilescope::ui {

struct RunStatus;

class ResultPanel : public Panel {
public:
    ResultPanel(PanelContext context, const RunStatus& run, Runner& runner, gfx::ColorMapper& colorMapper)
        : m_context(context), m_run(run), m_runner(runner), m_colorMapper(colorMapper) {}
    void draw(bool* open) override;

private:
    void take(const std::shared_ptr<const RunOutcome>& outcome);
    void drawImages();
    void drawStatus();
    void lastGoodNote(const char* where);  // "Below: the last good result (...)"

    PanelContext m_context;
    const RunStatus& m_run;
    Runner& m_runner;  // its progress, and the Cancel button
    gfx::ColorMapper& m_colorMapper;
    std::shared_ptr<const RunOutcome> m_shown;  // the latest outcome: its status is shown
    std::shared_ptr<const RunOutcome> m_good;   // the latest with a result: its pictures are shown
    std::shared_ptr<const Image> m_output;      // m_good's output, one or three channels
    gfx::ColorMappedImage m_inputImage;
    gfx::ColorMappedImage m_outputImage;
    std::string m_drawProblem;  // an image OpenGL cannot hold
    bool m_wrongMarked = false;  // the wrong outputs are marked on the image (this frame)
    float m_statusHeight = 0.0f; // the status lines' height, as the last frame drew them
};

}  // namespace tilescope::ui
