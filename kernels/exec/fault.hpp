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

}  // namespace tilescope
