#include "ui/drivers/screenshot_driver.hpp"

#include <cstdio>
#include <utility>

#include "base/clock.hpp"
#include "ui/drivers/frames.hpp"

namespace tilescope::ui {

int runScreenshot(AppOptions options, const ScreenshotOptions& screenshot) {
    options.mode = AppMode::Screenshot;
    options.probe = options.probe || !screenshot.layoutJson.empty();
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
    if (!settled)
        std::fprintf(stderr, "tilescope: the run did not finish in %.0f s; the picture shows it in progress\n",
                     kDriverTimeoutSeconds);
    return writePicture(app, screenshot.png, screenshot.layoutJson, true);
}

}  // namespace tilescope::ui
