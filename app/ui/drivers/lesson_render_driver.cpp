#include "ui/drivers/lesson_render_driver.hpp"

#include <cstdio>
#include <string>
#include <utility>

#include "base/clock.hpp"
#include "model/lesson_player.hpp"
#include "ui/drivers/frames.hpp"

namespace tilescope::ui {

int renderLesson(AppOptions options, const std::filesystem::path& folder) {
    options.mode = AppMode::Screenshot;
    options.probe = true;
    App app(std::move(options));
    if (const int code = openApp(app))
        return code;
    LessonPlayer& lessons = app.lessons();
    const double deadline = base::seconds() + kDriverTimeoutSeconds;
    int rendered = 0;
    for (;;) {
        if (!settle(app, deadline)) {
            std::fprintf(stderr, "tilescope: the run did not finish in %.0f s; the picture shows it in progress\n",
                         kDriverTimeoutSeconds);
            return writePicture(app, {}, {}, false);
        }
        if (app.answerLessonQuestion())
            continue;
        if (!lessons.active())
            break;
        // This step (and, for a question, its answer revealed), then the next.
        char name[64];
        const LessonStep* step = lessons.step();
        const bool revealed = lessons.revealed();
        std::snprintf(name, sizeof name, "step-%02d%s", lessons.stepIndex() + 1, revealed ? "-revealed" : "");
        if (const int code =
                writePicture(app, folder / (std::string(name) + ".png"), folder / (std::string(name) + ".json"), false))
            return code;
        ++rendered;
        if (step && step->question && !revealed)
            lessons.requestReveal();
        else if (lessons.stepIndex() + 1 < lessons.stepCount())
            lessons.go(lessons.stepIndex() + 1);
        else
            break;
    }
    std::fprintf(stderr, "tilescope: wrote %d pictures of the lesson's steps into %s\n", rendered,
                 folder.string().c_str());
    return 0;
}

}  // namespace tilescope::ui
