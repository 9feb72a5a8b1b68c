// The hardware side of an instrumented GPU run in the Chrome trace format
// (https://ui.perfetto.dev opens it): one track per SM, one slice per block
// from its first to its last recorded event.
#pragma once

#include <string>

#include "trace/trace.hpp"

namespace tilescope {

// JSON text; an empty "traceEvents" list when the trace has no hardware
// record (CPU runs).
std::string chromeTraceJson(const Trace& trace);

}  // namespace tilescope
