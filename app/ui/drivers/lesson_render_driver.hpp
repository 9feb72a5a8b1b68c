// `tilescope lesson NAME --render DIR`: every step of a lesson drawn
// off-screen into DIR, step-01.png with its layout JSON, and for a step with
// a question the answer revealed too (step-01-revealed.png).
#pragma once

#include <filesystem>

#include "ui/app.hpp"

namespace tilescope::ui {

// `options` names the lesson. Returns the process exit code.
int renderLesson(AppOptions options, const std::filesystem::path& folder);

}  // namespace tilescope::ui
