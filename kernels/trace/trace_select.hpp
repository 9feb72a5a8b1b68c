// Choosing what to trace before running: the block lists that
// `--trace-blocks` and the app accept, checked against the grid of the plan
// a request will run with (api/runner.hpp's planRequest).
#pragma once

#include <string_view>
#include <vector>

#include "core/dim3.hpp"
#include "core/launch_plan.hpp"
#include "core/result.hpp"

namespace tilescope {

// "all" (or empty): every block, returned as an empty list (RunRequest's
// convention); "interior": every block whose input tile holds no ghost cell;
// otherwise blocks separated by ';', each "bx,by" (2D) or "bx" (1D), e.g.
// "0,0;1,0". Every block must lie inside the plan's grid.
Result<std::vector<Dim3>> parseTraceBlocks(std::string_view spec, const LaunchPlan& plan);

}  // namespace tilescope
