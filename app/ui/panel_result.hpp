// The result panel: the input N and the output P side by side (one above the
// other for 1D arrays, so that P[i] sits under N[i]), each through the colour
// map, with the backend, the time and the largest difference from the
// double-precision reference under them. It shows the runner's latest
// outcome; while a new one is being computed it shows progress and a Cancel
// button over the previous pictures.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gfx/texture.hpp"
#include "ui/runner.hpp"

namespace tilescope::ui {

class App;

class ResultPanel {
public:
    explicit ResultPanel(App& app) : m_app(app) {}
    void draw(bool* open);

private:
    void take(const std::shared_ptr<const RunOutcome>& outcome);
    void drawImages();
    void drawStatus();

    App& m_app;
    std::shared_ptr<const RunOutcome> m_shown;
    std::shared_ptr<const Image> m_output;  // the outcome's output, one or three channels
    gfx::ColorMappedImage m_inputImage;
    gfx::ColorMappedImage m_outputImage;
    std::string m_drawProblem;  // an image OpenGL cannot hold
};

}  // namespace tilescope::ui
