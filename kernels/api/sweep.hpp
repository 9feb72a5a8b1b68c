// A sweep of the book's quantities over tile sizes and mask sizes, for any
// kernels: each point is one interior block traced on the CPU executor and
// counted (trace/counters.hpp), beside the book's closed form where the book
// gives one (Figure 7.14 of the 4th edition, Figure 7.22 and §7.4 of the
// 3rd). `tilescope sweep` prints it; the tests hold it to the book's tables.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/planner.hpp"
#include "core/result.hpp"
#include "trace/counters.hpp"

namespace tilescope {

struct SweepRequest {
    std::vector<std::string> kernels;
    std::vector<int> blocks;  // block edges (--block): IN_TILE_DIM, OUT_TILE_DIM, BLOCK_WIDTH... as each kernel reads it
    std::vector<int> radii;
    bool whatIf = true;       // past the GPU's limits on the CPU executor (the book's tables go there)
};

struct SweepPoint {
    std::string kernel;
    int dims = 2;
    int block = 0;
    int radius = 0;
    LaunchPlan plan;           // of the sweep's input (block (1,1) or block 1 is interior)
    Counters counts;           // of that one interior block
    DerivedFigures measured;
    // The book's closed forms for this kernel and point; empty where the book gives none.
    std::optional<double> bookFlopPerByte;
    std::optional<double> bookGlobalLoadsPerOutput;
    std::optional<double> bookInputLoadReduction;
    std::string skipped;       // why the point has no numbers (no output tile, ...), else empty
};

// The book's closed forms for a kernel at a planned point (interior block).
void bookFigures(SweepPoint& point);

Result<std::vector<SweepPoint>> sweep(const SweepRequest& request);

// With a GPU, each point's plain kernel timed on a width x height input (the
// median of its launches, in ms); empty where there is no GPU, the point has
// no numbers, or the point runs only past the GPU's limits (what-if). Without
// a GPU every entry is empty and `reason` (when given) says why.
std::vector<std::optional<double>> timeSweep(const std::vector<SweepPoint>& points, int width, int height,
                                             std::string* reason = nullptr);

}  // namespace tilescope
