// The report of `tilescope check --json`, built in one place for the command
// line and for `tilescope serve` (app/serve/), which answers the same JSON.
#pragma once

#include <string>

#include "request/request.hpp"

namespace tilescope::request {

// "__syncthreads() dropped at line 23, warps reverse", or empty when every
// barrier is kept.
std::string droppedBarriersText(const Loaded& loaded, const RunResult& result);

// The launch (launchJson), the barriers dropped, the mask, the counts per
// kind, the total, the largest error, the groups and every problem (up to
// ProblemSet::kMaxPerKind of a kind) with its words. The result must hold a
// trace and problems (a run with RunRequest::check on).
Json checkJson(const Loaded& loaded, const RunResult& result);

}  // namespace tilescope::request
