// A trace file opened with --open-trace (written by `tilescope trace --out`,
// on any machine): the step-through views step through it instead of
// tracing the set-up, and the hardware panel shows its hardware record.
#pragma once

#include <memory>
#include <string>

namespace tilescope {
struct Trace;
}

namespace tilescope::ui {

struct OpenedTrace {
    std::shared_ptr<const Trace> trace;  // null: none, or it could not be read (then `problem` says why)
    std::string problem;
    std::string path;  // as given; kept when the trace is closed
};

}  // namespace tilescope::ui
