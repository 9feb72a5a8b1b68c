// The words for a kernel that went wrong, the same from the CPU executor and
// the instrumented GPU run.
#pragma once

#include <cstdint>
#include <string>

#include "api/plan.hpp"

namespace tilescope {

// "thread (3,2) of block (1,0), line 26: N_s[81] is outside the array (64 elements)"
std::string describeOutOfBounds(const LaunchPlan& plan, Dim3 block, unsigned thread, std::uint8_t array, int index,
                                int size, unsigned line);
std::string describeThread(const LaunchPlan& plan, Dim3 block, unsigned thread);
std::string traceBudgetMessage(std::size_t budget);

// What went wrong in a launch that still ran to its end: accesses outside an
// array (noted, not made) and blocks whose threads did not all reach the same
// barriers (released, as the hardware does when threads exit). The problem
// detector names every one from the trace; this is what an untraced run knows.
struct LaunchFaults {
    std::uint64_t outside = 0;
    std::string firstOutside;  // the first (lowest block, then first noted), in words
    std::uint64_t barrierMismatches = 0;  // blocks
    std::string firstBarrier;
    bool any() const { return outside > 0 || barrierMismatches > 0; }
    void merge(const LaunchFaults& later) {
        if (outside == 0) firstOutside = later.firstOutside;
        if (barrierMismatches == 0) firstBarrier = later.firstBarrier;
        outside += later.outside;
        barrierMismatches += later.barrierMismatches;
    }
    // One line: "3 accesses outside their arrays (first: ...)", and the barriers.
    std::string summary() const;
};

}  // namespace tilescope
