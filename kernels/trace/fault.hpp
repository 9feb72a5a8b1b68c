// The words for a kernel that went wrong, the same from the CPU executor and
// the instrumented GPU run.
#pragma once

#include <cstdint>
#include <string>

#include "core/launch_plan.hpp"
#include "trace/event.hpp"

namespace tilescope {

// "thread (3,2) of block (1,0), line 26: N_s[81] is outside the array (64 elements)"; through a 2D array
// (at.rows > 0), the subscripts as written: "... line 26: N_s[1][8]: column 8 of 8 columns"
std::string describeOutOfBounds(const LaunchPlan& plan, Dim3 block, unsigned thread, std::uint8_t array, int index,
                                int size, unsigned line, const Subscript2D& at = {});
// `name` with the subscripts as written: "N_s[1][8]"
std::string subscriptedName(const std::string& name, const Subscript2D& at);
// Which subscript is past its extent: "column 8 of 8 columns", "row -1 of 8 rows", both
// ("row 9 of 8 rows, column 8 of 8 columns"); with no extents known, "a subscript past its extent".
std::string subscriptPastItsExtent(const Subscript2D& at);
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
