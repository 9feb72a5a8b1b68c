// What the app shows, as plain data: the set-up (what to run), the view (what
// is selected and where the step-through stands), and which panels are open.
// Panels edit this state; the App notices changes and asks the runner for a
// new result. The settings file stores it between runs (settings.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "api/runner.hpp"
#include "model/inputs.hpp"
#include "model/masks.hpp"
#include "model/panel_table.hpp"
#include "trace/trace_index.hpp"

namespace tilescope::ui {

// Everything the result depends on. Any change to it starts a new run.
struct SetupState {
    std::string kernel = "conv2d_tiled_in";  // a catalogue name, or "own": the kernel file (kOwnKernelKey)
    MaskPreset preset = MaskPreset::Figure7_4;
    int radius = 2;                   // for presets of any size and for Custom
    std::vector<float> customValues;  // Custom: (2r+1) or (2r+1)^2 values, row-major
    int block = 16;                   // blockDim.x (and .y for 2D kernels)
    bool whatIf = false;              // let the CPU executor run past the GPU's limits
    Backend backend = Backend::Cpu;   // Cpu or Cuda (the app chooses explicitly)
    InputSpec input;
    // The race demonstration: the lines of the kernel whose __syncthreads()
    // is left out (the Source panel's check boxes), for the result and the
    // trace alike; cleared when the kernel changes. The warp order the CPU
    // executor runs a block in (Reverse by default once a barrier is dropped).
    std::vector<unsigned> droppedBarriers;
    Schedule schedule = Schedule::InOrder;
    unsigned seed = 1;  // of Schedule::Random (a graded case's seed, set by the Class panel's click)
    bool operator==(const SetupState&) const = default;
};

// Where the step-through views stand. Parsed from the command line
// (screenshot --select/--step/--compare) and kept here; the trace-driven
// views (grid, threads, shared memory, source, counts, compare) will draw
// from it and change it.
struct ViewState {
    std::optional<std::array<int, 2>> selectedOutput;  // P element (x, y); y = 0 for 1D
    std::optional<long long> step;                     // position in the trace
    std::string compareKernel;                         // empty: no compare mode
    std::optional<std::size_t> problem;                // --problem N: jump to the N-th problem, as a click would
    std::optional<Granularity> granularity;            // --granularity: what a step of the stepping bar is
    // --request K: after K + 1 steps by warp request from the start (the
    // selected thread's warp's request K, from 0), as the > button takes it there.
    std::optional<long long> request;
};

// What persists between runs (besides ImGui's own imgui.ini for window places).
struct Settings {
    bool lecture = false;
    // The panels shown, in the mode that is on; each mode keeps its own
    // (lecture-hall mode starts with fewer, larger ones: kLecturePanels).
    PanelVisibility panels;
    // The other mode's panels (lecture-hall mode's while it is off, the
    // everyday ones while it is on): shown again when the mode changes.
    PanelVisibility otherModePanels = PanelVisibility::lecture();
    SetupState setup;
    std::string compare;     // compare mode's second kernel (empty: none)
    std::string kernelFile;  // the student's kernel file open last (empty: none)
};

}  // namespace tilescope::ui
