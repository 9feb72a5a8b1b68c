// Running a kernel: the one entry point the command line, the app and the
// tests use. It checks the request, plans the launch, picks the backend, and
// returns the output, the time, and (when asked) the trace.
#pragma once

#include <cstddef>

#include "core/result.hpp"
#include "exec/backend.hpp"
#include "exec/barrier_check.hpp"
#include "exec/run_request.hpp"

namespace tilescope {

Result<RunResult> runKernel(const RunRequest& request);

// Whether `error` is a traced run refused because its events would pass
// `budget` (RunRequest::eventBudget).
bool exceedsTraceBudget(const Error& error, std::size_t budget);

// The plan runKernel will use for this request (same limits, same what-if
// rule), so that a caller can check a block list against the grid before
// running, and pass the plan on in RunRequest::plan.
Result<LaunchPlan> planRequest(const RunRequest& request);

}  // namespace tilescope
