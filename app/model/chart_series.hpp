// What the Charts panel plots, prepared from a sweep (api/sweep.hpp) with no
// ImGui in it, so that a test holds the plotted numbers to the sweep's own:
// for each strategy and mask size, one line over the block edges of the
// measured figures (FLOP per byte of global memory, Figure 7.14 of the 4th
// edition; global loads per output) and, where the book gives one, its closed
// form at the same points; and the GPU time of each point when a GPU timed it,
// with each mask's floor.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/sweep.hpp"

namespace tilescope::ui {

// The 2D strategies the panel compares, in the order of the palette's series
// colours; the block edges and mask radii it sweeps.
inline const std::vector<std::string> kChartKernels{"conv2d_basic", "conv2d_const", "conv2d_tiled_in",
                                                    "conv2d_tiled_out", "conv2d_tiled_cached"};
inline const std::vector<int> kChartBlocks{8, 16, 32};
inline const std::vector<int> kChartRadii{1, 2, 3, 4};
// The input the GPU times are taken on (as `tilescope sweep` does by default).
inline constexpr int kChartGpuEdge = 4096;

// Points of one quantity: x (the block edge) and y, in step.
struct ChartXY {
    std::vector<double> x, y;
};

struct ChartLine {
    std::string kernel;
    int strategy = 0;  // index in kChartKernels (-1: another kernel)
    int radius = 0;
    ChartXY flopPerByte, bookFlopPerByte;
    ChartXY loadsPerOutput, bookLoadsPerOutput;
    ChartXY gpuMs;  // empty without a GPU
};

// One line per (kernel, radius) in the order the sweep gave them, with only
// the points that have numbers (a point with no output tile is left out).
// `gpuMs`, when not empty, is timeSweep()'s answer for the same points.
std::vector<ChartLine> chartSeries(const std::vector<SweepPoint>& points,
                                   const std::vector<std::optional<double>>& gpuMs = {});

// A mask's floor on the GPU that timed the points, as `tilescope bench`
// reports it: the larger of a copy of the image's bytes (read once, written
// once) and its multiply-adds at the FP32 FMA peak. No kernel of the chart can
// take less.
struct ChartFloor {
    int radius = 0;
    double millis = 0.0;
    bool fmaBound = false;  // the multiply-adds' time is the larger
};
ChartFloor chartFloor(int radius, int edge, double copyMs, double peakGflops);

// The sweep the panel asks for, and its result with the lines prepared.
SweepRequest chartRequest();
struct ChartData {
    std::vector<ChartLine> lines;
    std::vector<ChartFloor> floors;  // one per radius, where the GPU timed the points and a copy
    bool gpuTimed = false;
    std::string noGpuReason;  // why there are no times
    std::string error;        // the sweep failed (empty: it did not)
};
// Runs the sweep (and, with a GPU, the timings): seconds of work, for a
// background thread.
ChartData computeChartData();

}  // namespace tilescope::ui
