#include "ui/drivers/export_driver.hpp"

#include <cstdio>
#include <utility>

#include "base/clock.hpp"
#include "ui/drivers/frames.hpp"

namespace tilescope::ui {

int runExport(AppOptions options, const ExportRequest& request) {
    options.mode = AppMode::Export;
    App app(std::move(options));
    if (const int code = openApp(app))
        return code;
    const double deadline = base::seconds() + kDriverTimeoutSeconds;
    bool settled = settle(app, deadline);
    if (settled && app.answerLessonQuestion())
        settled = settle(app, deadline);
    if (!settled) {
        std::fprintf(stderr, "tilescope: the trace was not in after %.0f s; nothing exported\n", kDriverTimeoutSeconds);
        return static_cast<int>(ExitCode::Internal);
    }
    if (Status s = app.startExport(request); !s) {
        std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
        return static_cast<int>(s.error().code);
    }
    // Each frame steps the trace and is read back after it is drawn.
    while (app.exporting()) {
        app.window().pollEvents();
        app.frame();
    }
    std::fprintf(stderr, "tilescope: %s\n", app.exportMessage().c_str());
    return app.exportFailed() ? static_cast<int>(ExitCode::BadInput) : 0;
}

}  // namespace tilescope::ui
