// `tilescope screenshot`: the app in a given state, drawn off-screen until
// the result is in and the layout has settled, then written into a PNG
// (with, for tests, where everything was drawn).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ui/app.hpp"

namespace tilescope::ui {

struct ScreenshotOptions {
    std::filesystem::path png;         // the PNG to write
    std::filesystem::path layoutJson;  // where things were drawn (for tests); empty: not written
    std::filesystem::path thenOpen;    // once the first result is in, open this input file, then draw
    std::vector<std::string> input;    // then play this input (App::playInput), then draw
};

// Returns the process exit code.
int runScreenshot(AppOptions options, const ScreenshotOptions& screenshot);

}  // namespace tilescope::ui
