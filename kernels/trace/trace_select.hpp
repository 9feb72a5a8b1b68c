// Choosing what to trace before running: the plan a request will run with
// (so a block list can be checked against the grid first), and the block
// lists that `--trace-blocks` and the app accept.
#pragma once

#include <string_view>
#include <vector>

#include "api/runner.hpp"
#include "core/result.hpp"

namespace tilescope {

// The plan runKernel will use for this request (same limits, same what-if rule).
Result<LaunchPlan> planRequest(const RunRequest& request);

// "all" (or empty): every block, returned as an empty list (RunRequest's
// convention); "interior": every block whose input tile holds no ghost cell;
// otherwise blocks separated by ';', each "bx,by" (2D) or "bx" (1D), e.g.
// "0,0;1,0". Every block must lie inside the plan's grid.
Result<std::vector<Dim3>> parseTraceBlocks(std::string_view spec, const LaunchPlan& plan);

}  // namespace tilescope
