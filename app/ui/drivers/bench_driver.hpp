// `tilescope ui-bench`: times the app's frames, in a visible window, once
// the first result is in, and prints the median and the worst; optionally
// while new results come in or the trace is stepped, and then each panel's
// own cost (panel_costs.hpp).
#pragma once

#include "ui/app.hpp"

namespace tilescope::ui {

struct BenchOptions {
    int frames = 300;         // frames timed
    int recomputeEvery = 0;   // change the set-up every this many frames (0: never)
    int stepEvery = 0;        // step the trace forward every this many frames (0: never)
    bool panelCosts = false;  // then time each panel's drawing and rendering (PanelCosts)
};

// Returns the process exit code.
int runBench(AppOptions options, const BenchOptions& bench);

}  // namespace tilescope::ui
