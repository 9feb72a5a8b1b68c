// `tilescope export`: the app in a given state, drawn off-screen until the
// trace is in, then stepped through it frame by frame into a GIF, an MP4 or
// PNGs, or its grid diagram written as an SVG (exporter.hpp).
#pragma once

#include "ui/app.hpp"
#include "ui/exporter.hpp"

namespace tilescope::ui {

// Returns the process exit code.
int runExport(AppOptions options, const ExportRequest& request);

}  // namespace tilescope::ui
