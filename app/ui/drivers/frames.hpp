// What the drivers share (the screenshot, the lesson's pictures, the export
// and the benchmark: each opens an App and draws its frames itself): opening
// the app, drawing frames until the picture holds still, and writing it out.
#pragma once

#include <filesystem>

namespace tilescope::ui {

class App;

// How long a driver waits for the result, the trace and the layout.
inline constexpr double kDriverTimeoutSeconds = 120.0;
// Frames a picture waits after the result is in, for windows to take their
// size and place (ImGui lays out from the previous frame's sizes).
inline constexpr int kSettleFrames = 6;

// Opens the app: 0, or the exit code once stderr says why not.
int openApp(App& app);

// Draws frames until the app has settled for kSettleFrames frames in a row:
// true; false when the clock (base::seconds()) passes `deadline` first.
bool settle(App& app, double deadline);

// Writes the picture drawn last into `png` (and where things were drawn
// into `layoutJson` unless it is empty); says so on stderr when `say`.
// Returns the exit code.
int writePicture(App& app, const std::filesystem::path& png, const std::filesystem::path& layoutJson, bool say);

}  // namespace tilescope::ui
