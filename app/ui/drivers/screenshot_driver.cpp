#include "ui/drivers/screenshot_driver.hpp"

#include <cstdio>
#include <utility>

#include "base/clock.hpp"
#include "ui/drivers/frames.hpp"

namespace tilescope::ui {

int runScreenshot(AppOptions options, const ScreenshotOptions& screenshot) {
    options.mode = AppMode::Screenshot;
    // --do names what it clicks by the rectangles the probe records.
    options.probe = options.probe || !screenshot.layoutJson.empty() || !screenshot.input.empty();
    App app(std::move(options));
    if (const int code = openApp(app))
        return code;
    const double deadline = base::seconds() + kDriverTimeoutSeconds;
    bool settled = settle(app, deadline);
    if (settled && !screenshot.thenOpen.empty()) {
        // The state before is in: now the file, as a user would drop it.
        app.openInputFile(screenshot.thenOpen.string());
        settled = settle(app, deadline);
    }
    if (settled && app.answerLessonQuestion())
        settled = settle(app, deadline);
    if (settled && !screenshot.input.empty()) {
        if (Status s = app.playInput(screenshot.input); !s) {
            std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
            return static_cast<int>(s.error().code);
        }
        while (app.playingInput() && base::seconds() < deadline) {
            app.window().pollEvents();
            app.frame();
        }
        if (const std::string& error = app.inputError(); !error.empty()) {
            std::fprintf(stderr, "tilescope: --do: %s\n", error.c_str());
            return 2;
        }
        settled = settle(app, deadline);
    }
    if (!settled)
        std::fprintf(stderr, "tilescope: the run did not finish in %.0f s; the picture shows it in progress\n",
                     kDriverTimeoutSeconds);
    return writePicture(app, screenshot.png, screenshot.layoutJson, true);
}

}  // namespace tilescope::ui
