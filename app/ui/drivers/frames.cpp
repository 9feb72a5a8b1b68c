#include "ui/drivers/frames.hpp"

#include <cstdio>

#include "base/clock.hpp"
#include "ui/app.hpp"

namespace tilescope::ui {

int openApp(App& app) {
    if (Status s = app.open(); !s) {
        std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
        return static_cast<int>(s.error().code);
    }
    return 0;
}

bool settle(App& app, double deadline) {
    for (int settledFrames = 0;;) {
        // While a panel waits for work off the UI thread (the charts'
        // sweep), draw a frame only now and then: drawing flat out takes
        // the cores that work needs.
        if (app.frameCount() > 3 && !app.panelsSettled())
            app.window().waitEvents(0.05);
        else
            app.window().pollEvents();
        app.frame();
        settledFrames = app.settled() ? settledFrames + 1 : 0;
        if (settledFrames >= kSettleFrames)
            return true;
        if (base::seconds() > deadline)
            return false;
    }
}

int writePicture(App& app, const std::filesystem::path& png, const std::filesystem::path& layoutJson, bool say) {
    auto size = app.savePicture(png, layoutJson);
    if (!size) {
        std::fprintf(stderr, "tilescope: %s\n", size.error().message.c_str());
        return static_cast<int>(size.error().code);
    }
    if (say)
        std::fprintf(stderr, "tilescope: wrote %s (%dx%d)\n", png.string().c_str(), (*size)[0], (*size)[1]);
    return 0;
}

}  // namespace tilescope::ui
